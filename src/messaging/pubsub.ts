import { type CallbackOptions, type Result, ok, randomId, settle } from './callbacks';
import type { Connection } from './connection';
import { ErrorText, badRequest } from './errors';
import {
  Limits,
  isPlainObject,
  normalizeNotification,
  validateCallbackOptions,
  validateChannelOrChannels,
  validateId,
  validatePublish,
  validateSubscribe,
  validateSubscribePresence,
} from './validate';

export interface PubSubMessage {
  channel: string;
  content: string;
  time: number;
}

export interface SubscribeOptions extends CallbackOptions<Result<string>> {
  channel?: string;
  channels?: string[];
  presence?: { enable?: boolean };
  accessToken?: string;
  onMessage(message: PubSubMessage): void;
}

export interface Notification {
  title: string;
  body: string;
  sound?: string;
  badge?: string;
  vendorOptions?: Record<string, Record<string, unknown>>;
}

export interface WxmpTemplateMsg {
  template_id: string;
  url?: string;
  miniprogram?: { appid: string; pagepath: string };
  data: Record<string, unknown>;
}

export interface PublishOptions extends CallbackOptions<Result<string>> {
  channel: string;
  message: string;
  accessToken?: string;
  notification?: Notification;
  wxmpTemplateMsg?: WxmpTemplateMsg;
  qos?: 0 | 1;
}

export interface PresenceMember {
  id: string;
  data: Record<string, unknown>;
}

export interface PresenceEvents {
  channel: string;
  [key: string]: unknown;
}

export interface SubscribePresenceOptions extends CallbackOptions<Result<string>> {
  channel?: string;
  channels?: string[];
  onPresence(events: PresenceEvents): void;
}

export interface ChannelOptions<T = Result<string>> extends CallbackOptions<T> {
  channel: string;
}

export interface PubSubHistoryOptions
  extends ChannelOptions<Result<{ messages: Array<{ time: number; content: string }> }>> {
  limit?: number;
}

export interface HereNowOptions extends ChannelOptions<Result<{ members: PresenceMember[]; amount: number }>> {
  limit?: number;
}

/** Serializes the template's data object, as the wire expects. */
export function templateForWire(template: WxmpTemplateMsg | undefined): Record<string, unknown> | undefined {
  return template ? { ...template, data: JSON.stringify(template.data) } : undefined;
}

interface Subscription {
  onMessage(message: PubSubMessage): void;
  presence: boolean;
  accessToken?: string;
}

export class PubSub {
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly presenceWatchers = new Map<string, (events: PresenceEvents) => void>();

  constructor(
    private readonly connection: () => Connection,
    private readonly anonymous: () => boolean,
  ) {}

  /** Called once per connection: routes pushes to subscribers. */
  attach(connection: Connection): void {
    connection.onPush('message', (body) => {
      const push = body as { n?: string; c?: string; t?: number };
      const subscription = push.n !== undefined ? this.subscriptions.get(String(push.n)) : undefined;
      subscription?.onMessage({ channel: String(push.n), content: String(push.c ?? ''), time: Number(push.t) });
    });
    connection.onPush('PS_PRESENCE_EVENT', (body) => {
      const events = (typeof body === 'string' ? JSON.parse(body) : body) as PresenceEvents & { n?: string };
      const channel = String(events.channel ?? events.n ?? '');
      this.presenceWatchers.get(channel)?.({ ...events, channel });
    });
  }

  /** After a new server session every channel is subscribed again; presence on every reconnect. */
  resubscribe(expired: boolean): void {
    const connection = this.connection();
    if (expired) {
      const byToken = new Map<string, { channels: string[]; presence: boolean; accessToken?: string }>();
      this.subscriptions.forEach((subscription, channel) => {
        const key = `${subscription.accessToken ?? ''}|${subscription.presence}`;
        const group = byToken.get(key) ?? {
          channels: [],
          presence: subscription.presence,
          accessToken: subscription.accessToken,
        };
        group.channels.push(channel);
        byToken.set(key, group);
      });
      byToken.forEach((group) => {
        connection
          .request(
            'subscribe',
            {
              channels: group.channels,
              accessToken: group.accessToken,
              presence: { enable: group.presence },
              resubscribe: true,
            },
            { permission: 'read' },
          )
          .catch(() => undefined);
      });
    }
    this.presenceWatchers.forEach((_watcher, channel) => {
      connection.request('PUBSUB_PRESENCE_SUBSCRIBE', { channel }, { permission: 'read' }).catch(() => undefined);
    });
  }

  subscribe(options: SubscribeOptions): Promise<Result<string>> {
    return settle(options, async () => {
      const { channels, presence } = validateSubscribe(options, this.anonymous());
      await this.connection().request(
        'subscribe',
        { channels, accessToken: options.accessToken, presence: { enable: presence }, resubscribe: false },
        { permission: 'read' },
      );
      for (const channel of channels) {
        this.subscriptions.set(channel, { onMessage: options.onMessage, presence, accessToken: options.accessToken });
      }
      return ok('ok');
    });
  }

  unsubscribe(options: ChannelOptions): Promise<Result<string>> {
    return settle(options, async () => {
      validateCallbackOptions(options);
      const channel = validateId(options.channel, 'channel');
      const subscription = this.subscriptions.get(channel);
      if (!subscription) throw badRequest(`channel[${channel}] is not subscribed`);
      await this.connection().request(
        'unsubscribe',
        { channel, presence: subscription.presence },
        { permission: 'read' },
      );
      this.subscriptions.delete(channel);
      return ok('ok');
    });
  }

  publish(options: PublishOptions): Promise<Result<string>> {
    return settle(options, async () => {
      validatePublish(options);
      const params: Record<string, unknown> = {
        channel: String(options.channel),
        content: options.message,
        nt: options.notification ? normalizeNotification(options.notification) : undefined,
        at: options.accessToken,
        guid: randomId(),
        q: options.qos,
      };
      if (options.wxmpTemplateMsg) params.wxmpTemplateMsg = templateForWire(options.wxmpTemplateMsg);
      await this.connection().request('publish', params, { permission: 'write', unique: true });
      return ok('ok');
    });
  }

  history(options: PubSubHistoryOptions): Promise<Result<{ messages: Array<{ time: number; content: string }> }>> {
    return settle(options, async () => {
      validateCallbackOptions(options);
      const channel = validateId(options.channel, 'channel');
      const body = await this.connection().request(
        'historyMessages',
        { channel, limit: options.limit },
        { permission: 'read', query: true },
      );
      const content = isPlainObject(body.content) ? body.content : {};
      return ok({ messages: (content.messages as Array<{ time: number; content: string }>) ?? [] });
    });
  }

  subscribePresence(options: SubscribePresenceOptions): Promise<Result<string>> {
    return settle(options, async () => {
      const channels = validateSubscribePresence(options, this.anonymous());
      await Promise.all(
        channels.map((channel) =>
          this.connection().request('PUBSUB_PRESENCE_SUBSCRIBE', { channel }, { permission: 'read' }),
        ),
      );
      for (const channel of channels) this.presenceWatchers.set(channel, options.onPresence);
      return ok('ok');
    });
  }

  unsubscribePresence(options: ChannelOptions): Promise<Result<string>> {
    return settle(options, async () => {
      validateCallbackOptions(options);
      const [channel] = validateChannelOrChannels(options.channel, undefined);
      try {
        await this.connection().request('PUBSUB_PRESENCE_UNSUBSCRIBE', { channel }, { permission: 'read' });
      } catch (error) {
        const failure = error as { code: number; content?: string };
        throw { code: failure.code, content: failure.content || ErrorText.UNSUBSCRIBE_PRESENCE_FAILED };
      }
      this.presenceWatchers.delete(channel);
      return ok('ok');
    });
  }

  hereNow(options: HereNowOptions): Promise<Result<{ members: PresenceMember[]; amount: number }>> {
    return settle(options, async () => {
      validateCallbackOptions(options);
      const channel = validateId(options.channel, 'channel');
      const limit = typeof options.limit === 'number' && options.limit > 0 ? options.limit : Limits.HERE_NOW_DEFAULT;
      const body = await this.connection().request(
        'PUBSUB_PRESENCE_HERENOW',
        { channel, limit },
        { permission: 'read', query: true },
      );
      const content = isPlainObject(body.content) ? body.content : {};
      const members = ((content.members as Array<{ id: string; data: unknown }>) ?? []).map((member) => ({
        id: String(member.id),
        data: (typeof member.data === 'string' ? JSON.parse(member.data || '{}') : (member.data ?? {})) as Record<
          string,
          unknown
        >,
      }));
      return ok({ members, amount: Number(content.amount ?? members.length) });
    });
  }

  /** Subscriptions stay across reconnects but end with disconnect(). */
  reset(): void {
    this.subscriptions.clear();
    this.presenceWatchers.clear();
  }
}

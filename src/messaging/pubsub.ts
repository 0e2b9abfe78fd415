import { type CallbackOptions, type Result, ok, parseJson, randomId } from './callbacks';
import { type Connection, QUERY, READ, SEND } from './connection';
import { badRequest } from './errors';
import * as Call from './protocol/calls';
import * as Limits from './protocol/limits';
import * as Push from './protocol/pushes';
import * as Text from './protocol/texts';
import {
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

/** What `onPresence` receives, as GoEasy 2.8.3 hands it: the change and the channel's members after it. */
export interface PresenceEvents {
  channel: string;
  action: 'join' | 'leave' | 'back' | 'timeout';
  member: PresenceMember;
  time: number;
  amount: number;
  /** The first `membersLimit` members (10 unless subscribePresence asked for more), newest first. */
  members: PresenceMember[];
}

export interface SubscribePresenceOptions extends CallbackOptions<Result<string>> {
  channel?: string;
  channels?: string[];
  membersLimit?: number;
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

/** One channel's presence as the client keeps it: queried once, then moved by each event. */
class ChannelPresence {
  members: PresenceMember[] = [];
  amount = 0;
  query: Promise<void> | null = null;
  constructor(
    readonly channel: string,
    public membersLimit: number,
    public onPresence: (events: PresenceEvents) => void,
  ) {}

  update(action: PresenceEvents['action'], member: PresenceMember, amount: number): void {
    if (action === 'join' || action === 'back') {
      this.members = [member, ...this.members.filter((known) => known.id !== member.id)];
    } else this.members = this.members.filter((known) => known.id !== member.id);
    this.amount = amount;
  }
}

function memberOf(raw: unknown): PresenceMember {
  const member = isPlainObject(raw) ? raw : {};
  const data = member.data;
  return {
    id: String(member.id),
    data: (typeof data === 'string' ? parseJson(data, {}) : isPlainObject(data) ? data : {}) as Record<string, unknown>,
  };
}

interface Subscription {
  onMessage(message: PubSubMessage): void;
  presence: boolean;
  accessToken?: string;
}

export class PubSub {
  private readonly subscriptions = new Map<string, Subscription>();
  private readonly presenceWatchers = new Map<string, ChannelPresence>();

  constructor(
    private readonly connection: () => Connection,
    private readonly anonymous: () => boolean,
  ) {}

  /** Called once per connection: routes pushes to subscribers. */
  attach(connection: Connection): void {
    connection.onPush(Push.MESSAGE, (body) => {
      const push = body as { n?: string; c?: string; t?: number };
      const subscription = push.n !== undefined ? this.subscriptions.get(String(push.n)) : undefined;
      subscription?.onMessage({ channel: String(push.n), content: String(push.c ?? ''), time: Number(push.t) });
    });
    connection.onPush(Push.PRESENCE_EVENT, (body) => {
      const event = parseJson<Record<string, unknown>>(body, {});
      if (!isPlainObject(event)) return;
      const watcher = this.presenceWatchers.get(String(event.channel ?? event.n ?? ''));
      if (watcher) this.onPresenceEvent(watcher, event).catch(() => undefined);
    });
  }

  /** After a new server session every channel is subscribed again; presence on every reconnect. */
  resubscribe(expired: boolean): void {
    const connection = this.connection();
    if (expired) {
      const byToken = new Map<string, { channels: string[]; presence: boolean; accessToken?: string }>();
      this.subscriptions.forEach((subscription, channel) => {
        const key = `${subscription.accessToken ?? ''}|${subscription.presence}`;
        const group = byToken.get(key) || {
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
            Call.SUBSCRIBE,
            {
              channels: group.channels,
              accessToken: group.accessToken,
              presence: { enable: group.presence },
              resubscribe: true,
            },
            READ,
          )
          .catch(() => undefined);
      });
    }
    this.presenceWatchers.forEach((watcher, channel) => {
      this.queryPresence(watcher);
      connection.request(Call.PRESENCE_SUBSCRIBE, { channel }, READ).catch(() => undefined);
    });
  }

  async subscribe(options: SubscribeOptions): Promise<Result<string>> {
    const { channels, presence } = validateSubscribe(options, this.anonymous());
    await this.connection().request(
      Call.SUBSCRIBE,
      { channels, accessToken: options.accessToken, presence: { enable: presence }, resubscribe: false },
      READ,
    );
    for (const channel of channels) {
      this.subscriptions.set(channel, { onMessage: options.onMessage, presence, accessToken: options.accessToken });
    }
    return ok('ok');
  }

  async unsubscribe(options: ChannelOptions): Promise<Result<string>> {
    validateCallbackOptions(options);
    const channel = validateId(options.channel, 'channel');
    const subscription = this.subscriptions.get(channel);
    if (!subscription) throw badRequest(Text.notSubscribed(channel));
    await this.connection().request(Call.UNSUBSCRIBE, { channel, presence: subscription.presence }, READ);
    this.subscriptions.delete(channel);
    return ok('ok');
  }

  async publish(options: PublishOptions): Promise<Result<string>> {
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
    await this.connection().request(Call.PUBLISH, params, SEND);
    return ok('ok');
  }

  async history(
    options: PubSubHistoryOptions,
  ): Promise<Result<{ messages: Array<{ time: number; content: string }> }>> {
    validateCallbackOptions(options);
    const channel = validateId(options.channel, 'channel');
    const body = await this.connection().request(Call.HISTORY, { channel, limit: options.limit }, QUERY);
    const content = isPlainObject(body.content) ? body.content : {};
    return ok({ messages: (content.messages as Array<{ time: number; content: string }>) ?? [] });
  }

  private async onPresenceEvent(watcher: ChannelPresence, event: Record<string, unknown>): Promise<void> {
    await watcher.query?.catch(() => undefined);
    const action = event.action as PresenceEvents['action'];
    const member = memberOf(event.member);
    watcher.update(action, member, Number(event.amount ?? watcher.amount));
    watcher.onPresence({
      channel: watcher.channel,
      action,
      member,
      time: Number(event.time),
      amount: watcher.amount,
      members: watcher.members.slice(0, watcher.membersLimit),
    });
  }

  /** The channel's members (up to the watcher's limit) and amount, which the events then keep current. */
  private queryPresence(watcher: ChannelPresence): Promise<void> {
    watcher.query = this.hereNowContent(watcher.channel, watcher.membersLimit).then((content) => {
      watcher.members = content.members;
      watcher.amount = content.amount;
    });
    watcher.query.catch(() => undefined);
    return watcher.query;
  }

  async subscribePresence(options: SubscribePresenceOptions): Promise<Result<string>> {
    const channels = validateSubscribePresence(options, this.anonymous());
    const limit =
      typeof options.membersLimit === 'number' && options.membersLimit > 0
        ? Math.floor(options.membersLimit)
        : Limits.HERE_NOW_DEFAULT;
    for (const channel of channels) {
      const known = this.presenceWatchers.get(channel);
      if (known) {
        known.onPresence = options.onPresence;
        known.membersLimit = limit;
        continue;
      }
      const watcher = new ChannelPresence(channel, limit, options.onPresence);
      this.queryPresence(watcher);
      await this.connection().request(Call.PRESENCE_SUBSCRIBE, { channel }, READ);
      this.presenceWatchers.set(channel, watcher);
    }
    return ok('ok');
  }

  async unsubscribePresence(options: ChannelOptions): Promise<Result<string>> {
    validateCallbackOptions(options);
    const [channel] = validateChannelOrChannels(options.channel, undefined);
    try {
      await this.connection().request(Call.PRESENCE_UNSUBSCRIBE, { channel }, READ);
    } catch (error) {
      const failure = error as { code: number; content?: string };
      throw { code: failure.code, content: failure.content || Text.UNSUBSCRIBE_PRESENCE_FAILED };
    }
    this.presenceWatchers.delete(channel);
    return ok('ok');
  }

  private async hereNowContent(channel: string, limit: number): Promise<{ members: PresenceMember[]; amount: number }> {
    const body = await this.connection().request(Call.PRESENCE_HERE_NOW, { channel, limit }, QUERY);
    const content = isPlainObject(body.content) ? body.content : {};
    const members = (Array.isArray(content.members) ? content.members : []).map(memberOf);
    return { members, amount: Number(content.amount ?? members.length) };
  }

  async hereNow(options: HereNowOptions): Promise<Result<{ members: PresenceMember[]; amount: number }>> {
    validateCallbackOptions(options);
    const channel = validateId(options.channel, 'channel');
    const limit = typeof options.limit === 'number' && options.limit > 0 ? options.limit : Limits.HERE_NOW_DEFAULT;
    return ok(await this.hereNowContent(channel, limit));
  }

  /** Subscriptions stay across reconnects but end with disconnect(). */
  reset(): void {
    this.subscriptions.clear();
    this.presenceWatchers.clear();
  }
}

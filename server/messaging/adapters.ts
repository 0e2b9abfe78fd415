import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { MessagingDatabase } from '../db/messaging-schema';
import type { WechatConfig } from './config';
import type { WxmpTemplateMsg } from './validate';

/**
 * Notifications (`nt`) and WeChat template messages leave through adapters. Without credentials they
 * land in the `msg_outbox` table (what a vendor would have received, inspectable by operators and
 * tests); with a WeChat appid and secret, template messages go to the WeChat API.
 */
export interface PushTarget {
  kind: 'channel' | 'user' | 'group';
  id: string;
}

export interface PushAdapter {
  notify(target: PushTarget, notification: Record<string, unknown>, source: Record<string, unknown>): Promise<void>;
}

/** Who a template message is for: a channel's publish, or the users of an IM message who are offline. */
export type TemplateRecipients = PushTarget | { kind: 'users'; ids: string[] };

export interface WechatTemplateAdapter {
  send(target: TemplateRecipients, message: WxmpTemplateMsg): Promise<void>;
}

const recipientLabel = (target: TemplateRecipients) =>
  target.kind === 'users' ? `users:${target.ids.join(',')}` : `${target.kind}:${target.id}`;

async function writeOutbox(
  db: Kysely<MessagingDatabase>,
  kind: string,
  recipient: string,
  body: unknown,
): Promise<void> {
  await db
    .insertInto('msg_outbox')
    .values({ id: randomUUID(), kind, recipient, body: JSON.stringify(body), created_at: Date.now() })
    .execute();
}

export class OutboxPushAdapter implements PushAdapter {
  constructor(private readonly db: Kysely<MessagingDatabase>) {}

  async notify(target: PushTarget, notification: Record<string, unknown>, source: Record<string, unknown>) {
    await writeOutbox(this.db, 'push', `${target.kind}:${target.id}`, { notification, source });
  }
}

export class OutboxWechatAdapter implements WechatTemplateAdapter {
  constructor(private readonly db: Kysely<MessagingDatabase>) {}

  async send(target: TemplateRecipients, message: WxmpTemplateMsg) {
    if (target.kind === 'users' && target.ids.length === 0) return;
    await writeOutbox(this.db, 'wxmp', recipientLabel(target), message);
  }
}

/** The WeChat official-account template message API, with its access token cached until shortly before expiry. */
export class WechatApiTemplateAdapter implements WechatTemplateAdapter {
  private token: { value: string; expiresAt: number } | null = null;

  constructor(
    private readonly db: Kysely<MessagingDatabase>,
    private readonly config: WechatConfig,
  ) {}

  private tokenRequest: Promise<string> | null = null;

  /** One token request at a time: concurrent sends share it instead of invalidating each other's token. */
  private accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now()) return Promise.resolve(this.token.value);
    if (!this.tokenRequest) {
      this.tokenRequest = this.requestToken().finally(() => {
        this.tokenRequest = null;
      });
    }
    return this.tokenRequest;
  }

  private async requestToken(): Promise<string> {
    const url = `${this.config.apiBase}/cgi-bin/token?grant_type=client_credential&appid=${encodeURIComponent(
      this.config.appid,
    )}&secret=${encodeURIComponent(this.config.secret)}`;
    const body = (await (await fetch(url)).json()) as {
      access_token?: string;
      expires_in?: number;
      errmsg?: string;
    };
    if (!body.access_token) throw new Error(`WeChat token request failed: ${body.errmsg ?? 'no access_token'}`);
    this.token = { value: body.access_token, expiresAt: Date.now() + ((body.expires_in ?? 7200) - 300) * 1000 };
    return body.access_token;
  }

  async send(target: TemplateRecipients, message: WxmpTemplateMsg) {
    const openids = await this.openids(target);
    if (openids.length === 0) return;
    const token = await this.accessToken();
    for (const openid of openids) {
      const response = await fetch(`${this.config.apiBase}/cgi-bin/message/template/send?access_token=${token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        // The recipient is the server's record of the target user; the template carries only its own fields.
        body: JSON.stringify({
          touser: openid,
          template_id: message.template_id,
          ...(message.url ? { url: message.url } : {}),
          ...(message.miniprogram ? { miniprogram: message.miniprogram } : {}),
          data: message.data,
        }),
      });
      const result = (await response.json()) as { errcode?: number; errmsg?: string };
      if (result.errcode) throw new Error(`WeChat template message failed: ${result.errcode} ${result.errmsg ?? ''}`);
    }
  }

  /** Users who connected with a wxmpId of this appid: the users named, the user itself, or a group's members. */
  private async openids(target: TemplateRecipients): Promise<string[]> {
    if (target.kind === 'channel' || (target.kind === 'users' && target.ids.length === 0)) return [];
    let query = this.db.selectFrom('msg_user_wxmp').select('openid').where('appid', '=', this.config.appid);
    if (target.kind === 'users') query = query.where('user_id', 'in', target.ids);
    else if (target.kind === 'user') query = query.where('user_id', '=', target.id);
    else
      query = query.where(
        'user_id',
        'in',
        this.db.selectFrom('msg_group_member').select('user_id').where('group_id', '=', target.id),
      );
    const rows = await query.execute();
    return rows.map((row) => row.openid as string);
  }
}

export function createAdapters(db: Kysely<MessagingDatabase>, wechat: WechatConfig) {
  return {
    push: new OutboxPushAdapter(db) as PushAdapter,
    wechat: (wechat.appid
      ? new WechatApiTemplateAdapter(db, wechat)
      : new OutboxWechatAdapter(db)) as WechatTemplateAdapter,
  };
}

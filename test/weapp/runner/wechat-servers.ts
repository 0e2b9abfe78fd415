import { randomBytes } from 'node:crypto';
import type { WeChatFake } from '../../../server/sandbox/wechat';

/**
 * The place where the runner's `wx` meets WeChat's own servers: wx.login, wx.requestPayment and
 * wx.requestSubscribeMessage answer from here. A test (or a later fake of WeChat's HTTP APIs: code2Session,
 * WeChat Pay v3, subscribe messages) plugs its own behaviour in by replacing a member; the defaults are what a
 * WeChat client does with no backend behind it.
 */
export interface PaymentRequest {
  timeStamp: string;
  nonceStr: string;
  package: string;
  signType: string;
  paySign: string;
}

export type SubscribeAnswer = 'accept' | 'reject' | 'ban';

export interface WeChatUser {
  appid: string;
  openid: string;
}

export class WeChatServers {
  /** Codes wx.login handed out, for a code2Session fake to exchange once. */
  private readonly codes = new Map<string, WeChatUser & { sessionKey: string }>();
  readonly payments: PaymentRequest[] = [];
  readonly subscriptions: { openid: string; templateId: string; answer: SubscribeAnswer }[] = [];

  constructor(readonly fake?: WeChatFake) {}

  /** What the user does on WeChat's payment sheet; the default cancels, as there is no WeChat Pay fake yet. */
  payWith: (request: PaymentRequest, user: WeChatUser) => Promise<'paid' | 'cancel'> = async () => 'cancel';

  /** What the user answers on the subscribe dialog for each template. */
  subscribeAnswer: (templateId: string, user: WeChatUser) => SubscribeAnswer = () => 'accept';

  /** wx.login: a code valid once, for five minutes, as WeChat's. */
  login(user: WeChatUser): string {
    if (this.fake) return this.fake.issueCode(user);
    const code = randomBytes(16).toString('hex');
    this.codes.set(code, { ...user, sessionKey: randomBytes(16).toString('base64') });
    setTimeout(() => this.codes.delete(code), 5 * 60_000).unref();
    return code;
  }

  /** code2Session: the openid and session key behind a code, once. */
  exchange(code: string): (WeChatUser & { sessionKey: string }) | undefined {
    const session = this.codes.get(code);
    this.codes.delete(code);
    return session;
  }

  async requestPayment(request: PaymentRequest, user: WeChatUser): Promise<'paid' | 'cancel'> {
    this.payments.push(request);
    return this.payWith(request, user);
  }

  requestSubscribe(templateIds: string[], user: WeChatUser): Record<string, SubscribeAnswer> {
    const answers: Record<string, SubscribeAnswer> = {};
    for (const templateId of templateIds) {
      const answer = this.subscribeAnswer(templateId, user);
      answers[templateId] = answer;
      this.subscriptions.push({ openid: user.openid, templateId, answer });
    }
    return answers;
  }
}

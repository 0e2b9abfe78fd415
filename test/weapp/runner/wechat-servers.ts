import { randomBytes } from 'node:crypto';
import type { WeChatFake } from '../../../server/sandbox/wechat';
import type { WechatPayFake } from '../../../server/sandbox/wechatpay';

/**
 * The place where the runner's `wx` meets WeChat's own servers: wx.login, wx.requestPayment and
 * wx.requestSubscribeMessage answer from here. Given the local fakes of WeChat's server API and of WeChat Pay
 * (server/sandbox/wechat.ts, wechatpay.ts), wx.login hands out the fake's codes and the payment sheet pays through
 * the WeChat Pay fake; a test plugs other behaviour in by replacing a member. Without them the defaults are what a
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

  constructor(
    readonly fake?: WeChatFake,
    readonly pay?: WechatPayFake,
  ) {}

  /**
   * What happens on WeChat's payment sheet. With the WeChat Pay fake, the sheet checks the signed fields and the
   * user pays (a test may make them cancel); without one the sheet is cancelled, as nothing could take the money.
   */
  payWith: (request: PaymentRequest, user: WeChatUser) => Promise<'paid' | 'cancel' | 'fail'> = async (
    request,
    user,
  ) => (this.pay ? this.pay.pay(request, user) : 'cancel');

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

  async requestPayment(request: PaymentRequest, user: WeChatUser): Promise<'paid' | 'cancel' | 'fail'> {
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

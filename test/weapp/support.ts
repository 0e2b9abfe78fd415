import { join } from 'node:path';
import { WeChatFake, newWeChatKeys } from '../../server/sandbox/wechat';
import { WechatPayFake, newWechatPayKeys } from '../../server/sandbox/wechatpay';
import { apiPost } from '../e2e/support/account-flow';
import { type RunningShop, startShop } from '../e2e/support/server';
import type { LaunchOptions } from './runner/mini-program';
import { Phone } from './runner/phone';
import { WeChatServers, type WeChatUser } from './runner/wechat-servers';

export { startShop, type RunningShop };

const root = join(__dirname, '../..');
/** The build the journeys run: dist/weapp (scripts/test-all.mjs builds it when missing), or WEAPP_DIR. */
export const weappDir = process.env.WEAPP_DIR || join(root, 'dist/weapp');
export const fixture = (name: string) => join(__dirname, 'fixtures', name);

export const SHOPPER = { email: 'ada@lensmate.test', password: 'Shopper#2026a' };
export const OTHER_SHOPPER = { email: 'ben@lensmate.test', password: 'Shopper#2026b' };
export const ADMIN = { email: 'admin@lensmate.test', password: 'Admin#2026pass' };

/** A phone with the mini-program launched on its first page (or `path`), talking to `shop`. */
export async function openPhone(
  shop: RunningShop,
  options: Partial<LaunchOptions> & { path?: string; query?: Record<string, string> } = {},
): Promise<Phone> {
  const phone = new Phone({ distDir: weappDir, server: shop.url, ...options });
  await phone.launch(options.path, options.query);
  return phone;
}

/** Calls the shop API directly, for what a test arranges outside the mini-program; refusals throw. */
export async function api<T>(shop: RunningShop, path: string, body: unknown, token?: string): Promise<T> {
  const answer = await apiPost<T>(shop.url, path, body, token);
  if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.msg}`);
  return answer.data;
}

/** Signs in on the login page the way a user does. */
export async function signIn(phone: Phone, account: { email: string; password: string }): Promise<void> {
  await phone.waitForPage('pages/login/login');
  await phone.type('you@example.com', account.email);
  await phone.type('Your password', account.password);
  await phone.tap('Sign in');
}

/**
 * WeChat's side of the journeys: local fakes of WeChat's server API (code2Session) and of WeChat Pay's v3 API, the
 * shop's variables pointing at them, and the runner's wx.login and wx.requestPayment answered by them.
 */
export interface WeChatWorld {
  fake: WeChatFake;
  pay: WechatPayFake;
  servers: WeChatServers;
  /** WEAPP_* and WECHATPAY_* for startShop. */
  env: Record<string, string>;
  /** A new WeChat user of this mini-program (a phone's owner). */
  newUser(): WeChatUser;
  /** Sends WeChat Pay's notifications to the shop once it listens. */
  connect(shop: RunningShop): void;
  close(): Promise<void>;
}

export async function startWeChatWorld(): Promise<WeChatWorld> {
  const fake = new WeChatFake(newWeChatKeys());
  const pay = new WechatPayFake(newWechatPayKeys(fake.keys.appid));
  await Promise.all([fake.start(), pay.start()]);
  return {
    fake,
    pay,
    servers: new WeChatServers(fake, pay),
    env: {
      WEAPP_APPID: fake.keys.appid,
      WEAPP_SECRET: fake.keys.secret,
      WEAPP_API_BASE: fake.origin,
      ...pay.env('http://127.0.0.1/api/payment/webhook/wechat'),
    },
    newUser: () => ({ appid: fake.keys.appid, openid: WeChatFake.newOpenid() }),
    connect(shop) {
      pay.webhooks.endpoint = `${shop.url}/api/payment/webhook/wechat`;
    },
    async close() {
      await pay.webhooks.settled();
      await Promise.all([fake.close(), pay.close()]);
    },
  };
}

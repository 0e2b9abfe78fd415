import { post } from '@/core/request';
import { signIn } from '@/state/customer';
import Taro from '@tarojs/taro';
import type { WechatLogin } from '../../../types/api';

/** What the shopper chose for a WeChat account the shop does not know yet. */
export type WechatChoice = { create: true } | { email: string; password: string } | Record<string, never>;

/**
 * Sign in with WeChat: a fresh wx.login code (each is good once) goes to the server, which asks WeChat whose it is.
 * A known WeChat signs in; a new one is linked to the account whose e-mail and password are given, or gets a new
 * account, or (neither asked) comes back `unlinked` for the shopper to choose.
 */
export async function loginWithWechat(choice: WechatChoice = {}): Promise<WechatLogin['outcome']> {
  const { code } = await Taro.login();
  const answer = await post('/api/wechat/login', { code, ...choice });
  if (answer.login) signIn(answer.login);
  return answer.outcome;
}

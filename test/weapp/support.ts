import { join } from 'node:path';
import { apiPost } from '../e2e/support/account-flow';
import { type RunningShop, startShop } from '../e2e/support/server';
import type { LaunchOptions } from './runner/mini-program';
import { Phone } from './runner/phone';

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

/**
 * Sign in with WeChat in the mini-program. The phone's wx.login code is exchanged through WeChat's code2Session
 * (`GET {WEAPP_API_BASE}/sns/jscode2session` with WEAPP_APPID and WEAPP_SECRET: the real endpoint, or a local
 * fake in tests and the demo) for the user's openid, which the server keeps (`wechat_accounts`) and never takes
 * from the client. The session key stays with WeChat's answer: nothing here needs it, so it is not stored.
 */
import { createHash } from 'node:crypto';
import type { WechatLogin } from '../../types/api';
import type { ParsedRequestOf } from '../../types/contract';
import { type UserRow, issueToken } from '../auth';
import type { WeappConfig } from '../config';
import { PROVIDER_URLS } from '../config';
import type { AppContext } from '../context';
import { ApiError } from '../http';
import { registerProductionCheck } from '../production-mode';
import { checkCredentials } from './accounts';

export const WECHAT_NOT_CONFIGURED = 'WeChat login is not configured';
export const BAD_WECHAT_CODE = 'code: the WeChat login has expired, please try again';
export const WECHAT_UNREACHABLE = 'WeChat could not be reached, please try again';
export const OPENID_LINKED_ELSEWHERE = 'email: this WeChat is already linked to another account';
export const ACCOUNT_LINKED_ELSEWHERE = 'email: this account is already linked to another WeChat';
/** The nickname of an account made by signing in with WeChat (the shopper changes it in their profile). */
export const WECHAT_NICKNAME = 'WeChat user';

/** code2Session: the openid behind a wx.login code, or a refusal the shopper can act on. */
export async function codeToSession(weapp: WeappConfig, code: string): Promise<{ openid: string }> {
  const url = new URL(`${weapp.apiBase}/sns/jscode2session`);
  url.search = new URLSearchParams({
    appid: weapp.appid,
    secret: weapp.secret,
    js_code: code,
    grant_type: 'authorization_code',
  }).toString();
  let answer: { openid?: unknown; errcode?: number; errmsg?: string };
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    answer = (await response.json()) as typeof answer;
  } catch {
    throw new ApiError(503, WECHAT_UNREACHABLE);
  }
  // 40029 invalid code, 40163 code been used: a stale or replayed code; the phone asks wx.login for a new one.
  if (answer.errcode === 40029 || answer.errcode === 40163) throw new ApiError(400, BAD_WECHAT_CODE);
  if (answer.errcode) {
    console.warn(`code2Session refused: ${answer.errcode} ${answer.errmsg ?? ''}`);
    throw new ApiError(503, `WeChat refused the login (${answer.errcode}), please try again later`);
  }
  if (typeof answer.openid !== 'string' || !/^[\w-]{1,128}$/.test(answer.openid)) {
    throw new ApiError(503, WECHAT_UNREACHABLE);
  }
  return { openid: answer.openid };
}

async function linkedAccount(ctx: AppContext, appid: string, openid: string): Promise<UserRow | undefined> {
  return ctx.db
    .selectFrom('wechat_accounts')
    .innerJoin('users', 'users.id', 'wechat_accounts.user_id')
    .selectAll('users')
    .where('wechat_accounts.appid', '=', appid)
    .where('wechat_accounts.openid', '=', openid)
    .executeTakeFirst();
}

/** An address no mail reaches (RFC 2606's .invalid), unique per WeChat user, for an account made from WeChat. */
const placeholderEmail = (appid: string, openid: string) =>
  `wechat-${createHash('sha256').update(`${appid}:${openid}`).digest('hex').slice(0, 20)}@wechat.invalid`;

export async function wechatLogin(
  ctx: AppContext,
  input: ParsedRequestOf<'POST /api/wechat/login'>,
  ip: string,
): Promise<WechatLogin> {
  const weapp = ctx.config.weapp;
  if (!weapp) throw new ApiError(503, WECHAT_NOT_CONFIGURED);
  if (input.email !== undefined && input.password === undefined) throw new ApiError(400, 'password: is required');
  if (input.password !== undefined && input.email === undefined) throw new ApiError(400, 'email: is required');
  if (input.email !== undefined && input.create) {
    throw new ApiError(400, 'create: link an existing account or create a new one, not both');
  }
  const { openid } = await codeToSession(weapp, input.code);
  const linked = await linkedAccount(ctx, weapp.appid, openid);
  if (linked) {
    if (input.email !== undefined && input.email !== linked.email) throw new ApiError(409, OPENID_LINKED_ELSEWHERE);
    return { outcome: 'signed_in', login: await issueToken(ctx, linked) };
  }
  if (input.email !== undefined && input.password !== undefined) {
    const user = await checkCredentials(ctx, input.email, input.password, ip);
    const added = await ctx.db
      .insertInto('wechat_accounts')
      .values({ appid: weapp.appid, openid, user_id: user.id, created_at: ctx.now() })
      .onConflict((conflict) => conflict.doNothing())
      .executeTakeFirst();
    if (Number(added.numInsertedOrUpdatedRows ?? 0) !== 1) {
      // Either the account has another WeChat, or this WeChat was linked meanwhile (two taps at once).
      const now = await linkedAccount(ctx, weapp.appid, openid);
      if (now && now.id === user.id) return { outcome: 'linked', login: await issueToken(ctx, user) };
      throw new ApiError(409, now ? OPENID_LINKED_ELSEWHERE : ACCOUNT_LINKED_ELSEWHERE);
    }
    return { outcome: 'linked', login: await issueToken(ctx, user) };
  }
  if (!input.create) return { outcome: 'unlinked', login: null };
  const user = await ctx.db.transaction().execute(async (trx) => {
    const made = await trx
      .insertInto('users')
      .values({
        email: placeholderEmail(weapp.appid, openid),
        // No password: the account signs in with WeChat (a password login is checked against a dummy hash).
        password_hash: '',
        nickname: WECHAT_NICKNAME,
        avatar: '',
        bio: '',
        is_admin: 0,
        google_sub: null,
        created_at: ctx.now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('wechat_accounts')
      .values({ appid: weapp.appid, openid, user_id: made.id, created_at: ctx.now() })
      .execute();
    return made;
  });
  return { outcome: 'created', login: await issueToken(ctx, user) };
}

/** The user's WeChat identity in the mini-program, for the messaging SDK's wxmpId; null without one. */
export async function wxmpIdOf(ctx: AppContext, userId: number): Promise<{ appid: string; openid: string } | null> {
  const weapp = ctx.config.weapp;
  if (!weapp) return null;
  const row = await ctx.db
    .selectFrom('wechat_accounts')
    .select(['appid', 'openid'])
    .where('appid', '=', weapp.appid)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ?? null;
}

registerProductionCheck({
  id: 'wechat.login',
  check({ config }) {
    const weapp = config?.weapp;
    if (!weapp || weapp.apiBase === PROVIDER_URLS.wechatApi) return [];
    return [{ name: 'WEAPP_API_BASE', reason: `exchanges WeChat login codes with ${weapp.apiBase}, not with WeChat` }];
  },
});

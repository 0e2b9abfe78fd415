import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { OAuth2Client } from 'google-auth-library';
import type { LoginResult, UserProfile } from '../../types/api';
import type { ParsedRequestOf } from '../../types/contract';
import { type UserRow, issueToken, revokeTokens } from '../auth';
import type { AppContext } from '../context';
import { ApiError } from '../http';
import { sessionRefOf } from '../messaging/otp';
import { hashPassword, tokenHash, verifyPasswordOrDummy } from './passwords';
import { tooManyMessage } from './rate-limit';

const CODE_TTL_MS = 15 * 60_000;
const CODE_ATTEMPTS = 5;
export const BAD_CREDENTIALS = 'Wrong e-mail or password';
export const BAD_CODE = 'The verification code is wrong or has expired';
export const GOOGLE_NOT_CONFIGURED = 'Google login is not configured';

/** Per account, on top of the per-IP limit of the route: a hit past the limit is a 429 naming the wait. */
export async function limitAccount(ctx: AppContext, action: string, account: string): Promise<void> {
  const { count, ttl } = await ctx.limits.hit(`${action}:${account}`, ctx.config.authRateLimit.windowMs);
  if (count > ctx.config.authRateLimit.max) throw new ApiError(429, tooManyMessage(ttl));
}

/** How long a client that signed in to an account (or reset its password) stays known to that account. */
const KNOWN_CLIENT_TTL_MS = 30 * 24 * 3600_000;
const loginFailuresKey = (address: string) => `login-failures:${address}`;
const knownClientKey = (address: string, ip: string) => `login-known:${address}:${ip}`;

/**
 * Wrong passwords are counted per account from every IP. Under the limit anyone may try (each IP is held to the
 * route's own per-IP limit); past it only clients known to the account may, so a guesser spread over many IPs is
 * slowed to the limit per window while the owner, signing in from where they did before, is never locked out.
 */
async function admitLogin(ctx: AppContext, address: string, ip: string): Promise<void> {
  const failures = await ctx.limits.peek(loginFailuresKey(address));
  if (failures.count < ctx.config.loginAccountFailureMax) return;
  if (await ctx.limits.isMarked(knownClientKey(address, ip))) return;
  throw new ApiError(429, tooManyMessage(failures.ttl));
}

/** A proven owner (right password, or a mailed code): this client is known to the account from now on. */
async function rememberOwnerClient(ctx: AppContext, address: string, ip: string): Promise<void> {
  await ctx.limits.mark(knownClientKey(address, ip), KNOWN_CLIENT_TTL_MS);
}

const codeHash = (email: string, code: string) => createHash('sha256').update(`${email}:${code}`).digest('hex');

/** Checks and consumes a mailed code; five wrong tries burn it. */
export async function consumeVerificationCode(ctx: AppContext, address: string, code: string): Promise<void> {
  const row = await ctx.db
    .selectFrom('verification_codes')
    .selectAll()
    .where('email', '=', address)
    .where('used', '=', 0)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!row || row.expires_at < ctx.now() || row.attempts >= CODE_ATTEMPTS) throw new ApiError(400, `code: ${BAD_CODE}`);
  const expected = Buffer.from(row.code_hash);
  const given = Buffer.from(codeHash(address, code));
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    await ctx.db
      .updateTable('verification_codes')
      .set({ attempts: row.attempts + 1 })
      .where('id', '=', row.id)
      .execute();
    throw new ApiError(400, `code: ${BAD_CODE}`);
  }
  await ctx.db.updateTable('verification_codes').set({ used: 1 }).where('email', '=', address).execute();
}

/** Guesses at the old password are moot, and the client that changed it proved it is the owner's. */
async function passwordChanged(ctx: AppContext, address: string, ip: string): Promise<void> {
  await ctx.limits.reset(loginFailuresKey(address));
  await rememberOwnerClient(ctx, address, ip);
}

/** register: a new shopper account, signed in. */
export async function register(
  ctx: AppContext,
  input: ParsedRequestOf<'POST /api/auth/register'>,
): Promise<LoginResult> {
  await limitAccount(ctx, 'register', input.email);
  const existing = await ctx.db.selectFrom('users').select('id').where('email', '=', input.email).executeTakeFirst();
  if (existing) throw new ApiError(409, 'email: an account with this e-mail already exists');
  const passwordHash = await hashPassword(input.password);
  const user = await ctx.db
    .insertInto('users')
    .values({
      email: input.email,
      password_hash: passwordHash,
      nickname: input.nickname ?? input.email.split('@')[0],
      avatar: '',
      bio: '',
      is_admin: 0,
      google_sub: null,
      created_at: ctx.now(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return issueToken(ctx, user);
}

/** login: the password checked (one scrypt whether the account exists or not), a new token. */
export async function login(
  ctx: AppContext,
  input: ParsedRequestOf<'POST /api/auth/login'>,
  ip: string,
): Promise<LoginResult> {
  return issueToken(ctx, await checkCredentials(ctx, input.email, input.password, ip));
}

/**
 * An account's e-mail and password, checked as login checks them (wrong passwords counted per account, one scrypt
 * whether the account exists or not): the account, or a 400 with BAD_CREDENTIALS. Linking WeChat to an account
 * proves ownership the same way.
 */
export async function checkCredentials(
  ctx: AppContext,
  address: string,
  password: string,
  ip: string,
): Promise<UserRow> {
  await admitLogin(ctx, address, ip);
  const user = await ctx.db.selectFrom('users').selectAll().where('email', '=', address).executeTakeFirst();
  // Checked for an unknown account too (against a dummy hash): the answer takes as long either way.
  const matches = await verifyPasswordOrDummy(password, user?.password_hash);
  if (!user || !matches) {
    await ctx.limits.hit(loginFailuresKey(address), ctx.config.authRateLimit.windowMs);
    // 400, not 401: a 401 tells the app its session ended (spec §8), which would reload the login page.
    throw new ApiError(400, BAD_CREDENTIALS);
  }
  await rememberOwnerClient(ctx, address, ip);
  return user;
}

export async function accountExists(ctx: AppContext, address: string): Promise<boolean> {
  const user = await ctx.db.selectFrom('users').select('id').where('email', '=', address).executeTakeFirst();
  return Boolean(user);
}

/** forget_password: a 6-digit code (15 minutes, 5 attempts) mailed to the account's address. */
export async function mailResetCode(ctx: AppContext, address: string): Promise<void> {
  await limitAccount(ctx, 'forget_password', address);
  const user = await ctx.db.selectFrom('users').select('id').where('email', '=', address).executeTakeFirst();
  if (!user) throw new ApiError(404, 'email: no account with this e-mail');
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const now = ctx.now();
  await ctx.db
    .insertInto('verification_codes')
    .values({
      email: address,
      code_hash: codeHash(address, code),
      expires_at: now + CODE_TTL_MS,
      attempts: 0,
      used: 0,
      created_at: now,
    })
    .execute();
  await ctx.mailer.send({
    to: address,
    subject: 'Your Lensmate verification code',
    text: `Your verification code is ${code}. It is valid for 15 minutes.`,
  });
}

/** logout: this login's token, and the messaging proofs and sessions opened with it, end. */
export async function logout(ctx: AppContext, user: UserRow, token: string | null): Promise<void> {
  if (!token) return;
  await ctx.db.deleteFrom('tokens').where('token_hash', '=', tokenHash(token)).execute();
  await ctx.messaging.revoke({ userId: String(user.id), sessionRef: sessionRefOf(tokenHash(token)) });
}

/** google_login: a verified Google account signs in to its user (made on first sign-in, or linked by e-mail). */
export function googleSignIn(ctx: AppContext): (idToken: string) => Promise<LoginResult> {
  const google = ctx.config.googleClientId ? new OAuth2Client(ctx.config.googleClientId) : null;
  return async (idToken) => {
    if (!google) throw new ApiError(503, GOOGLE_NOT_CONFIGURED);
    let payload: { sub: string; email?: string; email_verified?: boolean; name?: string; picture?: string } | undefined;
    try {
      const ticket = await google.verifyIdToken({ idToken, audience: ctx.config.googleClientId });
      payload = ticket.getPayload();
    } catch {
      throw new ApiError(400, 'id_token: the Google sign-in could not be verified');
    }
    if (!payload?.email || !payload.email_verified)
      throw new ApiError(400, 'id_token: the Google e-mail is not verified');
    const address = payload.email.toLowerCase();
    let user = await ctx.db.selectFrom('users').selectAll().where('google_sub', '=', payload.sub).executeTakeFirst();
    user ??= await ctx.db.selectFrom('users').selectAll().where('email', '=', address).executeTakeFirst();
    if (user && !user.google_sub) {
      await ctx.db.updateTable('users').set({ google_sub: payload.sub }).where('id', '=', user.id).execute();
    }
    user ??= await ctx.db
      .insertInto('users')
      .values({
        email: address,
        password_hash: '',
        nickname: payload.name ?? address.split('@')[0],
        avatar: payload.picture ?? '',
        bio: '',
        is_admin: 0,
        google_sub: payload.sub,
        created_at: ctx.now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return issueToken(ctx, user);
  };
}

/** change_password: the current one checked; every login ends and this one gets a new token. */
export async function changePassword(
  ctx: AppContext,
  user: UserRow,
  input: ParsedRequestOf<'POST /api/user/change_password'>,
  ip: string,
): Promise<LoginResult> {
  await limitAccount(ctx, 'change_password', String(user.id));
  if (!(await verifyPasswordOrDummy(input.old_password, user.password_hash))) {
    throw new ApiError(400, 'old_password: the current password is wrong');
  }
  await ctx.db
    .updateTable('users')
    .set({ password_hash: await hashPassword(input.new_password) })
    .where('id', '=', user.id)
    .execute();
  await revokeTokens(ctx, user.id);
  await passwordChanged(ctx, user.email, ip);
  return issueToken(ctx, user);
}

/** change_password_with_verification_code: the mailed code resets the password; every login ends. */
export async function resetPassword(
  ctx: AppContext,
  input: ParsedRequestOf<'POST /api/user/change_password_with_verification_code'>,
  ip: string,
): Promise<void> {
  await limitAccount(ctx, 'verification_code', input.email);
  const user = await ctx.db.selectFrom('users').selectAll().where('email', '=', input.email).executeTakeFirst();
  if (!user) throw new ApiError(400, `code: ${BAD_CODE}`);
  await consumeVerificationCode(ctx, input.email, input.code);
  await ctx.db
    .updateTable('users')
    .set({ password_hash: await hashPassword(input.new_password) })
    .where('id', '=', user.id)
    .execute();
  await revokeTokens(ctx, user.id);
  await passwordChanged(ctx, user.email, ip);
}

/** user_show: the caller in full, or another user as others see them. */
export async function showUser(ctx: AppContext, userId: number): Promise<UserProfile> {
  const row = await ctx.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!row) throw new ApiError(404, 'user_id: no such user');
  return { user_id: row.id, nickname: row.nickname, avatar: row.avatar, bio: row.bio, is_admin: row.is_admin === 1 };
}

import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OAuth2Client } from 'google-auth-library';
import { z } from 'zod';
import { issueToken, requestToken, requireUser, revokeTokens, toUser } from '../auth';
import type { AppContext } from '../context';
import { ApiError, body, ok } from '../http';
import { sessionRefOf } from '../messaging/otp';
import { hashPassword, tokenHash, verifyPasswordOrDummy } from '../services/passwords';
import { tooManyMessage } from '../services/rate-limit';

export const email = z
  .string({ required_error: 'is required' })
  .trim()
  .toLowerCase()
  .email('must be an e-mail address')
  .max(254);
export const newPassword = z
  .string({ required_error: 'is required' })
  .min(8, 'must have at least 8 characters')
  .max(128, 'must have at most 128 characters')
  .refine((value) => /\p{L}/u.test(value) && /\d/.test(value), 'must contain a letter and a digit');
const password = z.string({ required_error: 'is required' }).min(1, 'is required').max(128);

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

/**
 * `limited` is the per-IP limit of the routes that hash a password or mail a code; `checkLimited` the looser one of
 * check_account, which the sign-up form asks as the e-mail is typed.
 */
/** Guesses at the old password are moot, and the client that changed it proved it is the owner's. */
async function passwordChanged(ctx: AppContext, address: string, ip: string): Promise<void> {
  await ctx.limits.reset(loginFailuresKey(address));
  await rememberOwnerClient(ctx, address, ip);
}

export function registerAuthRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  limits: { limited: object; checkLimited: object },
): void {
  const { limited, checkLimited } = limits;
  app.post('/api/auth/register', limited, async (request) => {
    const input = body(
      request,
      z.object({ email, password: newPassword, nickname: z.string().trim().min(1).max(40).optional() }),
    );
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
    return ok(await issueToken(ctx, user));
  });

  app.post('/api/auth/login', limited, async (request) => {
    const input = body(request, z.object({ email, password }));
    await admitLogin(ctx, input.email, request.ip);
    const user = await ctx.db.selectFrom('users').selectAll().where('email', '=', input.email).executeTakeFirst();
    // Checked for an unknown account too (against a dummy hash): the answer takes as long either way.
    const matches = await verifyPasswordOrDummy(input.password, user?.password_hash);
    if (!user || !matches) {
      await ctx.limits.hit(loginFailuresKey(input.email), ctx.config.authRateLimit.windowMs);
      // 400, not 401: a 401 tells the app its session ended (spec §8), which would reload the login page.
      throw new ApiError(400, BAD_CREDENTIALS);
    }
    await rememberOwnerClient(ctx, input.email, request.ip);
    return ok(await issueToken(ctx, user));
  });

  app.post('/api/auth/check_account', checkLimited, async (request) => {
    const input = body(request, z.object({ email }));
    const user = await ctx.db.selectFrom('users').select('id').where('email', '=', input.email).executeTakeFirst();
    return ok({ exists: Boolean(user) });
  });

  app.post('/api/auth/forget_password', limited, async (request) => {
    const input = body(request, z.object({ email }));
    await limitAccount(ctx, 'forget_password', input.email);
    const user = await ctx.db.selectFrom('users').select('id').where('email', '=', input.email).executeTakeFirst();
    if (!user) throw new ApiError(404, 'email: no account with this e-mail');
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const now = ctx.now();
    await ctx.db
      .insertInto('verification_codes')
      .values({
        email: input.email,
        code_hash: codeHash(input.email, code),
        expires_at: now + CODE_TTL_MS,
        attempts: 0,
        used: 0,
        created_at: now,
      })
      .execute();
    await ctx.mailer.send({
      to: input.email,
      subject: 'Your Lensmate verification code',
      text: `Your verification code is ${code}. It is valid for 15 minutes.`,
    });
    return ok({ sent: true as const });
  });

  app.post('/api/auth/logout', async (request) => {
    const token = requestToken(request);
    const user = await requireUser(ctx, request);
    if (token) {
      await ctx.db.deleteFrom('tokens').where('token_hash', '=', tokenHash(token)).execute();
      // The messaging proofs issued in this login, and the messaging sessions opened with them, end with it.
      await ctx.messaging.revoke({ userId: String(user.id), sessionRef: sessionRefOf(tokenHash(token)) });
    }
    return ok({ logged_out: true as const });
  });

  const google = ctx.config.googleClientId ? new OAuth2Client(ctx.config.googleClientId) : null;
  app.post('/api/google/google_login', limited, async (request: FastifyRequest) => {
    if (!google) throw new ApiError(503, GOOGLE_NOT_CONFIGURED);
    const input = body(
      request,
      z.object({ id_token: z.string({ required_error: 'is required' }).min(1, 'is required') }),
    );
    let payload: { sub: string; email?: string; email_verified?: boolean; name?: string; picture?: string } | undefined;
    try {
      const ticket = await google.verifyIdToken({ idToken: input.id_token, audience: ctx.config.googleClientId });
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
    return ok(await issueToken(ctx, user));
  });

  app.post('/api/user/change_password', limited, async (request) => {
    const user = await requireUser(ctx, request);
    const input = body(request, z.object({ old_password: password, new_password: newPassword }));
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
    await passwordChanged(ctx, user.email, request.ip);
    return ok(await issueToken(ctx, user));
  });

  app.post('/api/user/change_password_with_verification_code', limited, async (request) => {
    const input = body(
      request,
      z.object({
        email,
        code: z.string({ required_error: 'is required' }).regex(/^\d{6}$/, 'must be 6 digits'),
        new_password: newPassword,
      }),
    );
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
    await passwordChanged(ctx, user.email, request.ip);
    return ok({ changed: true as const });
  });

  app.post('/api/user/user_show', async (request) => {
    const input = body(request, z.object({ user_id: z.coerce.number().int().positive().optional() }));
    if (input.user_id === undefined) return ok(toUser(await requireUser(ctx, request)));
    const row = await ctx.db.selectFrom('users').selectAll().where('id', '=', input.user_id).executeTakeFirst();
    if (!row) throw new ApiError(404, 'user_id: no such user');
    return ok({
      user_id: row.id,
      nickname: row.nickname,
      avatar: row.avatar,
      bio: row.bio,
      is_admin: row.is_admin === 1,
    });
  });
}

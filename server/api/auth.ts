import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OAuth2Client } from 'google-auth-library';
import { z } from 'zod';
import { issueToken, requestToken, requireUser, revokeTokens, toUser } from '../auth';
import type { AppContext } from '../context';
import { ApiError, body, ok } from '../http';
import { sessionRefOf } from '../messaging/otp';
import { hashPassword, tokenHash, verifyPassword } from '../services/passwords';
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
export function limitAccount(ctx: AppContext, action: string, account: string): void {
  const wait = ctx.accountLimiter.hit(`${action}:${account}`);
  if (wait > 0) throw new ApiError(429, tooManyMessage(wait));
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

export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext, limited: object): void {
  app.post('/api/auth/register', limited, async (request) => {
    const input = body(
      request,
      z.object({ email, password: newPassword, nickname: z.string().trim().min(1).max(40).optional() }),
    );
    limitAccount(ctx, 'register', input.email);
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
    limitAccount(ctx, 'login', input.email);
    const user = await ctx.db.selectFrom('users').selectAll().where('email', '=', input.email).executeTakeFirst();
    // 400, not 401: a 401 tells the app its session ended (spec §8), which would reload the login page.
    if (!user || !(await verifyPassword(input.password, user.password_hash))) throw new ApiError(400, BAD_CREDENTIALS);
    ctx.accountLimiter.reset(`login:${input.email}`);
    return ok(await issueToken(ctx, user));
  });

  app.post('/api/auth/check_account', async (request) => {
    const input = body(request, z.object({ email }));
    const user = await ctx.db.selectFrom('users').select('id').where('email', '=', input.email).executeTakeFirst();
    return ok({ exists: Boolean(user) });
  });

  app.post('/api/auth/forget_password', limited, async (request) => {
    const input = body(request, z.object({ email }));
    limitAccount(ctx, 'forget_password', input.email);
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

  app.post('/api/user/change_password', async (request) => {
    const user = await requireUser(ctx, request);
    const input = body(request, z.object({ old_password: password, new_password: newPassword }));
    if (!(await verifyPassword(input.old_password, user.password_hash))) {
      throw new ApiError(400, 'old_password: the current password is wrong');
    }
    await ctx.db
      .updateTable('users')
      .set({ password_hash: await hashPassword(input.new_password) })
      .where('id', '=', user.id)
      .execute();
    await revokeTokens(ctx, user.id);
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
    limitAccount(ctx, 'verification_code', input.email);
    const user = await ctx.db.selectFrom('users').selectAll().where('email', '=', input.email).executeTakeFirst();
    if (!user) throw new ApiError(400, `code: ${BAD_CODE}`);
    await consumeVerificationCode(ctx, input.email, input.code);
    await ctx.db
      .updateTable('users')
      .set({ password_hash: await hashPassword(input.new_password) })
      .where('id', '=', user.id)
      .execute();
    await revokeTokens(ctx, user.id);
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

import type { FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import { type LoginResult, TOKEN_HEADER, type User } from '../types/api';
import type { AppContext } from './context';
import type { UsersTable } from './db/schema';
import { ApiError, MSG } from './http';
import { newToken, tokenHash } from './services/passwords';

export type UserRow = Selectable<UsersTable>;

export function toUser(row: UserRow): User {
  return {
    user_id: row.id,
    email: row.email,
    nickname: row.nickname,
    avatar: row.avatar,
    bio: row.bio,
    is_admin: row.is_admin === 1,
    created_at: row.created_at,
  };
}

function presentedToken(request: FastifyRequest): string | null {
  const raw = request.headers[TOKEN_HEADER];
  const token = Array.isArray(raw) ? raw[0] : raw;
  return token && token.length > 0 ? token : null;
}

/** A token's last use is written at most this often, so that a busy session does not write on every request. */
const LAST_USE_STEP_MS = 60_000;

/** Tokens whose last use is due to move forward once their request succeeds. */
const dueLastUse = new WeakMap<FastifyRequest, { hash: string; at: number }>();

/**
 * The signed-in user, or null for a request without a token. A token that is unknown, revoked, unused for the
 * idle TTL or older than the maximum age is a 401; each successful use slides the idle expiry forward.
 */
export async function optionalUser(ctx: AppContext, request: FastifyRequest): Promise<UserRow | null> {
  const token = presentedToken(request);
  if (!token) return null;
  const hash = tokenHash(token);
  const row = await ctx.db
    .selectFrom('tokens')
    .innerJoin('users', 'users.id', 'tokens.user_id')
    .selectAll('users')
    .select(['tokens.created_at as token_created_at', 'tokens.last_used_at as token_last_used_at'])
    .where('tokens.token_hash', '=', hash)
    .executeTakeFirst();
  if (!row) throw new ApiError(401, MSG.unauthorized);
  const { token_created_at: createdAt, token_last_used_at: lastUsedAt, ...user } = row;
  const now = ctx.now();
  const idle = now - Number(lastUsedAt);
  if (idle >= ctx.config.tokenIdleTtlMs || now - Number(createdAt) >= ctx.config.tokenMaxAgeMs) {
    await ctx.db.deleteFrom('tokens').where('token_hash', '=', hash).execute();
    throw new ApiError(401, MSG.unauthorized);
  }
  if (idle >= LAST_USE_STEP_MS) dueLastUse.set(request, { hash, at: now });
  return user;
}

/** Whether the request's token has a last use to record (see recordTokenUse): false for most requests. */
export function tokenUseDue(request: FastifyRequest): boolean {
  return dueLastUse.has(request);
}

/**
 * Moves a token's last use forward before a successful answer goes out (an onSend hook): a refused request
 * changes nothing in the database, and the next request already sees the new time.
 */
export async function recordTokenUse(ctx: AppContext, request: FastifyRequest, status: number): Promise<void> {
  const due = dueLastUse.get(request);
  if (!due || status >= 400) return;
  dueLastUse.delete(request);
  await ctx.db.updateTable('tokens').set({ last_used_at: due.at }).where('token_hash', '=', due.hash).execute();
}

/** No token: 403 "Invalid token". A token that is unknown, revoked or replaced: 401, so the app signs out. */
export async function requireUser(ctx: AppContext, request: FastifyRequest): Promise<UserRow> {
  const user = await optionalUser(ctx, request);
  if (!user) throw new ApiError(403, MSG.invalidToken);
  return user;
}

export async function requireAdmin(ctx: AppContext, request: FastifyRequest): Promise<UserRow> {
  const user = await requireUser(ctx, request);
  if (user.is_admin !== 1) throw new ApiError(403, MSG.adminOnly);
  return user;
}

export async function issueToken(ctx: AppContext, user: UserRow): Promise<LoginResult> {
  const token = newToken();
  const now = ctx.now();
  // Expired tokens of this user go as a new one comes, so the table keeps only sessions that can still be used.
  await ctx.db
    .deleteFrom('tokens')
    .where('user_id', '=', user.id)
    .where((eb) =>
      eb.or([
        eb('last_used_at', '<=', now - ctx.config.tokenIdleTtlMs),
        eb('created_at', '<=', now - ctx.config.tokenMaxAgeMs),
      ]),
    )
    .execute();
  await ctx.db
    .insertInto('tokens')
    .values({ token_hash: tokenHash(token), user_id: user.id, created_at: now, last_used_at: now })
    .execute();
  return { ...toUser(user), token };
}

/** Signs the user out everywhere: every login token, every messaging proof and open messaging session. */
export async function revokeTokens(ctx: AppContext, userId: number): Promise<void> {
  await ctx.db.deleteFrom('tokens').where('user_id', '=', userId).execute();
  await ctx.messaging.revoke({ userId: String(userId) });
}

export function requestToken(request: FastifyRequest): string | null {
  return presentedToken(request);
}

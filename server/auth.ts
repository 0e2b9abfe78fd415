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

/** The signed-in user, or null for a request without a token; a stale token is a 401. */
export async function optionalUser(ctx: AppContext, request: FastifyRequest): Promise<UserRow | null> {
  const token = presentedToken(request);
  if (!token) return null;
  const row = await ctx.db
    .selectFrom('tokens')
    .innerJoin('users', 'users.id', 'tokens.user_id')
    .selectAll('users')
    .where('tokens.token_hash', '=', tokenHash(token))
    .executeTakeFirst();
  if (!row) throw new ApiError(401, MSG.unauthorized);
  return row;
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
  await ctx.db
    .insertInto('tokens')
    .values({ token_hash: tokenHash(token), user_id: user.id, created_at: ctx.now() })
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

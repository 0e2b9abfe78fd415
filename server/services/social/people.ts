/** People: profiles, the user search, follows and the trends feed. */
import type { ArticleSummary, FollowResult, Page, SocialProfile, UserCard } from '../../../types/api';
import type { ParsedRequestOf } from '../../../types/contract';
import type { UserRow } from '../../auth';
import type { AppContext } from '../../context';
import { ApiError, pageRows } from '../../http';
import { toSummaries } from '../articles';
import { contains, count, followedAmong, toCards } from './views';

export async function userExists(ctx: AppContext, userId: number, field = 'user_id'): Promise<void> {
  const row = await ctx.db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
  if (!row) throw new ApiError(404, `${field}: no such user`);
}

async function followerCount(ctx: AppContext, userId: number): Promise<number> {
  const row = await ctx.db
    .selectFrom('follows')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('followee_id', '=', userId)
    .executeTakeFirstOrThrow();
  return count(row.n);
}

/** A user's profile as the viewer sees it (whether they follow, whether it is theirs). */
export async function profile(ctx: AppContext, me: UserRow | null, userId: number): Promise<SocialProfile> {
  const db = ctx.db;
  const row = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!row) throw new ApiError(404, 'user_id: no such user');
  const countOf = async (query: Promise<{ n: unknown } | undefined>) => count((await query)?.n);
  const [followers, following, articles, albums, followed] = await Promise.all([
    followerCount(ctx, userId),
    countOf(
      db
        .selectFrom('follows')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('follower_id', '=', userId)
        .executeTakeFirst(),
    ),
    countOf(
      db
        .selectFrom('articles')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('author_id', '=', userId)
        .executeTakeFirst(),
    ),
    countOf(
      db
        .selectFrom('albums')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirst(),
    ),
    followedAmong(db, me, [userId]),
  ]);
  return {
    user_id: row.id,
    nickname: row.nickname,
    avatar: row.avatar,
    bio: row.bio,
    is_admin: row.is_admin === 1,
    is_following: followed.has(userId),
    is_me: me?.id === userId,
    followers,
    following,
    articles,
    albums,
  };
}

export async function updateProfile(
  ctx: AppContext,
  me: UserRow,
  input: ParsedRequestOf<'POST /api/social/update_profile'>,
): Promise<SocialProfile> {
  const changes = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
  if (Object.keys(changes).length === 0) throw new ApiError(400, 'body: nothing to change');
  await ctx.db.updateTable('users').set(changes).where('id', '=', me.id).execute();
  return profile(ctx, me, me.id);
}

/** Users by nickname (the viewer left out). */
export async function searchUsers(
  ctx: AppContext,
  me: UserRow | null,
  input: ParsedRequestOf<'POST /api/social/users'>,
): Promise<Page<UserCard>> {
  let base = ctx.db.selectFrom('users');
  if (input.keyword) base = base.where(contains('nickname', input.keyword));
  if (me) base = base.where('id', '!=', me.id);
  const { rows, total } = await pageRows(base, input, (query) => query.select('id').orderBy('id'));
  const list = await toCards(
    ctx.db,
    me,
    rows.map((row) => row.id),
  );
  return { list, total, page: input.page, page_size: input.page_size };
}

/** follow / unfollow: idempotent; the answer carries the followed user's follower count. */
export async function setFollowing(
  ctx: AppContext,
  me: UserRow,
  userId: number,
  following: boolean,
): Promise<FollowResult> {
  if (userId === me.id) throw new ApiError(400, 'user_id: you cannot follow yourself');
  await userExists(ctx, userId);
  if (following) {
    await ctx.db
      .insertInto('follows')
      .values({ follower_id: me.id, followee_id: userId, created_at: ctx.now() })
      .onConflict((oc) => oc.columns(['follower_id', 'followee_id']).doNothing())
      .execute();
  } else {
    await ctx.db.deleteFrom('follows').where('follower_id', '=', me.id).where('followee_id', '=', userId).execute();
  }
  return { user_id: userId, is_following: following, followers: await followerCount(ctx, userId) };
}

/** A user's followers, or whom they follow, newest first. */
export async function followList(
  ctx: AppContext,
  me: UserRow | null,
  userId: number,
  direction: 'followers' | 'following',
  paging: { page: number; page_size: number },
): Promise<Page<UserCard>> {
  await userExists(ctx, userId);
  const [mineColumn, otherColumn] =
    direction === 'followers' ? (['followee_id', 'follower_id'] as const) : (['follower_id', 'followee_id'] as const);
  const base = ctx.db.selectFrom('follows').where(mineColumn, '=', userId);
  const { rows, total } = await pageRows(base, paging, (query) =>
    query.select(otherColumn).orderBy('created_at', 'desc'),
  );
  const ids = rows.map((row) => (row as Record<string, number>)[otherColumn]);
  return { list: await toCards(ctx.db, me, ids), total, page: paging.page, page_size: paging.page_size };
}

/** The trends feed: a user's articles, or (`feedOf`) the articles of a user and of whom they follow. */
export async function trends(
  ctx: AppContext,
  input: ParsedRequestOf<'POST /api/social/trends'>,
  feedOf: () => UserRow,
): Promise<Page<ArticleSummary>> {
  let base = ctx.db.selectFrom('articles');
  if (input.user_id !== undefined) {
    await userExists(ctx, input.user_id);
    base = base.where('author_id', '=', input.user_id);
  } else {
    const me = feedOf();
    base = base.where((eb) =>
      eb.or([
        eb('author_id', '=', me.id),
        eb('author_id', 'in', eb.selectFrom('follows').select('followee_id').where('follower_id', '=', me.id)),
      ]),
    );
  }
  const { rows, total } = await pageRows(base, input, (query) =>
    query
      .select(['id', 'title', 'cover', 'imgs', 'category_id', 'author_id', 'created_at', 'updated_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc'),
  );
  return { list: await toSummaries(ctx.db, rows), total, page: input.page, page_size: input.page_size };
}

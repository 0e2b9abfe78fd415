/** Collections, likes and comments of the viewer on articles, albums and images. */
import type { Album, Comment, LikeKind, Page, SocialImage } from '../../../types/api';
import type { ParsedRequestOf } from '../../../types/contract';
import { COMMENT_MAX } from '../../../types/schemas/social';
import type { UserRow } from '../../auth';
import type { AppContext } from '../../context';
import { ApiError, pageRows } from '../../http';
import { briefs, likeCounts, mine, plainText, toAlbums, toImages, unknownUser } from './views';

async function targetExists(ctx: AppContext, kind: 'article' | 'image' | 'album', targetId: number): Promise<void> {
  const table = kind === 'article' ? 'articles' : kind === 'album' ? 'albums' : 'album_images';
  const row = await ctx.db.selectFrom(table).select('id').where('id', '=', targetId).executeTakeFirst();
  if (!row) throw new ApiError(404, `target_id: no such ${kind}`);
}

/* ---- collections */

export async function setCollected(
  ctx: AppContext,
  me: UserRow,
  input: ParsedRequestOf<'POST /api/social/collect'>,
  collected: boolean,
): Promise<{ collected: boolean }> {
  if (collected) {
    await targetExists(ctx, input.kind, input.target_id);
    await ctx.db
      .insertInto('collections')
      .values({ user_id: me.id, kind: input.kind, target_id: input.target_id, created_at: ctx.now() })
      .onConflict((oc) => oc.columns(['user_id', 'kind', 'target_id']).doNothing())
      .execute();
  } else {
    await ctx.db
      .deleteFrom('collections')
      .where('user_id', '=', me.id)
      .where('kind', '=', input.kind)
      .where('target_id', '=', input.target_id)
      .execute();
  }
  return { collected };
}

export async function collectedAlbums(
  ctx: AppContext,
  me: UserRow,
  paging: { page: number; page_size: number },
): Promise<Page<Album>> {
  const base = ctx.db
    .selectFrom('collections')
    .innerJoin('albums', 'albums.id', 'collections.target_id')
    .where('collections.user_id', '=', me.id)
    .where('collections.kind', '=', 'album');
  const { rows, total } = await pageRows(base, paging, (query) =>
    query.selectAll('albums').orderBy('collections.created_at', 'desc'),
  );
  return { list: await toAlbums(ctx.db, me, rows), total, page: paging.page, page_size: paging.page_size };
}

export async function collectedImages(
  ctx: AppContext,
  me: UserRow,
  paging: { page: number; page_size: number },
): Promise<Page<SocialImage>> {
  const base = ctx.db
    .selectFrom('collections')
    .innerJoin('album_images', 'album_images.id', 'collections.target_id')
    .where('collections.user_id', '=', me.id)
    .where('collections.kind', '=', 'image');
  const { rows, total } = await pageRows(base, paging, (query) =>
    query.selectAll('album_images').orderBy('collections.created_at', 'desc'),
  );
  return { list: await toImages(ctx.db, me, rows), total, page: paging.page, page_size: paging.page_size };
}

/* ---- likes */

async function likeState(ctx: AppContext, me: UserRow | null, kind: LikeKind, targetId: number) {
  const [counts, liked] = await Promise.all([
    likeCounts(ctx.db, kind, [targetId]),
    mine(ctx.db, 'likes', me, kind, [targetId]),
  ]);
  return { liked: liked.has(targetId), likes: counts.get(targetId) ?? 0 };
}

/** likes: an article's or image's like count, and whether the viewer likes it. */
export async function likesOf(ctx: AppContext, me: UserRow | null, kind: LikeKind, targetId: number) {
  await targetExists(ctx, kind, targetId);
  return likeState(ctx, me, kind, targetId);
}

export async function setLiked(
  ctx: AppContext,
  me: UserRow,
  input: ParsedRequestOf<'POST /api/social/like'>,
  liked: boolean,
) {
  await targetExists(ctx, input.kind, input.target_id);
  if (liked) {
    await ctx.db
      .insertInto('likes')
      .values({ user_id: me.id, kind: input.kind, target_id: input.target_id, created_at: ctx.now() })
      .onConflict((oc) => oc.columns(['user_id', 'kind', 'target_id']).doNothing())
      .execute();
  } else {
    await ctx.db
      .deleteFrom('likes')
      .where('user_id', '=', me.id)
      .where('kind', '=', input.kind)
      .where('target_id', '=', input.target_id)
      .execute();
  }
  return likeState(ctx, me, input.kind, input.target_id);
}

/* ---- comments */

async function toComments(
  ctx: AppContext,
  rows: { id: number; user_id: number; kind: LikeKind; target_id: number; content: string; created_at: number }[],
): Promise<Comment[]> {
  const authors = await briefs(
    ctx.db,
    rows.map((row) => row.user_id),
  );
  return rows.map((row) => ({
    comment_id: row.id,
    kind: row.kind,
    target_id: row.target_id,
    content: row.content,
    author: authors.get(row.user_id) ?? unknownUser(row.user_id),
    created_at: row.created_at,
  }));
}

export async function listComments(
  ctx: AppContext,
  input: ParsedRequestOf<'POST /api/social/comments'>,
): Promise<Page<Comment>> {
  await targetExists(ctx, input.kind, input.target_id);
  const base = ctx.db.selectFrom('comments').where('kind', '=', input.kind).where('target_id', '=', input.target_id);
  const { rows, total } = await pageRows(base, input, (query) => query.selectAll().orderBy('id', 'desc'));
  return { list: await toComments(ctx, rows), total, page: input.page, page_size: input.page_size };
}

/** add_comment: plain text (every tag stripped), 1 to COMMENT_MAX characters once stripped. */
export async function addComment(
  ctx: AppContext,
  me: UserRow,
  input: ParsedRequestOf<'POST /api/social/add_comment'>,
): Promise<Comment> {
  const content = plainText(input.content);
  if (content.length === 0) throw new ApiError(400, 'content: is required');
  if (content.length > COMMENT_MAX) throw new ApiError(400, `content: must be at most ${COMMENT_MAX} characters`);
  await targetExists(ctx, input.kind, input.target_id);
  const row = await ctx.db
    .insertInto('comments')
    .values({ user_id: me.id, kind: input.kind, target_id: input.target_id, content, created_at: ctx.now() })
    .returningAll()
    .executeTakeFirstOrThrow();
  const [comment] = await toComments(ctx, [row]);
  return comment;
}

/** delete_comment: the author's own, or any for staff. */
export async function deleteComment(ctx: AppContext, me: UserRow, commentId: number): Promise<void> {
  const row = await ctx.db.selectFrom('comments').selectAll().where('id', '=', commentId).executeTakeFirst();
  if (!row) throw new ApiError(404, 'comment_id: no such comment');
  if (row.user_id !== me.id && me.is_admin !== 1) throw new ApiError(403, 'comment_id: not your comment');
  await ctx.db.deleteFrom('comments').where('id', '=', row.id).execute();
}

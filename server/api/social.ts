import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Kysely, type Selectable, sql } from 'kysely';
import sanitizeHtml from 'sanitize-html';
import { z } from 'zod';
import type {
  Album,
  AlbumDetail,
  Comment,
  FollowResult,
  Notice,
  SocialGroup,
  SocialImage,
  SocialProfile,
  Tag,
  UserCard,
} from '../../types/api';
import { type UserRow, optionalUser, requireUser } from '../auth';
import type { AppContext } from '../context';
import type { AlbumImagesTable, AlbumsTable, SocialDatabase, SocialGroupsTable } from '../db/social-schema';
import { ApiError, body, ok, pageFields, pageRows } from '../http';
import { IMAGE_EXTENSIONS, UploadRejected, storeUpload } from '../services/uploads';
import { toSummaries } from './article';
import { escapeLike } from './goods';

export const COMMENT_MAX = 500;
export const GROUP_MEMBERS_MAX = 200;

type Brief = { user_id: number; nickname: string; avatar: string };
type Db = Kysely<SocialDatabase>;

const required = { required_error: 'is required', invalid_type_error: 'must be a number' };
const refId = z.number(required).int('must be an integer').positive('must be positive');
const likeKind = z.enum(['article', 'image'], { errorMap: () => ({ message: 'must be article or image' }) });
const collectKind = z.enum(['album', 'image'], { errorMap: () => ({ message: 'must be album or image' }) });
const imageUrl = z
  .string({ required_error: 'is required' })
  .trim()
  .max(500)
  .regex(/^(\/uploads\/|https?:\/\/)/, 'must be an uploaded image or an http(s) URL');
const tagName = z.string().trim().min(1, 'is required').max(30, 'must be at most 30 characters');
const name = (max: number) =>
  z
    .string({ required_error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(max, `must be at most ${max} characters`);

/** Case-insensitive substring match on both engines (PostgreSQL's LIKE is case-sensitive; SQLite's needs ESCAPE). */
const contains = (column: string, keyword: string) =>
  sql<boolean>`lower(${sql.ref(column)}) like ${`%${escapeLike(keyword.toLowerCase())}%`} escape '\\'`;

const count = (value: unknown) => Number(value ?? 0);
const pageOf = (input: { page: number; page_size: number }) => ({
  limit: input.page_size,
  offset: (input.page - 1) * input.page_size,
});

/** Comments are plain text: every tag goes, and the entities sanitize-html writes are turned back into characters. */
export function plainText(input: string): string {
  return sanitizeHtml(input, { allowedTags: [], allowedAttributes: {} })
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}

async function briefs(db: Db, ids: number[]): Promise<Map<number, Brief>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'nickname', 'avatar']).where('id', 'in', wanted).execute();
  return new Map(rows.map((row) => [row.id, { user_id: row.id, nickname: row.nickname, avatar: row.avatar }]));
}

const unknownUser = (userId: number): Brief => ({ user_id: userId, nickname: '', avatar: '' });

async function followedAmong(db: Db, me: UserRow | null, ids: number[]): Promise<Set<number>> {
  if (!me || ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('follows')
    .select('followee_id')
    .where('follower_id', '=', me.id)
    .where('followee_id', 'in', ids)
    .execute();
  return new Set(rows.map((row) => row.followee_id));
}

async function toCards(db: Db, me: UserRow | null, ids: number[]): Promise<UserCard[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('users')
    .select(['id', 'nickname', 'avatar', 'bio'])
    .where('id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  const followed = await followedAmong(db, me, ids);
  return ids.flatMap((userId) => {
    const row = byId.get(userId);
    return row
      ? [
          {
            user_id: row.id,
            nickname: row.nickname,
            avatar: row.avatar,
            bio: row.bio,
            is_following: followed.has(row.id),
          },
        ]
      : [];
  });
}

async function tagsOf(db: Db, imageIds: number[]): Promise<Map<number, Tag[]>> {
  const result = new Map<number, Tag[]>();
  if (imageIds.length === 0) return result;
  const rows = await db
    .selectFrom('image_tags')
    .innerJoin('tags', 'tags.id', 'image_tags.tag_id')
    .select(['image_tags.image_id', 'tags.id', 'tags.name'])
    .where('image_tags.image_id', 'in', imageIds)
    .orderBy('tags.name')
    .execute();
  const tagIds = [...new Set(rows.map((row) => row.id))];
  const counts = await tagCounts(db, tagIds);
  for (const row of rows) {
    const list = result.get(row.image_id) ?? [];
    list.push({ tag_id: row.id, name: row.name, image_count: counts.get(row.id) ?? 0 });
    result.set(row.image_id, list);
  }
  return result;
}

async function tagCounts(db: Db, tagIds: number[]): Promise<Map<number, number>> {
  if (tagIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('image_tags')
    .select(['tag_id', (eb) => eb.fn.countAll().as('n')])
    .where('tag_id', 'in', tagIds)
    .groupBy('tag_id')
    .execute();
  return new Map(rows.map((row) => [row.tag_id, count(row.n)]));
}

async function likeCounts(db: Db, kind: 'article' | 'image', ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('likes')
    .select(['target_id', (eb) => eb.fn.countAll().as('n')])
    .where('kind', '=', kind)
    .where('target_id', 'in', ids)
    .groupBy('target_id')
    .execute();
  return new Map(rows.map((row) => [row.target_id, count(row.n)]));
}

async function mine(
  db: Db,
  table: 'likes' | 'collections',
  me: UserRow | null,
  kind: string,
  ids: number[],
): Promise<Set<number>> {
  if (!me || ids.length === 0) return new Set();
  const rows = await db
    .selectFrom(table)
    .select('target_id')
    .where('user_id', '=', me.id)
    .where('kind', '=', kind as never)
    .where('target_id', 'in', ids)
    .execute();
  return new Set(rows.map((row) => row.target_id));
}

async function toImages(db: Db, me: UserRow | null, rows: Selectable<AlbumImagesTable>[]): Promise<SocialImage[]> {
  const ids = rows.map((row) => row.id);
  const [owners, tags, likes, liked, collected] = await Promise.all([
    briefs(
      db,
      rows.map((row) => row.user_id),
    ),
    tagsOf(db, ids),
    likeCounts(db, 'image', ids),
    mine(db, 'likes', me, 'image', ids),
    mine(db, 'collections', me, 'image', ids),
  ]);
  return rows.map((row) => ({
    image_id: row.id,
    album_id: row.album_id,
    url: row.url,
    caption: row.caption,
    owner: owners.get(row.user_id) ?? unknownUser(row.user_id),
    tags: tags.get(row.id) ?? [],
    likes: likes.get(row.id) ?? 0,
    liked: liked.has(row.id),
    collected: collected.has(row.id),
    created_at: row.created_at,
  }));
}

async function toAlbums(db: Db, me: UserRow | null, rows: Selectable<AlbumsTable>[]): Promise<Album[]> {
  const ids = rows.map((row) => row.id);
  const [owners, collected, counts] = await Promise.all([
    briefs(
      db,
      rows.map((row) => row.user_id),
    ),
    mine(db, 'collections', me, 'album', ids),
    ids.length === 0
      ? Promise.resolve([])
      : db
          .selectFrom('album_images')
          .select(['album_id', (eb) => eb.fn.countAll().as('n'), (eb) => eb.fn.max('id').as('last')])
          .where('album_id', 'in', ids)
          .groupBy('album_id')
          .execute(),
  ]);
  const lastIds = counts.map((row) => Number(row.last));
  const lastUrls = new Map<number, string>();
  if (lastIds.length > 0) {
    const images = await db
      .selectFrom('album_images')
      .select(['id', 'album_id', 'url'])
      .where('id', 'in', lastIds)
      .execute();
    for (const image of images) lastUrls.set(image.album_id, image.url);
  }
  const countBy = new Map(counts.map((row) => [row.album_id, count(row.n)]));
  return rows.map((row) => ({
    album_id: row.id,
    name: row.name,
    description: row.description,
    cover: row.cover || lastUrls.get(row.id) || '',
    owner: owners.get(row.user_id) ?? unknownUser(row.user_id),
    image_count: countBy.get(row.id) ?? 0,
    collected: collected.has(row.id),
    created_at: row.created_at,
  }));
}

/**
 * The shop's rule for joining a group, shared by join_group and the messaging server's subscribeGroups:
 * the group exists and has room. Answers the refusal, or null once the user is a member.
 */
export async function joinGroup(
  db: Kysely<any>,
  groupId: number,
  userId: number,
  now: number,
): Promise<{ status: 404 | 409; message: string } | null> {
  const group = await db.selectFrom('social_groups').select('id').where('id', '=', groupId).executeTakeFirst();
  if (!group) return { status: 404, message: 'group_id: no such group' };
  const member = await db
    .selectFrom('group_members')
    .select('user_id')
    .where('group_id', '=', groupId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (member) return null;
  const { n } = await db
    .selectFrom('group_members')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('group_id', '=', groupId)
    .executeTakeFirstOrThrow();
  if (Number(n) >= GROUP_MEMBERS_MAX) {
    return { status: 409, message: `group_id: the group is full (${GROUP_MEMBERS_MAX} members)` };
  }
  await db
    .insertInto('group_members')
    .values({ group_id: groupId, user_id: userId, joined_at: now })
    .onConflict((oc) => oc.columns(['group_id', 'user_id']).doNothing())
    .execute();
  return null;
}

async function toGroups(db: Db, me: UserRow | null, rows: Selectable<SocialGroupsTable>[]): Promise<SocialGroup[]> {
  const ids = rows.map((row) => row.id);
  if (ids.length === 0) return [];
  const [counts, memberships] = await Promise.all([
    db
      .selectFrom('group_members')
      .select(['group_id', (eb) => eb.fn.countAll().as('n')])
      .where('group_id', 'in', ids)
      .groupBy('group_id')
      .execute(),
    me
      ? db
          .selectFrom('group_members')
          .select('group_id')
          .where('user_id', '=', me.id)
          .where('group_id', 'in', ids)
          .execute()
      : Promise.resolve([]),
  ]);
  const countBy = new Map(counts.map((row) => [row.group_id, count(row.n)]));
  const member = new Set(memberships.map((row) => row.group_id));
  return rows.map((row) => ({
    group_id: row.id,
    name: row.name,
    owner_id: row.owner_id,
    member_count: countBy.get(row.id) ?? 0,
    is_member: member.has(row.id),
    created_at: row.created_at,
  }));
}

export function registerSocialRoutes(app: FastifyInstance, ctx: AppContext): void {
  const db = ctx.db as unknown as Db;

  async function userExists(userId: number, field = 'user_id'): Promise<void> {
    const row = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
    if (!row) throw new ApiError(404, `${field}: no such user`);
  }

  async function followerCount(userId: number): Promise<number> {
    const row = await db
      .selectFrom('follows')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('followee_id', '=', userId)
      .executeTakeFirstOrThrow();
    return count(row.n);
  }

  async function profile(me: UserRow | null, userId: number): Promise<SocialProfile> {
    const row = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
    if (!row) throw new ApiError(404, 'user_id: no such user');
    const countOf = async (query: Promise<{ n: unknown } | undefined>) => count((await query)?.n);
    const [followers, following, articles, albums, followed] = await Promise.all([
      followerCount(userId),
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

  async function loadAlbum(albumId: number) {
    const row = await db.selectFrom('albums').selectAll().where('id', '=', albumId).executeTakeFirst();
    if (!row) throw new ApiError(404, 'album_id: no such album');
    return row;
  }

  async function loadImage(imageId: number) {
    const row = await db.selectFrom('album_images').selectAll().where('id', '=', imageId).executeTakeFirst();
    if (!row) throw new ApiError(404, 'image_id: no such image');
    return row;
  }

  async function targetExists(kind: 'article' | 'image' | 'album', targetId: number): Promise<void> {
    const table = kind === 'article' ? 'articles' : kind === 'album' ? 'albums' : 'album_images';
    const row = await db.selectFrom(table).select('id').where('id', '=', targetId).executeTakeFirst();
    if (!row) throw new ApiError(404, `target_id: no such ${kind}`);
  }

  async function ensureTags(user: UserRow, names: string[]): Promise<number[]> {
    const unique = [...new Set(names.map((tag) => tag.trim()).filter((tag) => tag.length > 0))];
    if (unique.length === 0) return [];
    await db
      .insertInto('tags')
      .values(unique.map((tag) => ({ name: tag, created_by: user.id, created_at: ctx.now() })))
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
    const rows = await db.selectFrom('tags').select('id').where('name', 'in', unique).execute();
    return rows.map((row) => row.id);
  }

  async function likeState(me: UserRow | null, kind: 'article' | 'image', targetId: number) {
    const [counts, liked] = await Promise.all([
      likeCounts(db, kind, [targetId]),
      mine(db, 'likes', me, kind, [targetId]),
    ]);
    return { liked: liked.has(targetId), likes: counts.get(targetId) ?? 0 };
  }

  async function loadGroup(groupId: number) {
    const row = await db.selectFrom('social_groups').selectAll().where('id', '=', groupId).executeTakeFirst();
    if (!row) throw new ApiError(404, 'group_id: no such group');
    return row;
  }

  const viewer = (request: FastifyRequest) => optionalUser(ctx, request);

  /* ---- people */

  app.post('/api/social/profile', async (request) => {
    const input = body(request, z.object({ user_id: refId.optional() }));
    const me = input.user_id === undefined ? await requireUser(ctx, request) : await viewer(request);
    return ok(await profile(me, input.user_id ?? (me as UserRow).id));
  });

  app.post('/api/social/update_profile', async (request) => {
    const me = await requireUser(ctx, request);
    const input = body(
      request,
      z.object({
        nickname: name(40).optional(),
        bio: z.string().trim().max(200, 'must be at most 200 characters').optional(),
        avatar: imageUrl.optional(),
      }),
    );
    const changes = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined));
    if (Object.keys(changes).length === 0) throw new ApiError(400, 'body: nothing to change');
    await db.updateTable('users').set(changes).where('id', '=', me.id).execute();
    return ok(await profile(me, me.id));
  });

  app.post('/api/social/users', async (request) => {
    const input = body(request, z.object({ ...pageFields, keyword: z.string().trim().max(60).optional() }));
    const me = await viewer(request);
    let base = db.selectFrom('users');
    if (input.keyword) base = base.where(contains('nickname', input.keyword));
    if (me) base = base.where('id', '!=', me.id);
    const { rows, total } = await pageRows(base, input, (query) => query.select('id').orderBy('id'));
    const list = await toCards(
      db,
      me,
      rows.map((row) => row.id),
    );
    return ok({ list, total, page: input.page, page_size: input.page_size });
  });

  for (const action of ['follow', 'unfollow'] as const) {
    app.post(`/api/social/${action}`, async (request) => {
      const me = await requireUser(ctx, request);
      const input = body(request, z.object({ user_id: refId }));
      if (input.user_id === me.id) throw new ApiError(400, 'user_id: you cannot follow yourself');
      await userExists(input.user_id);
      if (action === 'follow') {
        await db
          .insertInto('follows')
          .values({ follower_id: me.id, followee_id: input.user_id, created_at: ctx.now() })
          .onConflict((oc) => oc.columns(['follower_id', 'followee_id']).doNothing())
          .execute();
      } else {
        await db
          .deleteFrom('follows')
          .where('follower_id', '=', me.id)
          .where('followee_id', '=', input.user_id)
          .execute();
      }
      const result: FollowResult = {
        user_id: input.user_id,
        is_following: action === 'follow',
        followers: await followerCount(input.user_id),
      };
      return ok(result);
    });
  }

  for (const direction of ['followers', 'following'] as const) {
    app.post(`/api/social/${direction}`, async (request) => {
      const input = body(request, z.object({ ...pageFields, user_id: refId.optional() }));
      const me = input.user_id === undefined ? await requireUser(ctx, request) : await viewer(request);
      const userId = input.user_id ?? (me as UserRow).id;
      await userExists(userId);
      const [mineColumn, otherColumn] =
        direction === 'followers'
          ? (['followee_id', 'follower_id'] as const)
          : (['follower_id', 'followee_id'] as const);
      const base = db.selectFrom('follows').where(mineColumn, '=', userId);
      const { rows, total } = await pageRows(base, input, (query) =>
        query.select(otherColumn).orderBy('created_at', 'desc'),
      );
      const ids = rows.map((row) => (row as Record<string, number>)[otherColumn]);
      return ok({
        list: await toCards(db, me, ids),
        total,
        page: input.page,
        page_size: input.page_size,
      });
    });
  }

  app.post('/api/social/trends', async (request) => {
    const input = body(request, z.object({ ...pageFields, user_id: refId.optional() }));
    let base = db.selectFrom('articles');
    if (input.user_id !== undefined) {
      await userExists(input.user_id);
      base = base.where('author_id', '=', input.user_id);
    } else {
      const me = await requireUser(ctx, request);
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
    return ok({
      list: await toSummaries(ctx.db, rows),
      total,
      page: input.page,
      page_size: input.page_size,
    });
  });

  /* ---- images, albums and tags */

  app.post('/api/social/upload_image', async (request) => {
    if (!request.isMultipart()) throw new ApiError(400, 'file: send multipart/form-data with the field file');
    await requireUser(ctx, request);
    let file: { name: string; buffer: Buffer } | undefined;
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'file') throw new ApiError(400, `${part.fieldname}: unexpected file field, use file`);
      file = { name: part.filename, buffer: await part.toBuffer() };
    }
    if (!file) throw new ApiError(400, 'file: is required');
    try {
      return ok(await storeUpload(ctx.config.uploadDir, 'social', file.name, file.buffer, IMAGE_EXTENSIONS));
    } catch (error) {
      if (error instanceof UploadRejected) throw new ApiError(400, error.message);
      throw error;
    }
  });

  app.post('/api/social/albums', async (request) => {
    const input = body(request, z.object({ user_id: refId.optional() }));
    const me = input.user_id === undefined ? await requireUser(ctx, request) : await viewer(request);
    const userId = input.user_id ?? (me as UserRow).id;
    await userExists(userId);
    const rows = await db
      .selectFrom('albums')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .execute();
    return ok(await toAlbums(db, me, rows));
  });

  app.post('/api/social/album', async (request) => {
    const input = body(request, z.object({ album_id: refId }));
    const me = await viewer(request);
    const row = await loadAlbum(input.album_id);
    const [album] = await toAlbums(db, me, [row]);
    const images = await db
      .selectFrom('album_images')
      .selectAll()
      .where('album_id', '=', row.id)
      .orderBy('id', 'desc')
      .execute();
    const detail: AlbumDetail = { ...album, images: await toImages(db, me, images) };
    return ok(detail);
  });

  app.post('/api/social/create_album', async (request) => {
    const me = await requireUser(ctx, request);
    const input = body(
      request,
      z.object({
        name: name(40),
        description: z.string().trim().max(300, 'must be at most 300 characters').default(''),
        cover: imageUrl.or(z.literal('')).default(''),
      }),
    );
    const row = await db
      .insertInto('albums')
      .values({
        user_id: me.id,
        name: input.name,
        description: input.description,
        cover: input.cover,
        created_at: ctx.now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const [album] = await toAlbums(db, me, [row]);
    return ok(album);
  });

  app.post('/api/social/delete_album', async (request) => {
    const me = await requireUser(ctx, request);
    const input = body(request, z.object({ album_id: refId }));
    const row = await loadAlbum(input.album_id);
    if (row.user_id !== me.id) throw new ApiError(403, 'album_id: not your album');
    await db.deleteFrom('collections').where('kind', '=', 'album').where('target_id', '=', row.id).execute();
    await db.deleteFrom('albums').where('id', '=', row.id).execute();
    return ok({ deleted: true as const });
  });

  app.post('/api/social/add_images', async (request) => {
    const me = await requireUser(ctx, request);
    const input = body(
      request,
      z.object({
        album_id: refId,
        images: z
          .array(
            z.object({
              url: imageUrl,
              caption: z.string().trim().max(200).default(''),
              tags: z.array(tagName).max(10).default([]),
            }),
            { required_error: 'is required' },
          )
          .min(1, 'add at least one image')
          .max(30, 'at most 30 images at once'),
      }),
    );
    const album = await loadAlbum(input.album_id);
    if (album.user_id !== me.id) throw new ApiError(403, 'album_id: not your album');
    const created = [];
    for (const image of input.images) {
      const row = await db
        .insertInto('album_images')
        .values({
          user_id: me.id,
          album_id: album.id,
          url: image.url,
          caption: plainText(image.caption),
          created_at: ctx.now(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const tagIds = await ensureTags(me, image.tags);
      if (tagIds.length > 0)
        await db
          .insertInto('image_tags')
          .values(tagIds.map((tagId) => ({ image_id: row.id, tag_id: tagId })))
          .execute();
      created.push(row);
    }
    return ok(await toImages(db, me, created));
  });

  app.post('/api/social/delete_image', async (request) => {
    const me = await requireUser(ctx, request);
    const input = body(request, z.object({ image_id: refId }));
    const row = await loadImage(input.image_id);
    if (row.user_id !== me.id) throw new ApiError(403, 'image_id: not your image');
    await db.deleteFrom('collections').where('kind', '=', 'image').where('target_id', '=', row.id).execute();
    await db.deleteFrom('likes').where('kind', '=', 'image').where('target_id', '=', row.id).execute();
    await db.deleteFrom('comments').where('kind', '=', 'image').where('target_id', '=', row.id).execute();
    await db.deleteFrom('album_images').where('id', '=', row.id).execute();
    return ok({ deleted: true as const });
  });

  app.post('/api/social/tags', async (request) => {
    const input = body(request, z.object({ keyword: z.string().trim().max(30).optional() }));
    let base = db.selectFrom('tags').select(['id', 'name']);
    if (input.keyword) base = base.where(contains('name', input.keyword));
    const rows = await base.orderBy('name').limit(200).execute();
    const counts = await tagCounts(
      db,
      rows.map((row) => row.id),
    );
    const tags: Tag[] = rows.map((row) => ({ tag_id: row.id, name: row.name, image_count: counts.get(row.id) ?? 0 }));
    return ok(tags);
  });

  app.post('/api/social/create_tag', async (request) => {
    const me = await requireUser(ctx, request);
    const input = body(request, z.object({ name: tagName }));
    const [tagId] = await ensureTags(me, [input.name]);
    const counts = await tagCounts(db, [tagId]);
    return ok({ tag_id: tagId, name: input.name, image_count: counts.get(tagId) ?? 0 });
  });

  app.post('/api/social/tag_image', async (request) => {
    const me = await requireUser(ctx, request);
    const input = body(
      request,
      z.object({
        image_id: refId,
        tags: z.array(tagName, { required_error: 'is required' }).min(1, 'choose at least one tag').max(10),
      }),
    );
    const row = await loadImage(input.image_id);
    if (row.user_id !== me.id) throw new ApiError(403, 'image_id: not your image');
    const tagIds = await ensureTags(me, input.tags);
    await db
      .insertInto('image_tags')
      .values(tagIds.map((tagId) => ({ image_id: row.id, tag_id: tagId })))
      .onConflict((oc) => oc.columns(['image_id', 'tag_id']).doNothing())
      .execute();
    const [image] = await toImages(db, me, [row]);
    return ok(image);
  });

  app.post('/api/social/tag_images', async (request) => {
    const input = body(request, z.object({ ...pageFields, tag_id: refId }));
    const me = await viewer(request);
    const tag = await db.selectFrom('tags').select(['id', 'name']).where('id', '=', input.tag_id).executeTakeFirst();
    if (!tag) throw new ApiError(404, 'tag_id: no such tag');
    const base = db
      .selectFrom('album_images')
      .innerJoin('image_tags', 'image_tags.image_id', 'album_images.id')
      .where('image_tags.tag_id', '=', tag.id);
    const { rows, total } = await pageRows(base, input, (query) =>
      query.selectAll('album_images').orderBy('album_images.id', 'desc'),
    );
    return ok({
      tag: { tag_id: tag.id, name: tag.name, image_count: total },
      list: await toImages(db, me, rows),
      total,
      page: input.page,
      page_size: input.page_size,
    });
  });

  /* ---- collections and likes */

  for (const action of ['collect', 'uncollect'] as const) {
    app.post(`/api/social/${action}`, async (request) => {
      const me = await requireUser(ctx, request);
      const input = body(request, z.object({ kind: collectKind, target_id: refId }));
      if (action === 'collect') {
        await targetExists(input.kind, input.target_id);
        await db
          .insertInto('collections')
          .values({ user_id: me.id, kind: input.kind, target_id: input.target_id, created_at: ctx.now() })
          .onConflict((oc) => oc.columns(['user_id', 'kind', 'target_id']).doNothing())
          .execute();
      } else {
        await db
          .deleteFrom('collections')
          .where('user_id', '=', me.id)
          .where('kind', '=', input.kind)
          .where('target_id', '=', input.target_id)
          .execute();
      }
      return ok({ collected: action === 'collect' });
    });
  }

  app.post('/api/social/collected_albums', async (request) => {
    const me = await requireUser(ctx, request);
    const input = body(request, z.object(pageFields));
    const base = db
      .selectFrom('collections')
      .innerJoin('albums', 'albums.id', 'collections.target_id')
      .where('collections.user_id', '=', me.id)
      .where('collections.kind', '=', 'album');
    const { rows, total } = await pageRows(base, input, (query) =>
      query.selectAll('albums').orderBy('collections.created_at', 'desc'),
    );
    return ok({
      list: await toAlbums(db, me, rows),
      total,
      page: input.page,
      page_size: input.page_size,
    });
  });

  app.post('/api/social/collected_images', async (request) => {
    const me = await requireUser(ctx, request);
    const input = body(request, z.object(pageFields));
    const base = db
      .selectFrom('collections')
      .innerJoin('album_images', 'album_images.id', 'collections.target_id')
      .where('collections.user_id', '=', me.id)
      .where('collections.kind', '=', 'image');
    const { rows, total } = await pageRows(base, input, (query) =>
      query.selectAll('album_images').orderBy('collections.created_at', 'desc'),
    );
    return ok({
      list: await toImages(db, me, rows),
      total,
      page: input.page,
      page_size: input.page_size,
    });
  });

  const target = z.object({ kind: likeKind, target_id: refId });

  for (const action of ['like', 'unlike'] as const) {
    app.post(`/api/social/${action}`, async (request) => {
      const me = await requireUser(ctx, request);
      const input = body(request, target);
      await targetExists(input.kind, input.target_id);
      if (action === 'like') {
        await db
          .insertInto('likes')
          .values({ user_id: me.id, kind: input.kind, target_id: input.target_id, created_at: ctx.now() })
          .onConflict((oc) => oc.columns(['user_id', 'kind', 'target_id']).doNothing())
          .execute();
      } else {
        await db
          .deleteFrom('likes')
          .where('user_id', '=', me.id)
          .where('kind', '=', input.kind)
          .where('target_id', '=', input.target_id)
          .execute();
      }
      return ok(await likeState(me, input.kind, input.target_id));
    });
  }

  app.post('/api/social/likes', async (request) => {
    const input = body(request, target);
    await targetExists(input.kind, input.target_id);
    return ok(await likeState(await viewer(request), input.kind, input.target_id));
  });

  /* ---- comments */

  async function toComments(
    rows: {
      id: number;
      user_id: number;
      kind: 'article' | 'image';
      target_id: number;
      content: string;
      created_at: number;
    }[],
  ): Promise<Comment[]> {
    const authors = await briefs(
      db,
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

  app.post('/api/social/comments', async (request) => {
    const input = body(request, target.extend(pageFields));
    await targetExists(input.kind, input.target_id);
    const base = db.selectFrom('comments').where('kind', '=', input.kind).where('target_id', '=', input.target_id);
    const { rows, total } = await pageRows(base, input, (query) => query.selectAll().orderBy('id', 'desc'));
    return ok({ list: await toComments(rows), total, page: input.page, page_size: input.page_size });
  });

  app.post('/api/social/add_comment', async (request) => {
    const me = await requireUser(ctx, request);
    const input = body(
      request,
      target.extend({
        content: z
          .string({ required_error: 'is required' })
          .max(COMMENT_MAX * 4, `must be at most ${COMMENT_MAX} characters`),
      }),
    );
    const content = plainText(input.content);
    if (content.length === 0) throw new ApiError(400, 'content: is required');
    if (content.length > COMMENT_MAX) throw new ApiError(400, `content: must be at most ${COMMENT_MAX} characters`);
    await targetExists(input.kind, input.target_id);
    const row = await db
      .insertInto('comments')
      .values({ user_id: me.id, kind: input.kind, target_id: input.target_id, content, created_at: ctx.now() })
      .returningAll()
      .executeTakeFirstOrThrow();
    const [comment] = await toComments([row]);
    return ok(comment);
  });

  app.post('/api/social/delete_comment', async (request) => {
    const me = await requireUser(ctx, request);
    const input = body(request, z.object({ comment_id: refId }));
    const row = await db.selectFrom('comments').selectAll().where('id', '=', input.comment_id).executeTakeFirst();
    if (!row) throw new ApiError(404, 'comment_id: no such comment');
    if (row.user_id !== me.id && me.is_admin !== 1) throw new ApiError(403, 'comment_id: not your comment');
    await db.deleteFrom('comments').where('id', '=', row.id).execute();
    return ok({ deleted: true as const });
  });

  /* ---- groups (the member list the group chat uses) */

  app.post('/api/social/groups', async (request) => {
    const me = await requireUser(ctx, request);
    const rows = await db
      .selectFrom('social_groups')
      .innerJoin('group_members', 'group_members.group_id', 'social_groups.id')
      .selectAll('social_groups')
      .where('group_members.user_id', '=', me.id)
      .orderBy('social_groups.id', 'desc')
      .execute();
    return ok(await toGroups(db, me, rows));
  });

  async function members(me: UserRow | null, groupId: number): Promise<UserCard[]> {
    const rows = await db
      .selectFrom('group_members')
      .select('user_id')
      .where('group_id', '=', groupId)
      .orderBy('joined_at')
      .orderBy('user_id')
      .execute();
    return toCards(
      db,
      me,
      rows.map((row) => row.user_id),
    );
  }

  app.post('/api/social/group', async (request) => {
    const me = await requireUser(ctx, request);
    const input = body(request, z.object({ group_id: refId }));
    const [group] = await toGroups(db, me, [await loadGroup(input.group_id)]);
    return ok({ ...group, members: await members(me, group.group_id) });
  });

  app.post('/api/social/create_group', async (request) => {
    const me = await requireUser(ctx, request);
    const input = body(
      request,
      z.object({
        name: name(40),
        member_ids: z
          .array(refId)
          .max(GROUP_MEMBERS_MAX - 1, `at most ${GROUP_MEMBERS_MAX - 1} members`)
          .default([]),
      }),
    );
    const others = [...new Set(input.member_ids.filter((memberId) => memberId !== me.id))];
    if (others.length > 0) {
      const found = await db.selectFrom('users').select('id').where('id', 'in', others).execute();
      const known = new Set(found.map((row) => row.id));
      const missing = others.find((memberId) => !known.has(memberId));
      if (missing !== undefined) throw new ApiError(404, `member_ids: no such user ${missing}`);
    }
    const now = ctx.now();
    const row = await db.transaction().execute(async (trx) => {
      const group = await trx
        .insertInto('social_groups')
        .values({ name: input.name, owner_id: me.id, created_at: now })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('group_members')
        .values([me.id, ...others].map((userId) => ({ group_id: group.id, user_id: userId, joined_at: now })))
        .execute();
      return group;
    });
    const [group] = await toGroups(db, me, [row]);
    return ok(group);
  });

  app.post('/api/social/join_group', async (request) => {
    const me = await requireUser(ctx, request);
    const input = body(request, z.object({ group_id: refId }));
    const refusal = await joinGroup(db, input.group_id, me.id, ctx.now());
    if (refusal) throw new ApiError(refusal.status, refusal.message);
    const [group] = await toGroups(db, me, [await loadGroup(input.group_id)]);
    return ok(group);
  });

  app.post('/api/social/leave_group', async (request) => {
    const me = await requireUser(ctx, request);
    const input = body(request, z.object({ group_id: refId }));
    await loadGroup(input.group_id);
    const result = await db
      .deleteFrom('group_members')
      .where('group_id', '=', input.group_id)
      .where('user_id', '=', me.id)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new ApiError(404, 'group_id: you are not a member');
    return ok({ left: true as const });
  });

  app.post('/api/social/group_members', async (request) => {
    const me = await requireUser(ctx, request);
    const input = body(request, z.object({ group_id: refId }));
    await loadGroup(input.group_id);
    return ok(await members(me, input.group_id));
  });

  /* ---- notifications: likes, new followers and comments on the signed-in user's content */

  app.post('/api/social/notifications', async (request) => {
    const me = await requireUser(ctx, request);
    const input = body(
      request,
      z.object({
        ...pageFields,
        kind: z.enum(['likes', 'followers', 'comments'], {
          errorMap: () => ({ message: 'must be likes, followers or comments' }),
        }),
      }),
    );
    const { limit, offset } = pageOf(input);
    if (input.kind === 'followers') {
      const base = db.selectFrom('follows').where('followee_id', '=', me.id);
      const { rows, total } = await pageRows(base, input, (query) =>
        query.select(['follower_id', 'created_at']).orderBy('created_at', 'desc'),
      );
      const people = await briefs(
        db,
        rows.map((row) => row.follower_id),
      );
      const list: Notice[] = rows.map((row) => ({
        kind: 'followers',
        from: people.get(row.follower_id) ?? unknownUser(row.follower_id),
        target: null,
        content: '',
        created_at: row.created_at,
      }));
      return ok({ list, total, page: input.page, page_size: input.page_size });
    }
    const table = input.kind === 'likes' ? 'likes' : 'comments';
    const onMine = (kind: 'article' | 'image') => {
      const owned =
        kind === 'article'
          ? db.selectFrom('articles').select('id').where('author_id', '=', me.id)
          : db.selectFrom('album_images').select('id').where('user_id', '=', me.id);
      return db
        .selectFrom(table)
        .where('kind', '=', kind)
        .where('target_id', 'in', owned)
        .where('user_id', '!=', me.id);
    };
    const wanted = offset + limit;
    type Row = { user_id: number; kind: 'article' | 'image'; target_id: number; created_at: number; content?: string };
    const columns = ['user_id', 'kind', 'target_id', 'created_at', ...(input.kind === 'comments' ? ['content'] : [])];
    const fetchKind = async (kind: 'article' | 'image') => {
      const query = onMine(kind);
      const [rows, total] = await Promise.all([
        query
          .select(columns as 'user_id'[])
          .orderBy('created_at', 'desc')
          .limit(wanted)
          .execute() as Promise<unknown> as Promise<Row[]>,
        query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: count(total.n) };
    };
    const [articles, images] = await Promise.all([fetchKind('article'), fetchKind('image')]);
    const merged = [...articles.rows, ...images.rows]
      .sort((a, b) => b.created_at - a.created_at)
      .slice(offset, offset + limit);
    const articleIds = merged.filter((row) => row.kind === 'article').map((row) => row.target_id);
    const imageIds = merged.filter((row) => row.kind === 'image').map((row) => row.target_id);
    const [people, articleRows, imageRows] = await Promise.all([
      briefs(
        db,
        merged.map((row) => row.user_id),
      ),
      articleIds.length
        ? db.selectFrom('articles').select(['id', 'title', 'cover']).where('id', 'in', articleIds).execute()
        : Promise.resolve([]),
      imageIds.length
        ? db.selectFrom('album_images').select(['id', 'caption', 'url']).where('id', 'in', imageIds).execute()
        : Promise.resolve([]),
    ]);
    const articleBy = new Map(articleRows.map((row) => [row.id, { title: row.title, image: row.cover }]));
    const imageBy = new Map(imageRows.map((row) => [row.id, { title: row.caption, image: row.url }]));
    const list: Notice[] = merged.map((row) => {
      const about = (row.kind === 'article' ? articleBy : imageBy).get(row.target_id) ?? { title: '', image: '' };
      return {
        kind: input.kind,
        from: people.get(row.user_id) ?? unknownUser(row.user_id),
        target: { kind: row.kind, target_id: row.target_id, ...about },
        content: row.content ?? '',
        created_at: row.created_at,
      };
    });
    return ok({ list, total: articles.total + images.total, page: input.page, page_size: input.page_size });
  });
}

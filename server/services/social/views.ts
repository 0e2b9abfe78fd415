/** How the social answers show people, images, albums and groups to a viewer (who may be a guest). */
import type { Kysely, Selectable } from 'kysely';
import sanitizeHtml from 'sanitize-html';
import type { Album, SocialGroup, SocialImage, Tag, UserCard } from '../../../types/api';
import type { UserRow } from '../../auth';
import type { Database } from '../../db/schema';
import type { AlbumImagesTable, AlbumsTable, SocialGroupsTable } from '../../db/social-schema';
import { containsText } from '../catalog';

export type Brief = { user_id: number; nickname: string; avatar: string };
export type Db = Kysely<Database>;

/** Case-insensitive substring match on both engines (the one helper beside the catalogue's escapeLike). */
export const contains = containsText;

export const count = (value: unknown) => Number(value ?? 0);
export const pageOf = (input: { page: number; page_size: number }) => ({
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

export async function briefs(db: Db, ids: number[]): Promise<Map<number, Brief>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'nickname', 'avatar']).where('id', 'in', wanted).execute();
  return new Map(rows.map((row) => [row.id, { user_id: row.id, nickname: row.nickname, avatar: row.avatar }]));
}

export const unknownUser = (userId: number): Brief => ({ user_id: userId, nickname: '', avatar: '' });

export async function followedAmong(db: Db, me: UserRow | null, ids: number[]): Promise<Set<number>> {
  if (!me || ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('follows')
    .select('followee_id')
    .where('follower_id', '=', me.id)
    .where('followee_id', 'in', ids)
    .execute();
  return new Set(rows.map((row) => row.followee_id));
}

export async function toCards(db: Db, me: UserRow | null, ids: number[]): Promise<UserCard[]> {
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

export async function tagsOf(db: Db, imageIds: number[]): Promise<Map<number, Tag[]>> {
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

export async function tagCounts(db: Db, tagIds: number[]): Promise<Map<number, number>> {
  if (tagIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('image_tags')
    .select(['tag_id', (eb) => eb.fn.countAll().as('n')])
    .where('tag_id', 'in', tagIds)
    .groupBy('tag_id')
    .execute();
  return new Map(rows.map((row) => [row.tag_id, count(row.n)]));
}

export async function likeCounts(db: Db, kind: 'article' | 'image', ids: number[]): Promise<Map<number, number>> {
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

export async function mine(
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

export async function toImages(
  db: Db,
  me: UserRow | null,
  rows: Selectable<AlbumImagesTable>[],
): Promise<SocialImage[]> {
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

export async function toAlbums(db: Db, me: UserRow | null, rows: Selectable<AlbumsTable>[]): Promise<Album[]> {
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

export async function toGroups(
  db: Db,
  me: UserRow | null,
  rows: Selectable<SocialGroupsTable>[],
): Promise<SocialGroup[]> {
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

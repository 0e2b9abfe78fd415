/** Albums and their images, and the tags images carry. */
import type { Album, AlbumDetail, Page, SocialImage, Tag } from '../../../types/api';
import type { ParsedRequestOf } from '../../../types/contract';
import type { UserRow } from '../../auth';
import type { AppContext } from '../../context';
import { ApiError, pageRows } from '../../http';
import { userExists } from './people';
import { contains, plainText, tagCounts, toAlbums, toImages } from './views';

async function loadAlbum(ctx: AppContext, albumId: number) {
  const row = await ctx.db.selectFrom('albums').selectAll().where('id', '=', albumId).executeTakeFirst();
  if (!row) throw new ApiError(404, 'album_id: no such album');
  return row;
}

async function loadImage(ctx: AppContext, imageId: number) {
  const row = await ctx.db.selectFrom('album_images').selectAll().where('id', '=', imageId).executeTakeFirst();
  if (!row) throw new ApiError(404, 'image_id: no such image');
  return row;
}

/** The ids of the named tags, made when new. */
async function ensureTags(ctx: AppContext, user: UserRow, names: string[]): Promise<number[]> {
  const unique = [...new Set(names.map((tag) => tag.trim()).filter((tag) => tag.length > 0))];
  if (unique.length === 0) return [];
  await ctx.db
    .insertInto('tags')
    .values(unique.map((tag) => ({ name: tag, created_by: user.id, created_at: ctx.now() })))
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const rows = await ctx.db.selectFrom('tags').select('id').where('name', 'in', unique).execute();
  return rows.map((row) => row.id);
}

export async function albumsOf(ctx: AppContext, me: UserRow | null, userId: number): Promise<Album[]> {
  await userExists(ctx, userId);
  const rows = await ctx.db
    .selectFrom('albums')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .execute();
  return toAlbums(ctx.db, me, rows);
}

export async function albumDetail(ctx: AppContext, me: UserRow | null, albumId: number): Promise<AlbumDetail> {
  const row = await loadAlbum(ctx, albumId);
  const [album] = await toAlbums(ctx.db, me, [row]);
  const images = await ctx.db
    .selectFrom('album_images')
    .selectAll()
    .where('album_id', '=', row.id)
    .orderBy('id', 'desc')
    .execute();
  return { ...album, images: await toImages(ctx.db, me, images) };
}

export async function createAlbum(
  ctx: AppContext,
  me: UserRow,
  input: ParsedRequestOf<'POST /api/social/create_album'>,
): Promise<Album> {
  const row = await ctx.db
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
  const [album] = await toAlbums(ctx.db, me, [row]);
  return album;
}

export async function deleteAlbum(ctx: AppContext, me: UserRow, albumId: number): Promise<void> {
  const row = await loadAlbum(ctx, albumId);
  if (row.user_id !== me.id) throw new ApiError(403, 'album_id: not your album');
  await ctx.db.deleteFrom('collections').where('kind', '=', 'album').where('target_id', '=', row.id).execute();
  await ctx.db.deleteFrom('albums').where('id', '=', row.id).execute();
}

/** add_images: into one of the user's own albums, captions as plain text, tags made when new. */
export async function addImages(
  ctx: AppContext,
  me: UserRow,
  input: ParsedRequestOf<'POST /api/social/add_images'>,
): Promise<SocialImage[]> {
  const album = await loadAlbum(ctx, input.album_id);
  if (album.user_id !== me.id) throw new ApiError(403, 'album_id: not your album');
  const created = [];
  for (const image of input.images) {
    const row = await ctx.db
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
    const tagIds = await ensureTags(ctx, me, image.tags);
    if (tagIds.length > 0)
      await ctx.db
        .insertInto('image_tags')
        .values(tagIds.map((tagId) => ({ image_id: row.id, tag_id: tagId })))
        .execute();
    created.push(row);
  }
  return toImages(ctx.db, me, created);
}

/** delete_image: one of the user's own, with its likes, comments and places in collections. */
export async function deleteImage(ctx: AppContext, me: UserRow, imageId: number): Promise<void> {
  const row = await loadImage(ctx, imageId);
  if (row.user_id !== me.id) throw new ApiError(403, 'image_id: not your image');
  await ctx.db.deleteFrom('collections').where('kind', '=', 'image').where('target_id', '=', row.id).execute();
  await ctx.db.deleteFrom('likes').where('kind', '=', 'image').where('target_id', '=', row.id).execute();
  await ctx.db.deleteFrom('comments').where('kind', '=', 'image').where('target_id', '=', row.id).execute();
  await ctx.db.deleteFrom('album_images').where('id', '=', row.id).execute();
}

/* ---- tags */

export async function findTags(ctx: AppContext, keyword: string | undefined): Promise<Tag[]> {
  let base = ctx.db.selectFrom('tags').select(['id', 'name']);
  if (keyword) base = base.where(contains('name', keyword));
  const rows = await base.orderBy('name').limit(200).execute();
  const counts = await tagCounts(
    ctx.db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ tag_id: row.id, name: row.name, image_count: counts.get(row.id) ?? 0 }));
}

export async function createTag(ctx: AppContext, me: UserRow, name: string): Promise<Tag> {
  const [tagId] = await ensureTags(ctx, me, [name]);
  const counts = await tagCounts(ctx.db, [tagId]);
  return { tag_id: tagId, name, image_count: counts.get(tagId) ?? 0 };
}

export async function tagImage(
  ctx: AppContext,
  me: UserRow,
  input: ParsedRequestOf<'POST /api/social/tag_image'>,
): Promise<SocialImage> {
  const row = await loadImage(ctx, input.image_id);
  if (row.user_id !== me.id) throw new ApiError(403, 'image_id: not your image');
  const tagIds = await ensureTags(ctx, me, input.tags);
  await ctx.db
    .insertInto('image_tags')
    .values(tagIds.map((tagId) => ({ image_id: row.id, tag_id: tagId })))
    .onConflict((oc) => oc.columns(['image_id', 'tag_id']).doNothing())
    .execute();
  const [image] = await toImages(ctx.db, me, [row]);
  return image;
}

export async function tagImages(
  ctx: AppContext,
  me: UserRow | null,
  input: ParsedRequestOf<'POST /api/social/tag_images'>,
): Promise<Page<SocialImage> & { tag: Tag }> {
  const tag = await ctx.db.selectFrom('tags').select(['id', 'name']).where('id', '=', input.tag_id).executeTakeFirst();
  if (!tag) throw new ApiError(404, 'tag_id: no such tag');
  const base = ctx.db
    .selectFrom('album_images')
    .innerJoin('image_tags', 'image_tags.image_id', 'album_images.id')
    .where('image_tags.tag_id', '=', tag.id);
  const { rows, total } = await pageRows(base, input, (query) =>
    query.selectAll('album_images').orderBy('album_images.id', 'desc'),
  );
  return {
    tag: { tag_id: tag.id, name: tag.name, image_count: total },
    list: await toImages(ctx.db, me, rows),
    total,
    page: input.page,
    page_size: input.page_size,
  };
}

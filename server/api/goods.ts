import type { FastifyInstance } from 'fastify';
import { type SelectQueryBuilder, sql } from 'kysely';
import { z } from 'zod';
import type { LensColorKind, LensType } from '../../types/api';
import { optionalUser, requireAdmin, requireUser } from '../auth';
import type { AppContext } from '../context';
import type { Database, GoodsTable } from '../db/schema';
import { ApiError, MSG, body, countRows, fromCents, id, money, ok, pageFields, pageRows, toCents } from '../http';
import { finalPriceCents, hydrateGoods, refreshSearchText } from '../services/catalog';
import { ListingCache, type ListingIds } from '../services/listing-cache';
import {
  IMAGE_EXTENSIONS,
  UploadRejected,
  prescriptionFolder,
  storeUpload,
  uploadUrlReader,
} from '../services/uploads';

const sort = z.enum(['newest', 'price_asc', 'price_desc', 'discount'], {
  errorMap: () => ({ message: 'must be newest, price_asc, price_desc or discount' }),
});
const idList = z.array(z.number({ invalid_type_error: 'must be a list of ids' }).int().positive()).max(50);

const goodsPage = z.object({
  ...pageFields,
  color_ids: idList.optional(),
  filter_ids: idList.optional(),
  category_id: z.number().int().positive().optional(),
  sort: sort.default('newest'),
  include_unlisted: z.boolean().default(false),
});

const searchPage = z.object({
  ...pageFields,
  keyword: z.string({ required_error: 'is required' }).trim().min(1, 'is required').max(100),
  sort: sort.default('newest'),
});

const saveGoods = z.object({
  goods_id: z.number().int().positive().optional(),
  goods_name: z.string({ required_error: 'is required' }).trim().min(1, 'is required').max(120),
  goods_img: z.string({ required_error: 'is required' }).trim().min(1, 'is required').max(500),
  goods_desc: z.string().max(5000).default(''),
  shop_price: money.refine((value) => value > 0, 'must be more than 0'),
  discount: z
    .number({ required_error: 'is required' })
    .int('must be a whole percent')
    .min(1, 'must be from 1 to 100')
    .max(100, 'must be from 1 to 100'),
  category_id: z.number().int().positive().nullable().default(null),
  filter_ids: idList.default([]),
  color_arr: z
    .array(
      z.object({
        color_id: z.number({ required_error: 'is required' }).int().positive(),
        goods_color_img: z.array(z.string().min(1).max(500)).max(20).default([]),
        stock: z.number().int().min(0, 'must be 0 or more').nullable().default(null),
      }),
    )
    .min(1, 'needs at least one colour')
    .max(30),
  lens_width: z.number().int().min(0).max(100).default(0),
  bridge_width: z.number().int().min(0).max(50).default(0),
  temple_length: z.number().int().min(0).max(200).default(0),
  is_on_sale: z.boolean().default(true),
});

type GoodsQuery = SelectQueryBuilder<Database, 'goods', object>;

/** Each sort's column and direction; ties go to the newest id. */
const ORDERS = {
  newest: ['created_at', 'desc'],
  price_asc: ['final_price_cents', 'asc'],
  price_desc: ['final_price_cents', 'desc'],
  discount: ['discount', 'asc'],
} as const satisfies Record<z.infer<typeof sort>, [keyof GoodsTable, 'asc' | 'desc']>;

function orderGoods(query: GoodsQuery, order: z.infer<typeof sort>): GoodsQuery {
  const [column, direction] = ORDERS[order];
  return query.orderBy(`goods.${column}`, direction).orderBy('goods.id', 'desc');
}

/** One page of `base` in the given order, as ids, with the total: `count(*)` of `base` unless the caller knows it. */
async function pageIds(
  base: GoodsQuery,
  order: z.infer<typeof sort>,
  pageNo: number,
  size: number,
  knownTotal?: number,
): Promise<ListingIds> {
  const { rows, total } = await pageRows(
    base,
    { page: pageNo, page_size: size },
    (query) => orderGoods(query.select('goods.id'), order),
    knownTotal,
  );
  return { ids: rows.map((row) => (row as { id: number }).id), total };
}

/** The goods of `ids` in that order, read fresh (prices, stock and images are never taken from the listing cache). */
async function goodsOf(ctx: AppContext, ids: number[]) {
  if (ids.length === 0) return [];
  const found = await ctx.db.selectFrom('goods').selectAll().where('id', 'in', ids).execute();
  const byId = new Map(found.map((row) => [row.id, row]));
  return hydrateGoods(
    ctx.db,
    ids.flatMap((id) => byId.get(id) ?? []),
  );
}

/** Below this many word matches, search_page reads the matches by id and sorts them instead of walking the listing. */
export const FEW_MATCHES = 300;

/**
 * search_page on SQLite. The total is all the FTS5 matches (FTS5 counts its own doclist) less the unlisted or
 * deleted goods among them (a partial index holds only those, migration 0003): the plain count of
 * `deleted = 0 and on_sale = 1 and id in (matches)` walks the whole listing index, 20-70 ms at 100,000 goods with
 * better-sqlite3 blocking the event loop. The page walks the listing index in order and keeps the matches, unless
 * the matches are few: then the unary + keeps SQLite off the listing index, so it fetches them by id and sorts.
 */
async function searchSqlite(
  ctx: AppContext,
  listed: GoodsQuery,
  match: string,
  input: z.infer<typeof searchPage>,
): Promise<ListingIds> {
  const matches = sql<number>`(select rowid from goods_fts where goods_fts match ${match})`;
  const { rows } = await sql<{ matched: number; unlisted: number }>`select
    (select count(*) from goods_fts where goods_fts match ${match}) as matched,
    (select count(*) from goods indexed by goods_unlisted where (deleted <> 0 or on_sale <> 1)
      and +id in ${matches}) as unlisted`.execute(ctx.db);
  const matched = Number(rows[0].matched);
  const total = matched - Number(rows[0].unlisted);
  const base =
    matched > FEW_MATCHES
      ? listed
      : (ctx.db
          .selectFrom('goods')
          .where(sql`+goods.deleted`, '=', 0)
          .where(sql`+goods.on_sale`, '=', 1) as GoodsQuery);
  const query = base.where('goods.id', 'in', matches);
  return pageIds(query, input.sort, input.page, input.page_size, total);
}

/**
 * search_page on PostgreSQL: one pass over the matches (the GIN index, then their rows) gives both the total and the
 * page's ids, then the page's rows are read by id. Counting and paging as two queries read every match twice, and
 * the page alone is often planned as a walk of the whole listing index testing each row's words.
 */
async function searchPostgres(
  ctx: AppContext,
  tsquery: string,
  input: z.infer<typeof searchPage>,
): Promise<ListingIds> {
  const [column, direction] = ORDERS[input.sort];
  const { rows } = await sql<{ total: string; ids: number[] }>`with matches as materialized (
      select id, ${sql.ref(column)} as sort_key from goods
      where deleted = 0 and on_sale = 1 and search_vector @@ to_tsquery('simple', ${tsquery}))
    select (select count(*) from matches) as total,
      array(select id from matches order by sort_key ${sql.raw(direction)}, id desc
        limit ${input.page_size} offset ${(input.page - 1) * input.page_size}) as ids`.execute(ctx.db);
  return { ids: rows[0].ids, total: Number(rows[0].total) };
}

/** The keyword's words (letters and digits only, so they are safe inside FTS5 and tsquery syntax), at most 5. */
export function searchWords(keyword: string): string[] {
  return (keyword.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 5);
}

export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

export function registerGoodsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const listings = new ListingCache();
  const listed = (includeUnlisted: boolean): GoodsQuery => {
    let query = ctx.db.selectFrom('goods').where('goods.deleted', '=', 0) as GoodsQuery;
    if (!includeUnlisted) query = query.where('goods.on_sale', '=', 1);
    return query;
  };

  app.post('/api/goods/get_goods_by_id', async (request) => {
    const input = body(request, z.object({ goods_id: id }));
    const row = await ctx.db
      .selectFrom('goods')
      .selectAll()
      .where('id', '=', input.goods_id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!row) throw new ApiError(404, 'goods_id: no such glasses');
    if (row.on_sale !== 1) {
      const user = await optionalUser(ctx, request);
      if (user?.is_admin !== 1) throw new ApiError(404, 'goods_id: these glasses are no longer sold');
    }
    const [goods] = await hydrateGoods(ctx.db, [row]);
    return ok(goods);
  });

  app.post('/api/goods/get_goods_page', async (request) => {
    const input = body(request, goodsPage);
    if (input.include_unlisted) await requireAdmin(ctx, request);
    let query = listed(input.include_unlisted);
    if (input.category_id !== undefined) query = query.where('goods.category_id', '=', input.category_id);
    if (input.color_ids?.length) {
      const colorIds = input.color_ids;
      query = query.where('goods.id', 'in', (eb) =>
        eb.selectFrom('goods_colors').select('goods_colors.goods_id').where('goods_colors.color_id', 'in', colorIds),
      );
    }
    if (input.filter_ids?.length) {
      const filters = await ctx.db
        .selectFrom('filters')
        .select(['id', 'type'])
        .where('id', 'in', input.filter_ids)
        .execute();
      if (filters.length !== new Set(input.filter_ids).size) throw new ApiError(400, 'filter_ids: unknown filter id');
      const byType = new Map<string, number[]>();
      for (const filter of filters) byType.set(filter.type, [...(byType.get(filter.type) ?? []), filter.id]);
      for (const ids of byType.values()) {
        query = query.where('goods.id', 'in', (eb) =>
          eb.selectFrom('goods_filters').select('goods_filters.goods_id').where('goods_filters.filter_id', 'in', ids),
        );
      }
    }
    const view = await listings.view(ctx.db);
    const listing = JSON.stringify([
      input.include_unlisted,
      input.category_id ?? null,
      [...new Set(input.color_ids ?? [])].sort((a, b) => a - b),
      [...new Set(input.filter_ids ?? [])].sort((a, b) => a - b),
    ]);
    const total = await view.remember(`goods:total:${listing}`, () => countRows(query));
    const { ids } = await view.remember(`goods:page:${listing}:${input.sort}:${input.page}:${input.page_size}`, () =>
      pageIds(query, input.sort, input.page, input.page_size, total),
    );
    return ok({ list: await goodsOf(ctx, ids), total, page: input.page, page_size: input.page_size });
  });

  app.post('/api/goods/search_page', async (request) => {
    const input = body(request, searchPage);
    const words = searchWords(input.keyword);
    if (words.length === 0) return ok({ list: [], total: 0, page: input.page, page_size: input.page_size });
    const view = await listings.view(ctx.db);
    const { ids, total } = await view.remember(
      `search:${JSON.stringify(words)}:${input.sort}:${input.page}:${input.page_size}`,
      () =>
        ctx.dialect === 'postgres'
          ? searchPostgres(ctx, words.map((word) => `${word}:*`).join(' & '), input)
          : searchSqlite(ctx, listed(false), words.map((word) => `"${word}"*`).join(' AND '), input),
    );
    return ok({ list: await goodsOf(ctx, ids), total, page: input.page, page_size: input.page_size });
  });

  app.post('/api/goods/get_lens_type', async () => {
    const [types, lenses] = await Promise.all([
      ctx.db.selectFrom('lens_types').selectAll().orderBy('sort').orderBy('id').execute(),
      ctx.db.selectFrom('lenses').selectAll().orderBy('sort').orderBy('id').execute(),
    ]);
    const answer: LensType[] = types.map((type) => ({
      lens_type_id: type.id,
      name: type.name,
      description: type.description,
      price: fromCents(type.price_cents),
      needs_prescription: type.needs_prescription === 1,
      needs_add: type.needs_add === 1,
      lenses: lenses
        .filter((lens) => lens.lens_type_id === type.id)
        .map((lens) => ({
          lens_id: lens.id,
          lens_type_id: lens.lens_type_id,
          name: lens.name,
          description: lens.description,
          price: fromCents(lens.price_cents),
        })),
    }));
    return ok(answer);
  });

  app.post('/api/goods/get_lens_color', async () => {
    const rows = await ctx.db.selectFrom('lens_colors').selectAll().orderBy('id').execute();
    return ok(
      rows.map((row) => ({
        lens_color_id: row.id,
        name: row.name,
        color_value: row.value,
        kind: row.kind as LensColorKind,
        price: fromCents(row.price_cents),
      })),
    );
  });

  app.post('/api/goods/get_lens_thickness', async () => {
    const rows = await ctx.db.selectFrom('lens_thickness').selectAll().orderBy('index_value').execute();
    return ok(
      rows.map((row) => ({
        thickness_id: row.id,
        index: row.index_value,
        name: row.name,
        description: row.description,
        price: fromCents(row.price_cents),
      })),
    );
  });

  app.get('/api/goods/lens_coating', async () => {
    const rows = await ctx.db.selectFrom('lens_coatings').selectAll().orderBy('id').execute();
    return ok(
      rows.map((row) => ({
        coating_id: row.id,
        name: row.name,
        description: row.description,
        price: fromCents(row.price_cents),
      })),
    );
  });

  app.get('/api/goods/prism_price', async () => {
    const row = await ctx.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', 'prism_price_cents')
      .executeTakeFirst();
    return ok({ price: fromCents(Number(row?.value ?? 0)) });
  });

  app.post('/api/goods/save_goods', async (request) => {
    await requireAdmin(ctx, request);
    const input = body(request, saveGoods);
    const colorIds = input.color_arr.map((color) => color.color_id);
    if (new Set(colorIds).size !== colorIds.length) throw new ApiError(400, 'color_arr: a colour is listed twice');
    const knownColors = await ctx.db.selectFrom('colors').select('id').where('id', 'in', colorIds).execute();
    if (knownColors.length !== colorIds.length) throw new ApiError(400, 'color_arr: unknown color_id');
    const filterIds = [...new Set(input.filter_ids)];
    if (filterIds.length > 0) {
      const known = await ctx.db.selectFrom('filters').select('id').where('id', 'in', filterIds).execute();
      if (known.length !== filterIds.length) throw new ApiError(400, 'filter_ids: unknown filter id');
    }
    if (input.category_id !== null) {
      const category = await ctx.db
        .selectFrom('categories')
        .select('id')
        .where('id', '=', input.category_id)
        .executeTakeFirst();
      if (!category) throw new ApiError(400, 'category_id: no such category');
    }
    const now = ctx.now();
    const shopPriceCents = toCents(input.shop_price);
    const fields = {
      name: input.goods_name,
      img: input.goods_img,
      description: input.goods_desc,
      shop_price_cents: shopPriceCents,
      discount: input.discount,
      final_price_cents: finalPriceCents(shopPriceCents, input.discount),
      category_id: input.category_id,
      on_sale: input.is_on_sale ? 1 : 0,
      lens_width: input.lens_width,
      bridge_width: input.bridge_width,
      temple_length: input.temple_length,
      updated_at: now,
    };
    const goodsId = await ctx.db.transaction().execute(async (trx) => {
      let targetId: number;
      if (input.goods_id !== undefined) {
        const updated = await trx
          .updateTable('goods')
          .set(fields)
          .where('id', '=', input.goods_id)
          .where('deleted', '=', 0)
          .returning('id')
          .executeTakeFirst();
        if (!updated) throw new ApiError(404, 'goods_id: no such glasses');
        targetId = updated.id;
        await trx.deleteFrom('goods_colors').where('goods_id', '=', targetId).execute();
        await trx.deleteFrom('goods_filters').where('goods_id', '=', targetId).execute();
      } else {
        const created = await trx
          .insertInto('goods')
          .values({ ...fields, search_text: '', deleted: 0, created_at: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        targetId = created.id;
      }
      await trx
        .insertInto('goods_colors')
        .values(
          input.color_arr.map((color, index) => ({
            goods_id: targetId,
            color_id: color.color_id,
            images: JSON.stringify(color.goods_color_img),
            stock: color.stock,
            sort: index,
          })),
        )
        .execute();
      if (filterIds.length > 0) {
        await trx
          .insertInto('goods_filters')
          .values(filterIds.map((filterId) => ({ goods_id: targetId, filter_id: filterId })))
          .execute();
      }
      return targetId;
    });
    await refreshSearchText(ctx.db, goodsId);
    const row = await ctx.db.selectFrom('goods').selectAll().where('id', '=', goodsId).executeTakeFirstOrThrow();
    return ok((await hydrateGoods(ctx.db, [row]))[0]);
  });

  app.post('/api/goods/delete_goods', async (request) => {
    await requireAdmin(ctx, request);
    const input = body(request, z.object({ goods_id: id }));
    // Orders keep their lines, so the frame is only marked deleted.
    const result = await ctx.db
      .updateTable('goods')
      .set({ deleted: 1, on_sale: 0, updated_at: ctx.now() })
      .where('id', '=', input.goods_id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) throw new ApiError(404, 'goods_id: no such glasses');
    return ok({ deleted: true as const });
  });

  app.post('/api/goods/unlist_goods', async (request) => {
    await requireAdmin(ctx, request);
    const input = body(request, z.object({ goods_id: id, unlisted: z.boolean().default(true) }));
    const row = await ctx.db
      .updateTable('goods')
      .set({ on_sale: input.unlisted ? 0 : 1, updated_at: ctx.now() })
      .where('id', '=', input.goods_id)
      .where('deleted', '=', 0)
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new ApiError(404, 'goods_id: no such glasses');
    return ok((await hydrateGoods(ctx.db, [row]))[0]);
  });

  app.post('/api/goods/save_goods_media_files', async (request) => {
    if (!request.isMultipart())
      throw new ApiError(400, 'file: send multipart/form-data with the fields file and save_to');
    const user = await requireUser(ctx, request);
    let saveTo: string | undefined;
    let file: { name: string; buffer: Buffer } | undefined;
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw new ApiError(400, `${part.fieldname}: unexpected file field, use file`);
        file = { name: part.filename, buffer: await part.toBuffer() };
      } else if (part.fieldname === 'save_to') {
        saveTo = String(part.value);
      }
    }
    if (!saveTo) throw new ApiError(400, 'save_to: is required');
    if (!/^[A-Z_]{2,30}$/.test(saveTo))
      throw new ApiError(400, 'save_to: must be MYPRESCRIPTION, GOODS, ARTICLE or AVATAR');
    if (!file) throw new ApiError(400, 'file: is required');
    const forAnyUser = saveTo === 'MYPRESCRIPTION' || saveTo === 'AVATAR';
    if (!forAnyUser && user.is_admin !== 1) throw new ApiError(403, MSG.adminOnly);
    // Prescription photos are private: each user's in a folder of their own, answered as a signed, expiring URL.
    const folder = saveTo === 'MYPRESCRIPTION' ? prescriptionFolder(user.id) : saveTo.toLowerCase();
    const allowed = forAnyUser ? IMAGE_EXTENSIONS : undefined;
    try {
      const stored = await storeUpload(ctx.config.uploadDir, folder, file.name, file.buffer, allowed);
      return ok({ ...stored, url: uploadUrlReader(ctx.config, ctx.now)(stored.url) });
    } catch (error) {
      if (error instanceof UploadRejected) throw new ApiError(400, error.message);
      throw error;
    }
  });
}

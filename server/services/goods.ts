import { type SelectQueryBuilder, sql } from 'kysely';
import type { Goods, GoodsCard, GoodsCardColor, GoodsSort, Page } from '../../types/api';
import type { ParsedRequestOf } from '../../types/contract';
import { type JsonText, serializedAnswer } from '../api/route';
import type { AppContext } from '../context';
import type { Database, GoodsTable } from '../db/schema';
import { ApiError, countRows, fromCents, pageRows, toCents } from '../http';
import { containsText, finalPriceCents, hydrateGoods, refreshSearchText, searchWords } from './catalog';
import { ListingCache, type ListingIds } from './listing-cache';

type SearchInput = ParsedRequestOf<'POST /api/goods/search_page'>;

type GoodsQuery = SelectQueryBuilder<Database, 'goods', object>;

/** Each sort's column and direction; ties go to the newest id. */
const ORDERS = {
  newest: ['created_at', 'desc'],
  price_asc: ['final_price_cents', 'asc'],
  price_desc: ['final_price_cents', 'desc'],
  discount: ['discount', 'asc'],
} as const satisfies Record<GoodsSort, [keyof GoodsTable, 'asc' | 'desc']>;

function orderGoods(query: GoodsQuery, order: GoodsSort): GoodsQuery {
  const [column, direction] = ORDERS[order];
  return query.orderBy(`goods.${column}`, direction).orderBy('goods.id', 'desc');
}

/** One page of `base` in the given order, as ids, with the total: `count(*)` of `base` unless the caller knows it. */
async function pageIds(
  base: GoodsQuery,
  order: GoodsSort,
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

/**
 * The goods of `ids` in that order as a list shows them (picture, name, prices, colour dots and stock): what a list
 * card needs, about 340 bytes a frame instead of the 1.5 KB of the whole frame (filters with their pictures, every
 * colour's pictures, the description), which get_goods_by_id answers.
 */
async function cardsOf(ctx: AppContext, ids: number[]): Promise<GoodsCard[]> {
  if (ids.length === 0) return [];
  const [found, colors] = await Promise.all([
    ctx.db
      .selectFrom('goods')
      .select(['id', 'name', 'img', 'shop_price_cents', 'discount', 'final_price_cents', 'on_sale'])
      .where('id', 'in', ids)
      .execute(),
    ctx.db
      .selectFrom('goods_colors')
      .innerJoin('colors', 'colors.id', 'goods_colors.color_id')
      .select(['goods_colors.goods_id', 'goods_colors.color_id', 'goods_colors.stock'])
      .select(['colors.name', 'colors.value'])
      .where('goods_colors.goods_id', 'in', ids)
      .orderBy('goods_colors.sort')
      .orderBy('goods_colors.id')
      .execute(),
  ]);
  const colorsByGoods = new Map<number, GoodsCardColor[]>();
  for (const color of colors) {
    const list = colorsByGoods.get(color.goods_id) ?? [];
    list.push({
      color_id: color.color_id,
      color_name: color.name,
      color_value: color.value,
      stock: color.stock,
    });
    colorsByGoods.set(color.goods_id, list);
  }
  const byId = new Map(found.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    return [
      {
        goods_id: row.id,
        goods_name: row.name,
        goods_img: row.img,
        shop_price: fromCents(row.shop_price_cents),
        discount: row.discount,
        final_price: fromCents(row.final_price_cents),
        color_arr: colorsByGoods.get(row.id) ?? [],
        is_on_sale: row.on_sale === 1,
      },
    ];
  });
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
  input: SearchInput,
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
async function searchPostgres(ctx: AppContext, tsquery: string, input: SearchInput): Promise<ListingIds> {
  const [column, direction] = ORDERS[input.sort];
  const { rows } = await sql<{ total: string; ids: number[] }>`with matches as materialized (
      select id, ${sql.ref(column)} as sort_key from goods
      where deleted = 0 and on_sale = 1 and search_vector @@ to_tsquery('simple', ${tsquery}))
    select (select count(*) from matches) as total,
      array(select id from matches order by sort_key ${sql.raw(direction)}, id desc
        limit ${input.page_size} offset ${(input.page - 1) * input.page_size}) as ids`.execute(ctx.db);
  return { ids: rows[0].ids, total: Number(rows[0].total) };
}

/** The listings (get_goods_page, search_page) of one app: their totals and page ids kept under the catalogue version. */
export class GoodsListings {
  /** Totals and page ids: they change with the catalogue, not with stock. */
  private readonly cache = new ListingCache();
  /**
   * Whole answers as the bytes sent, under the catalogue and stock versions: a repeated listing of an unchanged
   * catalogue costs one primary-key read and no serialization.
   */
  private readonly answers = new ListingCache(500, true);

  constructor(private readonly ctx: AppContext) {}

  private listed(includeUnlisted: boolean): GoodsQuery {
    let query = this.ctx.db.selectFrom('goods').where('goods.deleted', '=', 0) as GoodsQuery;
    if (!includeUnlisted) query = query.where('goods.on_sale', '=', 1);
    return query;
  }

  /** get_goods_page: OR within one filter type, AND across types; colours and category narrow further. */
  async page(input: ParsedRequestOf<'POST /api/goods/get_goods_page'>): Promise<JsonText> {
    const key = JSON.stringify([
      input.include_unlisted,
      input.category_id ?? null,
      [...new Set(input.color_ids ?? [])].sort((a, b) => a - b),
      [...new Set(input.filter_ids ?? [])].sort((a, b) => a - b),
      input.sort,
      input.page,
      input.page_size,
    ]);
    const answers = await this.answers.view(this.ctx.db);
    return answers.remember(`page:${key}`, async () =>
      serializedAnswer('POST /api/goods/get_goods_page', await this.pageOf(input)),
    );
  }

  private async pageOf(input: ParsedRequestOf<'POST /api/goods/get_goods_page'>): Promise<Page<GoodsCard>> {
    const ctx = this.ctx;
    let query = this.listed(input.include_unlisted);
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
    const view = await this.cache.view(ctx.db);
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
    return { list: await cardsOf(ctx, ids), total, page: input.page, page_size: input.page_size };
  }

  /** search_page: frames having every word (as a prefix) of the keyword, on SQLite's FTS5 or PostgreSQL's tsvector. */
  async search(input: SearchInput): Promise<JsonText> {
    const words = searchWords(input.keyword);
    const answers = await this.answers.view(this.ctx.db);
    return answers.remember(`search:${JSON.stringify([words, input.sort, input.page, input.page_size])}`, async () =>
      serializedAnswer('POST /api/goods/search_page', await this.searchOf(words, input)),
    );
  }

  private async searchOf(words: string[], input: SearchInput): Promise<Page<GoodsCard>> {
    const ctx = this.ctx;
    if (words.length === 0) return { list: [], total: 0, page: input.page, page_size: input.page_size };
    const view = await this.cache.view(ctx.db);
    const { ids, total } = await view.remember(
      `search:${JSON.stringify(words)}:${input.sort}:${input.page}:${input.page_size}`,
      () =>
        ctx.dialect === 'postgres'
          ? searchPostgres(ctx, words.map((word) => `${word}:*`).join(' & '), input)
          : searchSqlite(ctx, this.listed(false), words.map((word) => `"${word}"*`).join(' AND '), input),
    );
    return { list: await cardsOf(ctx, ids), total, page: input.page, page_size: input.page_size };
  }
}

/**
 * The admin's list of frames: every frame but the deleted, unlisted ones too, newest first. `q` finds a name's
 * text; a number (`17`, `#17`) also finds the frame of that id.
 */
export async function adminGoodsList(
  ctx: AppContext,
  input: ParsedRequestOf<'POST /api/admin/goods/list'>,
): Promise<Page<GoodsCard>> {
  let query = ctx.db.selectFrom('goods').where('goods.deleted', '=', 0) as GoodsQuery;
  const q = input.q ?? '';
  if (q) {
    const asId = /^#?(\d{1,9})$/.exec(q);
    query = query.where((eb) =>
      asId
        ? eb.or([containsText('goods.name', q), eb('goods.id', '=', Number(asId[1]))])
        : containsText('goods.name', q),
    );
  }
  const { ids, total } = await pageIds(query, 'newest', input.page, input.page_size);
  return { list: await cardsOf(ctx, ids), total, page: input.page, page_size: input.page_size };
}

/** get_goods_by_id: a frame on sale; an unlisted one only for staff (`canSeeUnlisted` asks only then). */
export async function goodsById(
  ctx: AppContext,
  goodsId: number,
  canSeeUnlisted: () => Promise<boolean>,
): Promise<Goods> {
  const row = await ctx.db
    .selectFrom('goods')
    .selectAll()
    .where('id', '=', goodsId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!row) throw new ApiError(404, 'goods_id: no such glasses');
  if (row.on_sale !== 1 && !(await canSeeUnlisted())) {
    throw new ApiError(404, 'goods_id: these glasses are no longer sold');
  }
  const [goods] = await hydrateGoods(ctx.db, [row]);
  return goods;
}

/** save_goods (staff): creates a frame, or replaces one (goods_id) with its colours and filters. */
export async function saveGoods(ctx: AppContext, input: ParsedRequestOf<'POST /api/goods/save_goods'>): Promise<Goods> {
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
  return (await hydrateGoods(ctx.db, [row]))[0];
}

/** delete_goods (staff): orders keep their lines, so the frame is only marked deleted. */
export async function deleteGoods(ctx: AppContext, goodsId: number): Promise<void> {
  const result = await ctx.db
    .updateTable('goods')
    .set({ deleted: 1, on_sale: 0, updated_at: ctx.now() })
    .where('id', '=', goodsId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new ApiError(404, 'goods_id: no such glasses');
}

/** unlist_goods (staff): off sale (kept for orders), or back on sale. */
export async function unlistGoods(ctx: AppContext, goodsId: number, unlisted: boolean): Promise<Goods> {
  const row = await ctx.db
    .updateTable('goods')
    .set({ on_sale: unlisted ? 0 : 1, updated_at: ctx.now() })
    .where('id', '=', goodsId)
    .where('deleted', '=', 0)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw new ApiError(404, 'goods_id: no such glasses');
  return (await hydrateGoods(ctx.db, [row]))[0];
}

import { type Kysely, type RawBuilder, type Selectable, type SqlBool, sql } from 'kysely';
import type { Filter, FilterType, Goods, GoodsColor } from '../../types/api';
import type { Database, GoodsTable } from '../db/schema';
import { fromCents, jsonParse } from '../http';

export const finalPriceCents = (shopPriceCents: number, discount: number) =>
  Math.round((shopPriceCents * discount) / 100);

/** Goods rows with their colours and filters, in the order given. */
export async function hydrateGoods(db: Kysely<Database>, rows: Selectable<GoodsTable>[]): Promise<Goods[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [colors, filters] = await Promise.all([
    db
      .selectFrom('goods_colors')
      .innerJoin('colors', 'colors.id', 'goods_colors.color_id')
      .select([
        'goods_colors.goods_id',
        'goods_colors.color_id',
        'goods_colors.images',
        'goods_colors.stock',
        'colors.name',
        'colors.img',
        'colors.value',
      ])
      .where('goods_colors.goods_id', 'in', ids)
      .orderBy('goods_colors.sort')
      .orderBy('goods_colors.id')
      .execute(),
    db
      .selectFrom('goods_filters')
      .innerJoin('filters', 'filters.id', 'goods_filters.filter_id')
      .select(['goods_filters.goods_id', 'filters.id', 'filters.name', 'filters.img', 'filters.type'])
      .where('goods_filters.goods_id', 'in', ids)
      .orderBy('filters.sort')
      .orderBy('filters.id')
      .execute(),
  ]);
  const colorsByGoods = new Map<number, GoodsColor[]>();
  for (const color of colors) {
    const list = colorsByGoods.get(color.goods_id) ?? [];
    list.push({
      color_id: color.color_id,
      color_name: color.name,
      color_img: color.img,
      color_value: color.value,
      goods_color_img: jsonParse<string[]>(color.images, []),
      stock: color.stock,
    });
    colorsByGoods.set(color.goods_id, list);
  }
  const filtersByGoods = new Map<number, Filter[]>();
  for (const filter of filters) {
    const list = filtersByGoods.get(filter.goods_id) ?? [];
    list.push({
      filter_id: filter.id,
      filter_name: filter.name,
      filter_img: filter.img,
      type: filter.type as FilterType,
    });
    filtersByGoods.set(filter.goods_id, list);
  }
  return rows.map((row) => ({
    goods_id: row.id,
    goods_name: row.name,
    goods_img: row.img,
    goods_desc: row.description,
    shop_price: fromCents(row.shop_price_cents),
    discount: row.discount,
    final_price: fromCents(row.final_price_cents),
    shown_discount: 100 - row.discount,
    category_id: row.category_id,
    filters: filtersByGoods.get(row.id) ?? [],
    color_arr: colorsByGoods.get(row.id) ?? [],
    lens_width: row.lens_width,
    bridge_width: row.bridge_width,
    temple_length: row.temple_length,
    is_on_sale: row.on_sale === 1,
    created_at: row.created_at,
  }));
}

/** The lower-cased text `search_page` matches: name, description, filter and colour names. */
export async function refreshSearchText(db: Kysely<Database>, goodsId: number): Promise<void> {
  const goods = await db
    .selectFrom('goods')
    .select(['name', 'description'])
    .where('id', '=', goodsId)
    .executeTakeFirst();
  if (!goods) return;
  const filters = await db
    .selectFrom('goods_filters')
    .innerJoin('filters', 'filters.id', 'goods_filters.filter_id')
    .select('filters.name')
    .where('goods_filters.goods_id', '=', goodsId)
    .execute();
  const colors = await db
    .selectFrom('goods_colors')
    .innerJoin('colors', 'colors.id', 'goods_colors.color_id')
    .select('colors.name')
    .where('goods_colors.goods_id', '=', goodsId)
    .execute();
  const text = [goods.name, goods.description, ...filters.map((f) => f.name), ...colors.map((c) => c.name)]
    .join(' ')
    .toLowerCase();
  await db.updateTable('goods').set({ search_text: text }).where('id', '=', goodsId).execute();
}

/** The keyword's words (letters and digits only, so they are safe inside FTS5 and tsquery syntax), at most 5. */
export function searchWords(keyword: string): string[] {
  return (keyword.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 5);
}

/** A LIKE pattern's literal text: `%`, `_` and the escape character escaped with a backslash. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/**
 * `column` contains `text`, in any case (ASCII), on SQLite and PostgreSQL alike: both lowered (PostgreSQL's LIKE is
 * case-sensitive), the text's `%`, `_` and backslash taken literally (SQLite has no LIKE escape character unless one
 * is named, so it is named). The admin lists, the article list's keyword and the social searches use it.
 */
export function containsText(column: string, text: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${`%${escapeLike(text.toLowerCase())}%`} escape '\\'`;
}

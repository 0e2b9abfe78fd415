import type { HomeBanner, HomePage, HomeSection } from '../../types/api';
import type { AppContext } from '../context';
import { ApiError, jsonParse } from '../http';
import { toSummaries } from './articles';
import { hydrateGoods } from './catalog';

const SECTION_PREVIEW = 6;
const SECTION_DETAIL = 60;

/** One home section: the newest frames on sale of a Tag filter. */
async function section(
  ctx: AppContext,
  tag: { id: number; name: string; img: string },
  limit: number,
): Promise<HomeSection> {
  const rows = await ctx.db
    .selectFrom('goods')
    .selectAll('goods')
    .where('goods.deleted', '=', 0)
    .where('goods.on_sale', '=', 1)
    .where('goods.id', 'in', (eb) =>
      eb.selectFrom('goods_filters').select('goods_filters.goods_id').where('goods_filters.filter_id', '=', tag.id),
    )
    .orderBy('goods.created_at', 'desc')
    .orderBy('goods.id', 'desc')
    .limit(limit)
    .execute();
  return { id: tag.id, title: tag.name, cover: tag.img, goods: await hydrateGoods(ctx.db, rows) };
}

/** The home page: banners, categories, a section per Tag filter and the newest articles. */
export async function homePage(ctx: AppContext): Promise<HomePage> {
  const [banners, categories, tags, articles] = await Promise.all([
    ctx.db.selectFrom('settings').select('value').where('key', '=', 'home.banners').executeTakeFirst(),
    ctx.db.selectFrom('categories').selectAll().orderBy('sort').orderBy('id').execute(),
    ctx.db
      .selectFrom('filters')
      .select(['id', 'name', 'img'])
      .where('type', '=', 'Tag')
      .orderBy('sort')
      .orderBy('id')
      .execute(),
    ctx.db
      .selectFrom('articles')
      .select(['id', 'title', 'cover', 'imgs', 'category_id', 'author_id', 'created_at', 'updated_at'])
      .orderBy('created_at', 'desc')
      .limit(4)
      .execute(),
  ]);
  return {
    banners: jsonParse<HomeBanner[]>(banners?.value, []),
    categories: categories.map((row) => ({ category_id: row.id, category_name: row.name, category_img: row.img })),
    sections: await Promise.all(tags.map((tag) => section(ctx, tag, SECTION_PREVIEW))),
    articles: await toSummaries(ctx.db, articles),
  };
}

/** One section with more of its frames. */
export async function homeSection(ctx: AppContext, tagId: number): Promise<HomeSection> {
  const tag = await ctx.db
    .selectFrom('filters')
    .select(['id', 'name', 'img'])
    .where('id', '=', tagId)
    .where('type', '=', 'Tag')
    .executeTakeFirst();
  if (!tag) throw new ApiError(404, 'id: no such home section');
  return section(ctx, tag, SECTION_DETAIL);
}

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { HomeBanner, HomeSection } from '../../types/api';
import type { AppContext } from '../context';
import { ApiError, id, jsonParse, ok, query } from '../http';
import { hydrateGoods } from '../services/catalog';
import { toSummaries } from './article';

const SECTION_PREVIEW = 6;
const SECTION_DETAIL = 60;

export function registerHomeRoutes(app: FastifyInstance, ctx: AppContext): void {
  async function section(tag: { id: number; name: string; img: string }, limit: number): Promise<HomeSection> {
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

  app.get('/api/index/shop_mainpage', async () => {
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
    return ok({
      banners: jsonParse<HomeBanner[]>(banners?.value, []),
      categories: categories.map((row) => ({ category_id: row.id, category_name: row.name, category_img: row.img })),
      sections: await Promise.all(tags.map((tag) => section(tag, SECTION_PREVIEW))),
      articles: await toSummaries(ctx.db, articles),
    });
  });

  app.get('/api/index/shop_mainpage_detail', async (request) => {
    const input = query(request, z.object({ id }));
    const tag = await ctx.db
      .selectFrom('filters')
      .select(['id', 'name', 'img'])
      .where('id', '=', input.id)
      .where('type', '=', 'Tag')
      .executeTakeFirst();
    if (!tag) throw new ApiError(404, 'id: no such home section');
    return ok(await section(tag, SECTION_DETAIL));
  });
}

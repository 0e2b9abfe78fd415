import type { FastifyInstance } from 'fastify';
import { optionalUser, requireAdmin } from '../../auth';
import type { AppContext } from '../../context';
import { GoodsListings, goodsById } from '../../services/goods';
import { routeGroup } from '../route';

/**
 * The frames as shoppers browse them: one frame, a filtered page, a search. Public: the token is read only where
 * the request asks for what is staff's (an unlisted frame, include_unlisted).
 */
export function registerGoodsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const listings = new GoodsListings(ctx);
  routeGroup(app, ctx, { access: 'public', tag: 'catalog' }, (group) => {
    group.route('POST /api/goods/get_goods_by_id', ({ input, request }) =>
      goodsById(ctx, input.goods_id, async () => (await optionalUser(ctx, request))?.is_admin === 1),
    );
    group.route('POST /api/goods/get_goods_page', async ({ input, request }) => {
      if (input.include_unlisted) await requireAdmin(ctx, request);
      return listings.page(input);
    });
    group.route('POST /api/goods/search_page', ({ input }) => listings.search(input));
  });
}

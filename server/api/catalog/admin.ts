import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { adminGoodsList, deleteGoods, saveGoods, unlistGoods } from '../../services/goods';
import { routeGroup } from '../route';

/** Staff's catalogue edits. */
export function registerGoodsAdminRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'admin', tag: 'catalog' }, (group) => {
    group.route('POST /api/goods/save_goods', ({ input }) => saveGoods(ctx, input));
    group.route('POST /api/goods/delete_goods', async ({ input }) => {
      await deleteGoods(ctx, input.goods_id);
      return { deleted: true as const };
    });
    group.route('POST /api/goods/unlist_goods', ({ input }) => unlistGoods(ctx, input.goods_id, input.unlisted));
    group.route('POST /api/admin/goods/list', ({ input }) => adminGoodsList(ctx, input));
  });
}

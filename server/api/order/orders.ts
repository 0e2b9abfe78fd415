import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { ApiError } from '../../http';
import { NO_SUCH_ORDER, orderHistory } from '../../services/order-lifecycle';
import { deleteOrder, listOrders, submitOrder, updateOrderStatus } from '../../services/orders';
import { orderTracking } from '../../services/tracking';
import { routeGroup } from '../route';

/** Orders: the shopper's own, and the staff's status changes. */
export function registerOrdersRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'user', tag: 'order' }, (group) => {
    group.route('POST /api/order/submit_order', ({ user, input }) => submitOrder(ctx, user.id, input));
    group.route('POST /api/order/get_user_order', ({ user, input }) => listOrders(ctx, user.id, input));
    group.route('POST /api/order/get_order_history', async ({ user, input }) => {
      const order = await ctx.db
        .selectFrom('orders')
        .select('id')
        .where('id', '=', input.order_id)
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      if (!order) throw new ApiError(404, NO_SUCH_ORDER);
      return orderHistory(ctx, order.id, false);
    });
    group.route('POST /api/order/get_order_tracking', ({ user, input }) => orderTracking(ctx, user, input.order_id));
    group.route('POST /api/order/delete_order', async ({ user, input }) => {
      await deleteOrder(ctx, user.id, input.order_id);
      return { deleted: true as const };
    });
  });
  routeGroup(app, ctx, { access: 'admin', tag: 'order' }, (group) => {
    group.route('POST /api/order/update_order_status', ({ user, input }) => updateOrderStatus(ctx, user.id, input));
  });
}

import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { deleteOrder, listOrders, submitOrder, updateOrderStatus } from '../../services/orders';
import { routeGroup } from '../route';

/** Orders: the shopper's own, and the staff's status changes. */
export function registerOrdersRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'user', tag: 'order' }, (group) => {
    group.route('POST /api/order/submit_order', ({ user, input }) => submitOrder(ctx, user.id, input));
    group.route('POST /api/order/get_user_order', ({ user, input }) => listOrders(ctx, user.id, input));
    group.route('POST /api/order/delete_order', async ({ user, input }) => {
      await deleteOrder(ctx, user.id, input.order_id);
      return { deleted: true as const };
    });
  });
  routeGroup(app, ctx, { access: 'admin', tag: 'order' }, (group) => {
    group.route('POST /api/order/update_order_status', ({ input }) => updateOrderStatus(ctx, input));
  });
}

import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { adminOrderDetail, adminOrderList } from '../../services/admin-orders';
import { type Actor, cancelOrder, deliverOrder, refundOrder, shipOrder } from '../../services/order-lifecycle';
import { routeGroup } from '../route';

/** The owner's order screens: list, detail and each step, made by the order lifecycle with the staff member. */
export function registerAdminOrderRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'admin', tag: 'order' }, (group) => {
    const staff = (userId: number): Actor => ({ kind: 'staff', userId });
    group.route('POST /api/admin/order/list', ({ input }) => adminOrderList(ctx, input));
    group.route('POST /api/admin/order/detail', ({ input }) => adminOrderDetail(ctx, input.order_id));
    group.route('POST /api/admin/order/ship', async ({ user, input }) => {
      await shipOrder(ctx, staff(user.id), input.order_id, input.carrier, input.tracking_no);
      return adminOrderDetail(ctx, input.order_id);
    });
    group.route('POST /api/admin/order/deliver', async ({ user, input }) => {
      await deliverOrder(ctx, staff(user.id), input.order_id, input.note ?? '');
      return adminOrderDetail(ctx, input.order_id);
    });
    group.route('POST /api/admin/order/cancel', async ({ user, input }) => {
      await cancelOrder(ctx, staff(user.id), input.order_id, input.note ?? '');
      return adminOrderDetail(ctx, input.order_id);
    });
    group.route('POST /api/admin/order/refund', async ({ user, input }) => {
      const amount = input.amount === undefined ? undefined : Math.round(input.amount * 100);
      await refundOrder(ctx, staff(user.id), input.order_id, amount, input.client_key, input.note ?? '');
      return adminOrderDetail(ctx, input.order_id);
    });
  });
}

import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { capturePaypalOrder, createPaypalOrder } from '../../services/checkout';
import { routeGroup } from '../route';

/** PayPal orders (Orders v2): created by the server for the buttons, captured by the server once the buyer approved. */
export function registerPaypalRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'user', tag: 'payment' }, (group) => {
    group.route('POST /api/paypal/create_order', ({ user, input }) => createPaypalOrder(ctx, user.id, input.order_id));
    group.route('POST /api/paypal/capture_order', ({ user, input }) => capturePaypalOrder(ctx, user.id, input));
  });
}

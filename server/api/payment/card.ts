import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { confirmCardPayment, startCardPayment } from '../../services/checkout';
import { routeGroup } from '../route';

/** Card payments through Stripe: a PaymentIntent for the Payment Element, then the outcome read back from Stripe. */
export function registerCardRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'user', tag: 'payment' }, (group) => {
    group.route('POST /api/payment/get_secret_for_stripe', ({ user, input }) =>
      startCardPayment(ctx, user.id, input.order_id),
    );
    group.route('POST /api/payment/confirm_stripe', ({ user, input }) =>
      confirmCardPayment(ctx, user.id, input.order_id),
    );
  });
}

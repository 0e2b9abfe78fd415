import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { braintreeCheckout, braintreeToken } from '../../services/checkout';
import { routeGroup } from '../route';

/** Braintree: a client token for the drop-in, then a sale against the nonce the drop-in produced. */
export function registerBraintreeRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'user', tag: 'payment' }, (group) => {
    group.route('GET /api/payment/get_paypal_braintree_accesstoken', () => braintreeToken(ctx));
    group.route('POST /api/payment/paypal_braintree_checkout', ({ user, input }) =>
      braintreeCheckout(ctx, user.id, input),
    );
  });
}

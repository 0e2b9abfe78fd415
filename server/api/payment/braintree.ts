import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { braintreeCheckout, braintreeToken } from '../../services/checkout';
import { routeGroup } from '../route';

/** Braintree (PayPal through Braintree's drop-in): a client token, then a checkout with the drop-in's nonce. */
export function registerBraintreeRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'user', tag: 'payment' }, (group) => {
    group.route('GET /api/payment/get_paypal_braintree_accesstoken', () => braintreeToken(ctx));
    group.route('POST /api/payment/paypal_braintree_checkout', ({ user, input }) =>
      braintreeCheckout(ctx, user.id, input),
    );
  });
}

import type { FastifyInstance, preValidationHookHandler } from 'fastify';
import type { AppContext } from '../../context';
import { ApiError } from '../../http';
import {
  CARD_SANDBOX_OFF,
  PAYPAL_SANDBOX_OFF,
  approveSandboxPaypal,
  confirmSandboxCard,
} from '../../services/checkout';
import { routeGroup } from '../route';

/**
 * What the offline providers stand in for: the card confirmation Stripe.js makes and the buyer's approval at
 * PayPal. Public, as the providers' own pages are; each is a 404 once its real provider is configured.
 */
export function registerSandboxRoutes(app: FastifyInstance, ctx: AppContext): void {
  const whenSandbox =
    (mode: () => string, message: string): preValidationHookHandler =>
    async () => {
      if (mode() !== 'sandbox') throw new ApiError(404, message);
    };
  routeGroup(app, ctx, { access: 'public', tag: 'payment' }, (group) => {
    group.route('POST /api/payment/sandbox/confirm_card', ({ input }) => confirmSandboxCard(ctx, input), {
      preValidation: [whenSandbox(() => ctx.payments.card.mode, CARD_SANDBOX_OFF)],
    });
    group.route('POST /api/paypal/sandbox/approve', ({ input }) => approveSandboxPaypal(ctx, input.paypal_order_id), {
      preValidation: [whenSandbox(() => ctx.payments.paypal.mode, PAYPAL_SANDBOX_OFF)],
    });
  });
}

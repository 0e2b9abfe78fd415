import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { PaymentProvider } from '../../types/api';
import { type UserRow, requireUser } from '../auth';
import type { AppContext } from '../context';
import { ApiError, body, fromCents, id, ok } from '../http';
import { loadOrder } from '../services/orders';
import { type ProviderOutcome, luhnValid, sandboxConfirmCard, sandboxPaypalApprove } from '../services/payments';

export const CARD_DECLINED = 'Your card was declined.';
export const CARD_INVALID = 'card_number: the card number is invalid';
export const NOT_APPROVED = 'paypal_order_id: the buyer has not approved the payment yet';
const CURRENCY = 'USD';

export function registerPaymentRoutes(app: FastifyInstance, ctx: AppContext): void {
  async function payableOrder(user: UserRow, orderId: number) {
    const order = await ctx.db
      .selectFrom('orders')
      .selectAll()
      .where('id', '=', orderId)
      .where('user_id', '=', user.id)
      .where('deleted', '=', 0)
      .executeTakeFirst();
    if (!order) throw new ApiError(404, 'order_id: no such order');
    if (order.status !== 'created')
      throw new ApiError(409, `order_id: the order is ${order.status}, not awaiting payment`);
    return order;
  }

  async function recordPayment(
    orderId: number,
    provider: PaymentProvider,
    reference: string,
    amountCents: number,
    status: ProviderOutcome,
  ) {
    const now = ctx.now();
    await ctx.db
      .insertInto('payments')
      .values({
        order_id: orderId,
        provider,
        reference,
        status,
        amount_cents: amountCents,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }

  /** The provider confirmed: the payment row and the order move together, once. */
  async function settle(orderId: number, reference: string, outcome: ProviderOutcome): Promise<void> {
    const now = ctx.now();
    await ctx.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('payments')
        .set({ status: outcome, updated_at: now })
        .where('reference', '=', reference)
        .execute();
      if (outcome === 'succeeded') {
        await trx
          .updateTable('orders')
          .set({ status: 'paid', paid_at: now, updated_at: now })
          .where('id', '=', orderId)
          .where('status', '=', 'created')
          .execute();
      }
    });
  }

  app.post('/api/payment/get_secret_for_stripe', async (request) => {
    const user = await requireUser(ctx, request);
    const input = body(request, z.object({ order_id: id }));
    const order = await payableOrder(user, input.order_id);
    const intent = await ctx.payments.card.createIntent(order.total_cents, CURRENCY, order.id);
    await recordPayment(order.id, 'stripe', intent.id, order.total_cents, 'pending');
    return ok({
      client_secret: intent.clientSecret,
      payment_intent_id: intent.id,
      mode: ctx.payments.card.mode,
      publishable_key: ctx.config.stripePublishableKey,
      amount: fromCents(order.total_cents),
      currency: CURRENCY,
    });
  });

  app.post('/api/payment/sandbox/confirm_card', async (request) => {
    if (ctx.payments.card.mode !== 'sandbox')
      throw new ApiError(404, 'The card sandbox is off: confirm with Stripe.js');
    const input = body(
      request,
      z.object({
        client_secret: z.string({ required_error: 'is required' }).min(1, 'is required'),
        card_number: z.string({ required_error: 'is required' }).transform((value) => value.replace(/[\s-]/g, '')),
        exp_month: z
          .number({ required_error: 'is required' })
          .int()
          .min(1, 'must be from 1 to 12')
          .max(12, 'must be from 1 to 12'),
        exp_year: z.number({ required_error: 'is required' }).int().min(2000).max(2100),
        cvc: z.string({ required_error: 'is required' }).regex(/^\d{3,4}$/, 'must be 3 or 4 digits'),
      }),
    );
    if (!/^\d+$/.test(input.card_number) || !luhnValid(input.card_number)) throw new ApiError(400, CARD_INVALID);
    const today = new Date(ctx.now());
    if (
      input.exp_year < today.getUTCFullYear() ||
      (input.exp_year === today.getUTCFullYear() && input.exp_month < today.getUTCMonth() + 1)
    ) {
      throw new ApiError(400, 'exp_year: the card has expired');
    }
    const outcome = await sandboxConfirmCard(ctx.db, input.client_secret, input.card_number);
    if (outcome === 'unknown_intent') throw new ApiError(404, 'client_secret: no such payment');
    if (outcome === 'already_succeeded') throw new ApiError(409, 'client_secret: this payment has already succeeded');
    if (outcome === 'declined') throw new ApiError(400, `card_number: ${CARD_DECLINED}`);
    return ok({ status: outcome });
  });

  app.post('/api/payment/confirm_stripe', async (request) => {
    const user = await requireUser(ctx, request);
    const input = body(request, z.object({ order_id: id }));
    const order = await payableOrder(user, input.order_id);
    const payment = await ctx.db
      .selectFrom('payments')
      .selectAll()
      .where('order_id', '=', order.id)
      .where('provider', '=', 'stripe')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    if (!payment) throw new ApiError(409, 'order_id: no card payment was started for this order');
    const outcome = await ctx.payments.card.status(payment.reference);
    if (outcome === 'pending') throw new ApiError(409, 'order_id: the card payment is not confirmed yet');
    await settle(order.id, payment.reference, outcome);
    if (outcome === 'declined') throw new ApiError(400, `order_id: ${CARD_DECLINED}`);
    return ok(await loadOrder(ctx.db, order.id));
  });

  app.post('/api/paypal/create_order', async (request) => {
    const user = await requireUser(ctx, request);
    const input = body(request, z.object({ order_id: id }));
    const order = await payableOrder(user, input.order_id);
    const created = await ctx.payments.paypal.createOrder(order.total_cents, CURRENCY, order.order_sn);
    await recordPayment(order.id, 'paypal', created.id, order.total_cents, 'pending');
    return ok({ paypal_order_id: created.id, approve_url: created.approveUrl, mode: ctx.payments.paypal.mode });
  });

  app.post('/api/paypal/sandbox/approve', async (request) => {
    if (ctx.payments.paypal.mode !== 'sandbox') throw new ApiError(404, 'The PayPal sandbox is off: approve at PayPal');
    const input = body(
      request,
      z.object({ paypal_order_id: z.string({ required_error: 'is required' }).min(1, 'is required') }),
    );
    if (!(await sandboxPaypalApprove(ctx.db, input.paypal_order_id)))
      throw new ApiError(404, 'paypal_order_id: no such PayPal order awaiting approval');
    return ok({ approved: true as const });
  });

  app.post('/api/paypal/capture_order', async (request) => {
    const user = await requireUser(ctx, request);
    const input = body(
      request,
      z.object({ order_id: id, paypal_order_id: z.string({ required_error: 'is required' }).min(1, 'is required') }),
    );
    const order = await payableOrder(user, input.order_id);
    const payment = await ctx.db
      .selectFrom('payments')
      .select('reference')
      .where('order_id', '=', order.id)
      .where('provider', '=', 'paypal')
      .where('reference', '=', input.paypal_order_id)
      .executeTakeFirst();
    if (!payment) throw new ApiError(404, 'paypal_order_id: not a PayPal order of this order');
    const outcome = await ctx.payments.paypal.capture(payment.reference);
    if (outcome === 'pending') throw new ApiError(409, NOT_APPROVED);
    await settle(order.id, payment.reference, outcome);
    if (outcome === 'declined') throw new ApiError(400, 'paypal_order_id: PayPal declined the payment');
    return ok(await loadOrder(ctx.db, order.id));
  });

  app.get('/api/payment/get_paypal_braintree_accesstoken', async (request) => {
    await requireUser(ctx, request);
    return ok({ client_token: await ctx.payments.braintree.clientToken(), mode: ctx.payments.braintree.mode });
  });

  app.post('/api/payment/paypal_braintree_checkout', async (request) => {
    const user = await requireUser(ctx, request);
    const input = body(
      request,
      z.object({
        order_id: id,
        payment_method_nonce: z.string({ required_error: 'is required' }).min(1, 'is required').max(500),
      }),
    );
    const order = await payableOrder(user, input.order_id);
    const charge = await ctx.payments.braintree.charge(input.payment_method_nonce, order.total_cents, order.order_sn);
    const reference = charge.id || `braintree-declined-${order.id}-${ctx.now()}`;
    await recordPayment(order.id, 'braintree', reference, order.total_cents, 'pending');
    await settle(order.id, reference, charge.outcome);
    if (charge.outcome !== 'succeeded') throw new ApiError(400, 'payment_method_nonce: the payment was declined');
    return ok(await loadOrder(ctx.db, order.id));
  });
}

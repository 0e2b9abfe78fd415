/**
 * Paying an order: each provider's flow over the payment providers of the configuration (services/payments.ts).
 * A payment row is written when a payment starts; the provider's confirmation moves it and the order together.
 */
import type { Selectable } from 'kysely';
import type { BraintreeToken, Order, PaymentProvider, PaymentStatus, PaypalOrder, StripeSecret } from '../../types/api';
import type { ParsedRequestOf } from '../../types/contract';
import type { AppContext } from '../context';
import type { OrdersTable } from '../db/schema';
import { ApiError, fromCents } from '../http';
import { loadOrder } from './orders';
import { type ProviderOutcome, luhnValid, sandboxConfirmCard, sandboxPaypalApprove } from './payments';

export const CARD_DECLINED = 'Your card was declined.';
export const CARD_INVALID = 'card_number: the card number is invalid';
export const NOT_APPROVED = 'paypal_order_id: the buyer has not approved the payment yet';
export const CARD_SANDBOX_OFF = 'The card sandbox is off: confirm with Stripe.js';
export const PAYPAL_SANDBOX_OFF = 'The PayPal sandbox is off: approve at PayPal';
const CURRENCY = 'USD';

/** The user's order, if it is awaiting payment (404 when not theirs, 409 when already paid or cancelled). */
async function payableOrder(ctx: AppContext, userId: number, orderId: number): Promise<Selectable<OrdersTable>> {
  const order = await ctx.db
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', orderId)
    .where('user_id', '=', userId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!order) throw new ApiError(404, 'order_id: no such order');
  if (order.status !== 'created')
    throw new ApiError(409, `order_id: the order is ${order.status}, not awaiting payment`);
  return order;
}

async function recordPayment(
  ctx: AppContext,
  orderId: number,
  provider: PaymentProvider,
  reference: string,
  amountCents: number,
): Promise<void> {
  const now = ctx.now();
  await ctx.db
    .insertInto('payments')
    .values({
      order_id: orderId,
      provider,
      reference,
      status: 'pending',
      amount_cents: amountCents,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

/** The provider confirmed: the payment row and the order move together, once. */
async function settle(ctx: AppContext, orderId: number, reference: string, outcome: ProviderOutcome): Promise<void> {
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

/** get_secret_for_stripe: a payment intent for the order's total. */
export async function startCardPayment(ctx: AppContext, userId: number, orderId: number): Promise<StripeSecret> {
  const order = await payableOrder(ctx, userId, orderId);
  const intent = await ctx.payments.card.createIntent(order.total_cents, CURRENCY, order.id);
  await recordPayment(ctx, order.id, 'stripe', intent.id, order.total_cents);
  return {
    client_secret: intent.clientSecret,
    payment_intent_id: intent.id,
    mode: ctx.payments.card.mode,
    publishable_key: ctx.config.stripePublishableKey,
    amount: fromCents(order.total_cents),
    currency: CURRENCY,
  };
}

/** The card sandbox confirms a card as Stripe.js would (its own declines, expiry and Luhn checks). */
export async function confirmSandboxCard(
  ctx: AppContext,
  input: ParsedRequestOf<'POST /api/payment/sandbox/confirm_card'>,
): Promise<{ status: PaymentStatus }> {
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
  return { status: outcome };
}

/** confirm_stripe: the card payment's outcome as the provider has it now. */
export async function confirmCardPayment(ctx: AppContext, userId: number, orderId: number): Promise<Order> {
  const order = await payableOrder(ctx, userId, orderId);
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
  await settle(ctx, order.id, payment.reference, outcome);
  if (outcome === 'declined') throw new ApiError(400, `order_id: ${CARD_DECLINED}`);
  return loadOrder(ctx.db, order.id);
}

export async function createPaypalOrder(ctx: AppContext, userId: number, orderId: number): Promise<PaypalOrder> {
  const order = await payableOrder(ctx, userId, orderId);
  const created = await ctx.payments.paypal.createOrder(order.total_cents, CURRENCY, order.order_sn);
  await recordPayment(ctx, order.id, 'paypal', created.id, order.total_cents);
  return { paypal_order_id: created.id, approve_url: created.approveUrl, mode: ctx.payments.paypal.mode };
}

/** The PayPal sandbox: the buyer approves. */
export async function approveSandboxPaypal(ctx: AppContext, paypalOrderId: string): Promise<{ approved: true }> {
  if (!(await sandboxPaypalApprove(ctx.db, paypalOrderId)))
    throw new ApiError(404, 'paypal_order_id: no such PayPal order awaiting approval');
  return { approved: true };
}

export async function capturePaypalOrder(
  ctx: AppContext,
  userId: number,
  input: ParsedRequestOf<'POST /api/paypal/capture_order'>,
): Promise<Order> {
  const order = await payableOrder(ctx, userId, input.order_id);
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
  await settle(ctx, order.id, payment.reference, outcome);
  if (outcome === 'declined') throw new ApiError(400, 'paypal_order_id: PayPal declined the payment');
  return loadOrder(ctx.db, order.id);
}

export async function braintreeToken(ctx: AppContext): Promise<BraintreeToken> {
  return { client_token: await ctx.payments.braintree.clientToken(), mode: ctx.payments.braintree.mode };
}

export async function braintreeCheckout(
  ctx: AppContext,
  userId: number,
  input: ParsedRequestOf<'POST /api/payment/paypal_braintree_checkout'>,
): Promise<Order> {
  const order = await payableOrder(ctx, userId, input.order_id);
  const charge = await ctx.payments.braintree.charge(input.payment_method_nonce, order.total_cents, order.order_sn);
  const reference = charge.id || `braintree-declined-${order.id}-${ctx.now()}`;
  await recordPayment(ctx, order.id, 'braintree', reference, order.total_cents);
  await settle(ctx, order.id, reference, charge.outcome);
  if (charge.outcome !== 'succeeded') throw new ApiError(400, 'payment_method_nonce: the payment was declined');
  return loadOrder(ctx.db, order.id);
}

/**
 * Paying an order: each provider's flow over the payment providers of the configuration (services/payments). The
 * server creates the payment with the provider for the order's own total and reads the outcome back from the
 * provider; the shopper's browser only carries the provider's SDK in between, and what it says is never taken for
 * payment. Every outcome goes through payments/ledger.ts, where the order becomes paid once.
 */
import type { Selectable } from 'kysely';
import type { BraintreeToken, Order, PaymentMethods, PaypalOrder, StripeSecret, WechatPrepay } from '../../types/api';
import { PAYMENT_MESSAGES } from '../../types/constants';
import type { ParsedRequestOf } from '../../types/contract';
import type { AppContext } from '../context';
import type { OrdersTable } from '../db/schema';
import { ApiError, fromCents } from '../http';
import { loadOrder } from './orders';
import type { BraintreeProvider, PaypalProvider, StripeProvider } from './payments';
import { braintreeView } from './payments/braintree';
import { ORDER_CURRENCY, type ProviderView, applyProviderView } from './payments/ledger';
import { type PaypalAnswer, paypalIssue, paypalView } from './payments/paypal';
import { type StripeIntent, intentView } from './payments/stripe';
import { wechatView } from './payments/wechat';
import { codeToSession } from './wechat-login';

export const NOT_CONFIGURED = {
  card: 'Card payments are not configured on this server',
  paypal: 'PayPal is not configured on this server',
  braintree: 'Braintree is not configured on this server',
  wechat: 'WeChat Pay is not configured on this server',
} as const;

/** Stripe intents that can still be paid by the shopper (after a decline too). */
const OPEN_INTENT = ['requires_payment_method', 'requires_confirmation', 'requires_action'];

function provider<P>(found: P | null, message: string): P {
  if (!found) throw new ApiError(404, message);
  return found;
}

/** A provider call that failed for a reason other than the payment itself (network, outage): a 503 to retry. */
async function reach<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    console.warn(`payment provider call failed: ${(error as Error).message}`);
    throw new ApiError(503, PAYMENT_MESSAGES.unreachable);
  }
}

async function usersOrder(ctx: AppContext, userId: number, orderId: number): Promise<Selectable<OrdersTable>> {
  const order = await ctx.db
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', orderId)
    .where('user_id', '=', userId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!order) throw new ApiError(404, 'order_id: no such order');
  return order;
}

/** The user's order, if it is awaiting payment (404 when not theirs, 409 when already paid or cancelled). */
async function payableOrder(ctx: AppContext, userId: number, orderId: number): Promise<Selectable<OrdersTable>> {
  const order = await usersOrder(ctx, userId, orderId);
  if (order.status !== 'created')
    throw new ApiError(409, `order_id: the order is ${order.status}, not awaiting payment`);
  return order;
}

/**
 * For the calls that report an outcome: the order already paid (by a webhook that came first, or an earlier call)
 * is answered as it is; one that no longer awaits payment is refused.
 */
async function settledOrPayable(ctx: AppContext, userId: number, orderId: number) {
  const order = await usersOrder(ctx, userId, orderId);
  if (order.status === 'paid') return { order, paid: true };
  if (order.status !== 'created') {
    throw new ApiError(409, `order_id: the order is ${order.status}, not awaiting payment`);
  }
  return { order, paid: false };
}

const apply = (ctx: AppContext, view: ProviderView) => applyProviderView(ctx.db, view, ctx.now(), console.warn);

export function paymentMethods(ctx: AppContext): PaymentMethods {
  const { stripe, paypal, braintree, wechat } = ctx.payments;
  const none = { client_id: '', sdk_url: '' };
  const methods = [
    ...(stripe ? [{ id: 'card', provider: 'stripe', test_mode: stripe.testMode, ...none }] : []),
    ...(paypal
      ? [
          {
            id: 'paypal',
            provider: 'paypal',
            test_mode: paypal.testMode,
            client_id: paypal.config.clientId,
            sdk_url: paypal.config.sdkUrl,
          },
        ]
      : []),
    ...(braintree ? [{ id: 'braintree', provider: 'braintree', test_mode: braintree.testMode, ...none }] : []),
    ...(wechat ? [{ id: 'wechat', provider: 'wechat', test_mode: wechat.testMode, ...none }] : []),
  ];
  return { methods, test_mode: ctx.config.paymentSandbox || methods.some((method) => method.test_mode) };
}

/* ------------------------------------------------------------------------------------------------ card (Stripe) */

function cardSecret(stripe: StripeProvider, intent: StripeIntent): StripeSecret {
  return {
    client_secret: intent.client_secret ?? '',
    payment_intent_id: intent.id,
    publishable_key: stripe.config.publishableKey,
    js_url: stripe.config.jsUrl,
    amount: fromCents(intent.amount),
    currency: intent.currency.toUpperCase(),
    test_mode: stripe.testMode,
  };
}

/** get_secret_for_stripe: the order's open PaymentIntent when it still fits the order, else a new one. */
export async function startCardPayment(ctx: AppContext, userId: number, orderId: number): Promise<StripeSecret> {
  const stripe = provider(ctx.payments.stripe, NOT_CONFIGURED.card);
  const order = await payableOrder(ctx, userId, orderId);
  const earlier = await ctx.db
    .selectFrom('payments')
    .select(['reference', 'status'])
    .where('order_id', '=', order.id)
    .where('provider', '=', 'stripe')
    .orderBy('id', 'desc')
    .execute();
  return reach(async () => {
    const latest = earlier[0];
    if (latest && latest.status !== 'succeeded') {
      const intent = await stripe.retrieve(latest.reference);
      const fits = intent.amount === order.total_cents && intent.currency.toUpperCase() === ORDER_CURRENCY;
      if (fits && OPEN_INTENT.includes(intent.status)) return cardSecret(stripe, intent);
    }
    const intent = await stripe.createIntent({
      orderId: order.id,
      orderSn: order.order_sn,
      amountCents: order.total_cents,
      currency: ORDER_CURRENCY,
      attempt: earlier.length + 1,
    });
    const view = intentView(intent);
    if (view) await apply(ctx, view);
    return cardSecret(stripe, intent);
  });
}

/** confirm_stripe: the card payment as Stripe has it now; the order is paid only if Stripe says it succeeded. */
export async function confirmCardPayment(ctx: AppContext, userId: number, orderId: number): Promise<Order> {
  const stripe = provider(ctx.payments.stripe, NOT_CONFIGURED.card);
  const { order, paid } = await settledOrPayable(ctx, userId, orderId);
  if (paid) return loadOrder(ctx.db, order.id);
  const payments = await ctx.db
    .selectFrom('payments')
    .select(['reference'])
    .where('order_id', '=', order.id)
    .where('provider', '=', 'stripe')
    .orderBy('id', 'desc')
    .limit(3)
    .execute();
  if (payments.length === 0) throw new ApiError(409, 'order_id: no card payment was started for this order');
  const intents = await reach(() => Promise.all(payments.map((payment) => stripe.retrieve(payment.reference))));
  for (const intent of intents) {
    const view = intentView(intent);
    if (view && (await apply(ctx, view)) === 'paid') return loadOrder(ctx.db, order.id);
  }
  const latest = intents[0];
  if (latest.status === 'requires_action') throw new ApiError(409, PAYMENT_MESSAGES.cardNeedsAuthentication);
  const view = intentView(latest);
  if (view?.status === 'declined') throw new ApiError(400, `order_id: ${view.failure}`);
  throw new ApiError(409, PAYMENT_MESSAGES.cardNotConfirmed);
}

/* ------------------------------------------------------------------------------------------------------ PayPal */

export async function createPaypalOrder(ctx: AppContext, userId: number, orderId: number): Promise<PaypalOrder> {
  const paypal = provider(ctx.payments.paypal, NOT_CONFIGURED.paypal);
  const order = await payableOrder(ctx, userId, orderId);
  const created = await reach(() =>
    paypal.createOrder({
      orderId: order.id,
      orderSn: order.order_sn,
      amountCents: order.total_cents,
      currency: ORDER_CURRENCY,
    }),
  );
  const view = paypalView(created);
  if (view) await apply(ctx, view);
  return {
    paypal_order_id: created.id,
    client_id: paypal.config.clientId,
    sdk_url: paypal.config.sdkUrl,
    currency: ORDER_CURRENCY,
    test_mode: paypal.testMode,
  };
}

/** Captures a PayPal order (the buyer approved it) and applies what PayPal answers; shared with the webhook. */
export async function capturePaypal(ctx: AppContext, paypal: PaypalProvider, paypalOrderId: string) {
  const answer: PaypalAnswer = await paypal.capture(paypalOrderId);
  if (answer.status === 200 || answer.status === 201) {
    const view = paypalView(answer.body);
    return { answer, applied: view ? await apply(ctx, view) : ('unknown_order' as const) };
  }
  const issue = paypalIssue(answer);
  if (issue === 'ORDER_ALREADY_CAPTURED') {
    const current = await paypal.getOrder(paypalOrderId);
    const view = current ? paypalView(current) : null;
    return { answer, applied: view ? await apply(ctx, view) : ('unknown_order' as const) };
  }
  if (answer.status >= 500 || answer.status === 401) throw new Error(`PayPal's capture answered HTTP ${answer.status}`);
  return { answer, applied: null };
}

export async function capturePaypalOrder(
  ctx: AppContext,
  userId: number,
  input: ParsedRequestOf<'POST /api/paypal/capture_order'>,
): Promise<Order> {
  const paypal = provider(ctx.payments.paypal, NOT_CONFIGURED.paypal);
  const { order, paid } = await settledOrPayable(ctx, userId, input.order_id);
  if (paid) return loadOrder(ctx.db, order.id);
  const payment = await ctx.db
    .selectFrom('payments')
    .select('reference')
    .where('order_id', '=', order.id)
    .where('provider', '=', 'paypal')
    .where('reference', '=', input.paypal_order_id)
    .executeTakeFirst();
  if (!payment) throw new ApiError(404, 'paypal_order_id: not a PayPal order of this order');
  const { answer, applied } = await reach(() => capturePaypal(ctx, paypal, payment.reference));
  if (applied === 'paid') return loadOrder(ctx.db, order.id);
  if (applied === 'mismatch')
    throw new ApiError(409, 'paypal_order_id: PayPal took another amount than the order total');
  if (applied) throw new ApiError(409, 'order_id: the order is no longer awaiting payment');
  const issue = paypalIssue(answer);
  if (issue === 'ORDER_NOT_APPROVED') throw new ApiError(409, PAYMENT_MESSAGES.paypalNotApproved);
  if (issue === 'INSTRUMENT_DECLINED') throw new ApiError(400, PAYMENT_MESSAGES.paypalDeclined);
  if (issue === 'PAYER_ACTION_REQUIRED') throw new ApiError(409, PAYMENT_MESSAGES.paypalVerify);
  throw new ApiError(400, `paypal_order_id: PayPal refused the capture (${issue || `HTTP ${answer.status}`})`);
}

/* --------------------------------------------------------------------------------------------------- Braintree */

export async function braintreeToken(ctx: AppContext): Promise<BraintreeToken> {
  const braintree = provider(ctx.payments.braintree, NOT_CONFIGURED.braintree);
  return {
    client_token: await reach(() => braintree.clientToken()),
    dropin_url: braintree.config.dropinUrl,
    test_mode: braintree.testMode,
  };
}

export async function braintreeCheckout(
  ctx: AppContext,
  userId: number,
  input: ParsedRequestOf<'POST /api/payment/paypal_braintree_checkout'>,
): Promise<Order> {
  const braintree: BraintreeProvider = provider(ctx.payments.braintree, NOT_CONFIGURED.braintree);
  const { order, paid } = await settledOrPayable(ctx, userId, input.order_id);
  if (paid) return loadOrder(ctx.db, order.id);
  const result = await reach(() =>
    braintree.sale({ nonce: input.payment_method_nonce, amountCents: order.total_cents, orderSn: order.order_sn }),
  );
  if (result.transaction) {
    const applied = await apply(ctx, braintreeView(result.transaction, order.id));
    if (applied === 'paid') return loadOrder(ctx.db, order.id);
  }
  if (result.transaction?.gatewayRejectionReason === 'three_d_secure') {
    throw new ApiError(400, PAYMENT_MESSAGES.braintreeNeedsAuthentication);
  }
  if (result.transaction?.status === 'processor_declined') {
    throw new ApiError(
      400,
      `payment_method_nonce: the card was declined (${result.transaction.processorResponseText})`,
    );
  }
  if (result.success) throw new ApiError(409, 'order_id: the order is no longer awaiting payment');
  throw new ApiError(400, `payment_method_nonce: ${result.message}`);
}

/* ------------------------------------------------------------------------------------------------ WeChat Pay */

/**
 * wechat/prepay: the order's total as a WeChat Pay JSAPI transaction for the WeChat user who pays (the openid behind
 * the wx.login code, from code2Session: never from the client), and the signed fields of wx.requestPayment. One
 * merchant order number per order and attempt, so a payer or an amount that changed gets a new one.
 */
export async function wechatPrepay(
  ctx: AppContext,
  userId: number,
  input: ParsedRequestOf<'POST /api/payment/wechat/prepay'>,
): Promise<WechatPrepay> {
  const wechat = provider(ctx.payments.wechat, NOT_CONFIGURED.wechat);
  const weapp = ctx.config.weapp;
  if (!weapp) throw new ApiError(404, NOT_CONFIGURED.wechat);
  const order = await payableOrder(ctx, userId, input.order_id);
  const { openid } = await codeToSession(weapp, input.code);
  const earlier = await ctx.db
    .selectFrom('payments')
    .select('reference')
    .where('order_id', '=', order.id)
    .where('provider', '=', 'wechat')
    .execute();
  const outTradeNo = `LM${order.id}T${earlier.length + 1}${Date.now().toString(36)}`.slice(0, 32);
  return reach(async () => {
    const prepayId = await wechat.prepay({
      outTradeNo,
      orderId: order.id,
      description: `Lensmate order ${order.order_sn}`.slice(0, 127),
      amountCents: order.total_cents,
      currency: ORDER_CURRENCY,
      openid,
    });
    await apply(ctx, {
      provider: 'wechat',
      reference: outTradeNo,
      orderId: order.id,
      amountCents: order.total_cents,
      currency: ORDER_CURRENCY,
      status: 'pending',
      failure: '',
    });
    const sheet = wechat.paySheet(prepayId);
    return {
      time_stamp: sheet.timeStamp,
      nonce_str: sheet.nonceStr,
      package: sheet.package,
      sign_type: sheet.signType,
      pay_sign: sheet.paySign,
      amount: fromCents(order.total_cents),
      currency: ORDER_CURRENCY,
      test_mode: wechat.testMode,
    };
  });
}

/** wechat/confirm: the order's WeChat Pay transactions read back from WeChat Pay (the sheet's word is not taken). */
export async function confirmWechatPayment(ctx: AppContext, userId: number, orderId: number): Promise<Order> {
  const wechat = provider(ctx.payments.wechat, NOT_CONFIGURED.wechat);
  const { order, paid } = await settledOrPayable(ctx, userId, orderId);
  if (paid) return loadOrder(ctx.db, order.id);
  const payments = await ctx.db
    .selectFrom('payments')
    .select('reference')
    .where('order_id', '=', order.id)
    .where('provider', '=', 'wechat')
    .orderBy('id', 'desc')
    .limit(3)
    .execute();
  if (payments.length === 0) throw new ApiError(409, 'order_id: no WeChat Pay payment was started for this order');
  const transactions = await reach(() => Promise.all(payments.map((payment) => wechat.transaction(payment.reference))));
  for (const transaction of transactions) {
    if (transaction && (await apply(ctx, wechatView(transaction, order.id))) === 'paid') {
      return loadOrder(ctx.db, order.id);
    }
  }
  throw new ApiError(409, PAYMENT_MESSAGES.wechatNotPaid);
}

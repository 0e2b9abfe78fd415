/**
 * The providers' webhooks: what reaches the order when the shopper's browser does not come back (closed tab, lost
 * network). Each event is verified the provider's way before anything is read from it (Stripe's endpoint secret,
 * PayPal's verify-webhook-signature, Braintree's SDK); then the payment is read back from the provider (its current
 * state, so an old event delivered late cannot undo a newer one) and applied through the ledger. A delivery of an
 * event applied before changes nothing; a forged one is refused with nothing changed.
 */
import type { AppContext } from '../context';
import { ApiError } from '../http';
import { capturePaypal } from './checkout';
import { braintreeView } from './payments/braintree';
import { applyProviderView, eventSeen, noteEvent } from './payments/ledger';
import { paypalView } from './payments/paypal';
import { settleRefund } from './payments/refunds';
import { intentView } from './payments/stripe';
import { wechatView } from './payments/wechat';

export const BAD_SIGNATURE = 'signature: the event is not signed by the provider';

export interface WebhookOutcome {
  received: true;
  duplicate: boolean;
}

async function once(
  ctx: AppContext,
  provider: string,
  eventId: string,
  type: string,
  apply: () => Promise<void>,
): Promise<WebhookOutcome> {
  if (await eventSeen(ctx.db, provider, eventId)) return { received: true, duplicate: true };
  await apply();
  await noteEvent(ctx.db, provider, eventId, type, ctx.now());
  return { received: true, duplicate: false };
}

const applyView = (ctx: AppContext, view: Parameters<typeof applyProviderView>[1] | null) =>
  view ? applyProviderView(ctx.db, view, ctx.now(), console.warn) : Promise.resolve('unknown_order');

export async function stripeWebhook(ctx: AppContext, rawBody: string, signature: string): Promise<WebhookOutcome> {
  const stripe = ctx.payments.stripe;
  if (!stripe?.config.webhookSecret) throw new ApiError(404, 'Stripe webhooks are not configured on this server');
  let event: ReturnType<typeof stripe.constructEvent>;
  try {
    event = stripe.constructEvent(rawBody, signature);
  } catch {
    throw new ApiError(400, BAD_SIGNATURE);
  }
  return once(ctx, 'stripe', event.id, event.type, async () => {
    const object = event.data.object as { id?: string; object?: string };
    if (object.object === 'payment_intent' && object.id) {
      await applyView(ctx, intentView(await stripe.retrieve(object.id)));
    } else if (object.object === 'refund' && object.id) {
      const refund = await stripe.sdk.refunds.retrieve(object.id);
      if (refund.status === 'succeeded' || refund.status === 'failed') {
        await settleRefund(ctx.db, 'stripe', refund.id, refund.status, ctx.now());
      }
    }
  });
}

export async function paypalWebhook(
  ctx: AppContext,
  rawBody: string,
  headers: Record<string, string | string[] | undefined>,
): Promise<WebhookOutcome> {
  const paypal = ctx.payments.paypal;
  if (!paypal?.config.webhookId) throw new ApiError(404, 'PayPal webhooks are not configured on this server');
  if (!(await paypal.verifyWebhook(headers, rawBody))) throw new ApiError(400, BAD_SIGNATURE);
  const event = JSON.parse(rawBody) as {
    id: string;
    event_type: string;
    resource?: { id?: string; supplementary_data?: { related_ids?: { order_id?: string } } };
  };
  return once(ctx, 'paypal', event.id, event.event_type, async () => {
    const resource = event.resource ?? {};
    if (event.event_type === 'CHECKOUT.ORDER.APPROVED' && resource.id) {
      // The buyer approved and the page never captured (closed, offline): the server captures its own order.
      const known = await ctx.db
        .selectFrom('payments')
        .select('reference')
        .where('provider', '=', 'paypal')
        .where('reference', '=', resource.id)
        .executeTakeFirst();
      if (known) await capturePaypal(ctx, paypal, known.reference);
    } else if (event.event_type.startsWith('PAYMENT.CAPTURE.') && event.event_type !== 'PAYMENT.CAPTURE.REFUNDED') {
      const orderId = resource.supplementary_data?.related_ids?.order_id;
      const order = orderId ? await paypal.getOrder(orderId) : null;
      if (order) await applyView(ctx, paypalView(order));
    } else if (event.event_type === 'PAYMENT.CAPTURE.REFUNDED' && resource.id) {
      const refund = await paypal.call('GET', `/v2/payments/refunds/${encodeURIComponent(resource.id)}`);
      const status = refund.body?.status;
      if (status === 'COMPLETED' || status === 'FAILED') {
        await settleRefund(ctx.db, 'paypal', resource.id, status === 'COMPLETED' ? 'succeeded' : 'failed', ctx.now());
      }
    }
  });
}

export async function braintreeWebhook(ctx: AppContext, signature: string, payload: string): Promise<WebhookOutcome> {
  const braintree = ctx.payments.braintree;
  if (!braintree) throw new ApiError(404, 'Braintree is not configured on this server');
  let notification: Awaited<ReturnType<typeof braintree.gateway.webhookNotification.parse>>;
  try {
    notification = await braintree.gateway.webhookNotification.parse(signature, payload);
  } catch {
    throw new ApiError(400, BAD_SIGNATURE);
  }
  const transactionId = 'transaction' in notification ? notification.transaction?.id : undefined;
  if (!transactionId) return { received: true, duplicate: false };
  return once(ctx, 'braintree', `${notification.kind}:${transactionId}`, notification.kind, async () => {
    const transaction = await braintree.find(transactionId);
    if (transaction.type === 'credit') {
      if (transaction.status === 'settled')
        await settleRefund(ctx.db, 'braintree', transaction.id, 'succeeded', ctx.now());
      return;
    }
    const order = await ctx.db
      .selectFrom('orders')
      .select('id')
      .where('order_sn', '=', transaction.orderId ?? '')
      .executeTakeFirst();
    if (order) await applyView(ctx, braintreeView(transaction, order.id));
  });
}

/**
 * WeChat Pay's notifications: the signature over the exact bytes (WeChat Pay's public key), then the resource
 * decrypted with the APIv3 key. A payment is read back from WeChat Pay by its merchant order number (its current
 * state), for the order that number was made for; a refund's outcome settles the refund recorded under its number.
 */
export async function wechatWebhook(
  ctx: AppContext,
  rawBody: string,
  headers: Record<string, string | string[] | undefined>,
): Promise<WebhookOutcome> {
  const wechat = ctx.payments.wechat;
  if (!wechat) throw new ApiError(404, 'WeChat Pay is not configured on this server');
  const opened = wechat.openNotification(rawBody, headers, Date.now());
  if (!opened) throw new ApiError(400, BAD_SIGNATURE);
  const { notification, resource } = opened;
  return once(ctx, 'wechat', notification.id, notification.event_type, async () => {
    if (notification.event_type.startsWith('TRANSACTION.')) {
      const outTradeNo = String(resource.out_trade_no ?? '');
      const known = await ctx.db
        .selectFrom('payments')
        .select('order_id')
        .where('provider', '=', 'wechat')
        .where('reference', '=', outTradeNo)
        .executeTakeFirst();
      if (!known) return;
      const transaction = await wechat.transaction(outTradeNo);
      if (transaction) await applyView(ctx, wechatView(transaction, known.order_id));
    } else if (notification.event_type.startsWith('REFUND.')) {
      const status = resource.refund_status;
      if (status === 'SUCCESS' || status === 'ABNORMAL' || status === 'CLOSED') {
        const outcome = status === 'SUCCESS' ? 'succeeded' : 'failed';
        await settleRefund(ctx.db, 'wechat', String(resource.out_refund_no ?? ''), outcome, ctx.now());
      }
    }
  });
}

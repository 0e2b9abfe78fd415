/**
 * The RefundGateway of services/refund-gateway.ts for the payment providers: Stripe refunds, PayPal captures refunds
 * and Braintree refunds (or a void while the sale has not settled), each through its provider's SDK or API. Every
 * call is recorded in `refunds` on the order (keyed by the caller's idempotency key, so a retried call returns the
 * first answer and refunds once); a refund the provider settles later stays pending until its webhook moves it.
 * More than what was paid and not yet refunded is refused before any provider is asked.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import {
  type RefundGateway,
  type RefundProvider,
  RefundRefused,
  type RefundRequest,
  type RefundResult,
} from '../refund-gateway';
import type { BraintreeProvider } from './braintree';
import { type PaypalProvider, paypalIssue } from './paypal';
import type { StripeProvider } from './stripe';
import type { WechatPayProvider } from './wechat';

/** One provider's refund call; throws RefundRefused when the provider refuses. */
export type RefundHandler = (request: RefundRequest) => Promise<RefundResult>;

/** The payment row's provider for each RefundProvider. */
const PAYMENT_PROVIDER: Record<RefundProvider, string> = {
  card: 'stripe',
  paypal: 'paypal',
  braintree: 'braintree',
  wechat: 'wechat',
};

export function stripeRefunds(stripe: StripeProvider): RefundHandler {
  return async (request) => {
    try {
      const refund = await stripe.sdk.refunds.create(
        {
          payment_intent: request.providerRef,
          amount: request.amountCents,
          metadata: { order_id: String(request.orderId) },
        },
        { idempotencyKey: `lensmate-refund-${request.idempotencyKey}` },
      );
      return { refundId: refund.id, status: refund.status === 'succeeded' ? 'succeeded' : 'pending' };
    } catch (error) {
      const stripeError = error as { type?: string; message?: string };
      if (stripeError.type === 'StripeInvalidRequestError' || stripeError.type === 'StripeCardError') {
        throw new RefundRefused(`Stripe refused the refund: ${stripeError.message}`);
      }
      throw error;
    }
  };
}

export function paypalRefunds(paypal: PaypalProvider): RefundHandler {
  return async (request) => {
    const order = await paypal.getOrder(request.providerRef);
    const capture = order?.purchase_units?.[0]?.payments?.captures?.[0];
    if (!capture) throw new RefundRefused('PayPal has no captured payment for this order');
    const answer = await paypal.call(
      'POST',
      `/v2/payments/captures/${encodeURIComponent(capture.id)}/refund`,
      { amount: { value: (request.amountCents / 100).toFixed(2), currency_code: request.currency } },
      `lensmate-refund-${request.idempotencyKey}`,
    );
    if (answer.status === 422 || answer.status === 400 || answer.status === 404) {
      throw new RefundRefused(`PayPal refused the refund: ${paypalIssue(answer) || `HTTP ${answer.status}`}`);
    }
    if (answer.status !== 201 && answer.status !== 200)
      throw new Error(`PayPal's refund answered HTTP ${answer.status}`);
    return { refundId: answer.body.id, status: answer.body.status === 'COMPLETED' ? 'succeeded' : 'pending' };
  };
}

/** Braintree refunds a settled sale; before it settles, the whole amount is given back by voiding the sale. */
export function braintreeRefunds(bt: BraintreeProvider): RefundHandler {
  return async (request) => {
    const sale = await bt.find(request.providerRef).catch(() => null);
    if (!sale) throw new RefundRefused('Braintree has no such transaction');
    if (['authorized', 'submitted_for_settlement', 'settlement_pending'].includes(sale.status)) {
      if (request.amountCents !== request.paymentAmountCents) {
        throw new RefundRefused(
          'Braintree has not settled this payment yet: it can be refunded in part once settled (usually within a day), or in full now',
        );
      }
      const voided = await bt.gateway.transaction.void(sale.id);
      if (!voided.success) throw new RefundRefused(`Braintree refused the void: ${voided.message}`);
      return { refundId: sale.id, status: 'succeeded' };
    }
    const refunded = await bt.gateway.transaction.refund(sale.id, (request.amountCents / 100).toFixed(2));
    if (!refunded.success) throw new RefundRefused(`Braintree refused the refund: ${refunded.message}`);
    return { refundId: refunded.transaction.id, status: 'succeeded' };
  };
}

/** WeChat Pay refunds part or all of a payment; it settles later and says so with a REFUND.SUCCESS notification. */
export function wechatRefunds(wechat: WechatPayProvider): RefundHandler {
  return async (request) => {
    // out_refund_no: at most 64 of [A-Za-z0-9_-|*@]; the caller's idempotency key, hashed to fit, keeps it once.
    const outRefundNo = `R${createHash('sha256').update(request.idempotencyKey).digest('hex').slice(0, 40)}`;
    try {
      const { data } = await wechat.refund({
        outTradeNo: request.providerRef,
        outRefundNo,
        refundCents: request.amountCents,
        totalCents: request.paymentAmountCents,
        currency: request.currency,
      });
      // Recorded under our out_refund_no, which WeChat Pay's REFUND.SUCCESS notification names.
      const refund = data as { status?: string };
      return { refundId: outRefundNo, status: refund.status === 'SUCCESS' ? 'succeeded' : 'pending' };
    } catch (error) {
      const answer = (error as { response?: { status?: number; data?: { code?: string; message?: string } } }).response;
      if (answer?.status && answer.status >= 400 && answer.status < 500) {
        throw new RefundRefused(
          `WeChat Pay refused the refund: ${answer.data?.message ?? answer.data?.code ?? answer.status}`,
        );
      }
      throw error;
    }
  };
}

/**
 * The gateway the order lifecycle calls. `handlers` has one entry per configured provider; the WeChat Pay provider
 * adds its own (`wechat`).
 */
export function recordingRefundGateway(
  db: Kysely<Database>,
  now: () => number,
  handlers: Partial<Record<RefundProvider, RefundHandler>>,
): RefundGateway {
  return {
    async refund(request) {
      const earlier = await db
        .selectFrom('refunds')
        .selectAll()
        .where('idempotency_key', '=', request.idempotencyKey)
        .executeTakeFirst();
      if (earlier?.provider_refund_id) {
        if (earlier.order_id !== request.orderId)
          throw new RefundRefused('This idempotency key belongs to another refund');
        return {
          refundId: earlier.provider_refund_id,
          status: earlier.status === 'succeeded' ? 'succeeded' : 'pending',
        };
      }
      const handler = handlers[request.provider];
      if (!handler) throw new RefundRefused(`${request.provider} payments are not configured on this server`);
      if (!Number.isInteger(request.amountCents) || request.amountCents <= 0) {
        throw new RefundRefused('The refund must be a positive amount');
      }
      const payment = await db
        .selectFrom('payments')
        .select(['id', 'amount_cents', 'currency', 'status'])
        .where('order_id', '=', request.orderId)
        .where('provider', '=', PAYMENT_PROVIDER[request.provider])
        .where('reference', '=', request.providerRef)
        .executeTakeFirst();
      if (!payment || payment.status !== 'succeeded')
        throw new RefundRefused('No such successful payment on this order');
      if (!earlier) {
        const given = await db
          .selectFrom('refunds')
          .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount_cents'), eb.lit(0)).as('cents'))
          .where('payment_id', '=', payment.id)
          .where('status', '<>', 'failed')
          .executeTakeFirstOrThrow();
        const left = payment.amount_cents - Number(given.cents);
        if (request.amountCents > left) {
          throw new RefundRefused(
            `Only ${(left / 100).toFixed(2)} ${payment.currency} of this payment is left to refund`,
          );
        }
        // Reserved before the provider is asked, so two refunds at once cannot give back more than was paid.
        await db
          .insertInto('refunds')
          .values({
            order_id: request.orderId,
            payment_id: payment.id,
            provider: PAYMENT_PROVIDER[request.provider],
            provider_refund_id: '',
            amount_cents: request.amountCents,
            currency: payment.currency,
            status: 'pending',
            idempotency_key: request.idempotencyKey,
            created_at: now(),
            updated_at: now(),
          })
          .execute();
      }
      let result: RefundResult;
      try {
        result = await handler({ ...request, paymentAmountCents: payment.amount_cents, currency: payment.currency });
      } catch (error) {
        // Refused: nothing was given back, the reservation goes. Any other failure keeps it for the retry.
        if (error instanceof RefundRefused) {
          await db.deleteFrom('refunds').where('idempotency_key', '=', request.idempotencyKey).execute();
        }
        throw error;
      }
      await db
        .updateTable('refunds')
        .set({ provider_refund_id: result.refundId, status: result.status, updated_at: now() })
        .where('idempotency_key', '=', request.idempotencyKey)
        .execute();
      return result;
    },
  };
}

/** A provider's webhook says how a refund ended. */
export async function settleRefund(
  db: Kysely<Database>,
  provider: string,
  providerRefundId: string,
  status: 'succeeded' | 'failed',
  now: number,
): Promise<void> {
  await db
    .updateTable('refunds')
    .set({ status, updated_at: now })
    .where('provider', '=', provider)
    .where('provider_refund_id', '=', providerRefundId)
    .where('status', '=', 'pending')
    .execute();
}

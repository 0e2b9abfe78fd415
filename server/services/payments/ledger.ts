/**
 * The one place money state changes: a provider's own view of a payment (read back from its API, or from a verified
 * webhook) is written to the payment row, and the order becomes paid when the provider says the payment succeeded
 * for the order's whole amount in its currency. Every path (the shopper's browser coming back, a webhook, a retry,
 * a replay, events out of order) ends here, and applying the same view twice changes nothing: a succeeded payment
 * never goes back, an order moves from created to paid once.
 */
import type { Kysely } from 'kysely';
import type { PaymentProvider } from '../../../types/api';
import type { Database } from '../../db/schema';

export interface ProviderView {
  provider: PaymentProvider;
  /** The provider's id of the payment: Stripe's PaymentIntent, PayPal's order, Braintree's transaction. */
  reference: string;
  /** Our order, from what the server itself gave the provider (metadata, custom_id, orderId). */
  orderId: number;
  amountCents: number;
  currency: string;
  status: 'pending' | 'succeeded' | 'declined';
  /** Why it failed, in the provider's words (shown to the shopper). */
  failure: string;
}

export type Applied =
  /** The order is paid (now or before). */
  | 'paid'
  /** Recorded; the order is not paid by it (pending, declined, or the order no longer awaits payment). */
  | 'recorded'
  /** The provider took a different amount or currency than the order's: recorded, never marks the order paid. */
  | 'mismatch'
  | 'unknown_order';

export const ORDER_CURRENCY = 'USD';

export async function applyProviderView(
  db: Kysely<Database>,
  view: ProviderView,
  now: number,
  log?: (message: string) => void,
): Promise<Applied> {
  return db.transaction().execute(async (trx) => {
    const order = await trx
      .selectFrom('orders')
      .select(['id', 'status', 'total_cents'])
      .where('id', '=', view.orderId)
      .executeTakeFirst();
    if (!order) return 'unknown_order';
    await trx
      .insertInto('payments')
      .values({
        order_id: order.id,
        provider: view.provider,
        reference: view.reference,
        status: view.status,
        amount_cents: view.amountCents,
        currency: view.currency,
        failure: view.failure,
        created_at: now,
        updated_at: now,
      })
      .onConflict((conflict) => conflict.column('reference').doNothing())
      .execute();
    // A payment row belongs to the order it was made for; a view naming another order is not applied to it.
    const row = await trx
      .selectFrom('payments')
      .select(['order_id', 'status'])
      .where('reference', '=', view.reference)
      .executeTakeFirstOrThrow();
    if (row.order_id !== order.id) return 'unknown_order';
    if (row.status !== 'succeeded') {
      await trx
        .updateTable('payments')
        .set({
          status: view.status,
          amount_cents: view.amountCents,
          currency: view.currency,
          failure: view.failure,
          updated_at: now,
        })
        .where('reference', '=', view.reference)
        .where('status', '<>', 'succeeded')
        .execute();
    }
    const payment = await trx
      .selectFrom('payments')
      .select(['status', 'amount_cents', 'currency'])
      .where('reference', '=', view.reference)
      .executeTakeFirstOrThrow();
    if (payment.status !== 'succeeded') return 'recorded';
    if (payment.amount_cents !== order.total_cents || payment.currency !== ORDER_CURRENCY) {
      log?.(
        `payment ${view.reference} (${view.provider}) took ${payment.amount_cents} ${payment.currency} for order ` +
          `${order.id} of ${order.total_cents} ${ORDER_CURRENCY}: the order is not marked paid`,
      );
      return 'mismatch';
    }
    if (order.status === 'paid') return 'paid';
    const moved = await trx
      .updateTable('orders')
      .set({ status: 'paid', paid_at: now, updated_at: now })
      .where('id', '=', order.id)
      .where('status', '=', 'created')
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) {
      // Another path (the webhook, the shopper's browser) paid it meanwhile: on PostgreSQL this update waited for
      // that one's row lock and then found the order paid already.
      const current = await trx.selectFrom('orders').select('status').where('id', '=', order.id).executeTakeFirst();
      if (current?.status === 'paid') return 'paid';
      // Paid after the order was cancelled (expired unpaid while the shopper was paying): the money is taken but the
      // order is not revived; the owner must give it back with the provider (issue 18 leaves this to a person).
      log?.(
        `payment ${view.reference} (${view.provider}) succeeded for order ${order.id}, which is ${current?.status}: refund it`,
      );
      return 'recorded';
    }
    // The order's history (services/order-lifecycle.ts): paid by the provider, with the payment's reference.
    await trx
      .insertInto('order_events')
      .values({
        order_id: order.id,
        kind: 'paid',
        from_status: 'created',
        to_status: 'paid',
        actor: 'provider',
        actor_user_id: null,
        note: `${view.provider} ${view.reference}`,
        amount_cents: null,
        ref: null,
        created_at: now,
      })
      .execute();
    return 'paid';
  });
}

/** Whether a webhook event was applied before (a provider delivers at least once, sometimes more). */
export async function eventSeen(db: Kysely<Database>, provider: string, eventId: string): Promise<boolean> {
  const row = await db
    .selectFrom('payment_events')
    .select('event_id')
    .where('provider', '=', provider)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  return Boolean(row);
}

/** Noted after the event was applied, so a delivery that failed half-way is applied again on the provider's retry. */
export async function noteEvent(db: Kysely<Database>, provider: string, eventId: string, type: string, now: number) {
  await db
    .insertInto('payment_events')
    .values({ provider, event_id: eventId, type, received_at: now })
    .onConflict((conflict) => conflict.columns(['provider', 'event_id']).doNothing())
    .execute();
}

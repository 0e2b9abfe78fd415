/**
 * The order's life after checkout, every step made here by the server: created (awaiting payment) → paid (only by
 * the payment ledger, payments/ledger.ts) → shipped → delivered; cancelled (unpaid: by staff, the shopper or the
 * expiry job, which releases the stock and the coupon; paid: refunded in full first); refunded, in part (the status
 * stays, `refunded_cents` grows) or in full (the status becomes refunded). Each step is checked against the order's
 * status inside a transaction that holds the order's row (FOR UPDATE on PostgreSQL; SQLite runs one writer), is
 * idempotent (the same step again answers the order as it is; a refund carries its own key), and is written to
 * `order_events` with who made it and when.
 */
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { OrderEvent, OrderStatus } from '../../types/api';
import { PAYMENT_MESSAGES } from '../../types/constants';
import type { AppContext } from '../context';
import type { Database, OrdersTable } from '../db/schema';
import { ApiError, fromCents } from '../http';
import { notifyOrderStep } from './order-notices';
import { type RefundProvider, RefundRefused } from './refund-gateway';
import { registerParcel } from './tracking';

export type ActorKind = 'staff' | 'shopper' | 'system' | 'provider' | 'carrier';
export interface Actor {
  kind: ActorKind;
  /** The staff member or shopper who made the step; null for the system, a provider or the carrier. */
  userId: number | null;
}
export const SYSTEM: Actor = { kind: 'system', userId: null };
export const CARRIER: Actor = { kind: 'carrier', userId: null };

export type StepKind = 'paid' | 'shipped' | 'delivered' | 'cancelled' | 'expired' | 'refunded' | 'partially_refunded';

type Db = Kysely<Database> | Transaction<Database>;
type OrderRow = Selectable<OrdersTable>;

export const NO_SUCH_ORDER = 'order_id: no such order';

/** Why a step is refused in the order's current status. */
export const REFUSALS = {
  ship: (status: string) =>
    status === 'created'
      ? 'order_id: the order is not paid yet, it cannot be shipped'
      : `order_id: the order is ${status}, it cannot be shipped`,
  shippedOther: (trackingNo: string) => `order_id: the order is already shipped with tracking number ${trackingNo}`,
  trackingTaken: 'tracking_no: this tracking number belongs to another order',
  deliver: (status: string) => `order_id: the order is ${status}, only a shipped order can be delivered`,
  cancel: (status: string) =>
    status === 'refunded'
      ? 'order_id: the order is refunded, it cannot be cancelled'
      : `order_id: the order is ${status}, it cannot be cancelled: refund it instead`,
  refund: (status: string) =>
    status === 'refunded'
      ? 'order_id: the order is already refunded'
      : status === 'created'
        ? 'order_id: the order is not paid, there is nothing to refund'
        : `order_id: the order is ${status}, there is nothing to refund`,
  refundTooMuch: (leftCents: number) => `amount: at most ${fromCents(leftCents).toFixed(2)} is left to refund`,
  noPayment: 'order_id: the order has no payment to refund',
  changed: 'order_id: the order changed meanwhile, reload it',
} as const;

/** The order's row, held until the transaction ends (PostgreSQL); SQLite's single writer holds it anyway. */
async function lockedOrder(ctx: AppContext, trx: Transaction<Database>, orderId: number) {
  let query = trx.selectFrom('orders').selectAll().where('id', '=', orderId);
  if (ctx.dialect === 'postgres') query = query.forUpdate();
  return query.executeTakeFirst();
}

async function readOrder(ctx: AppContext, orderId: number): Promise<OrderRow> {
  const order = await ctx.db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
  if (!order) throw new ApiError(404, NO_SUCH_ORDER);
  return order;
}

interface Step {
  kind: StepKind;
  from: string;
  to: string;
  actor: Actor;
  note?: string;
  amountCents?: number | null;
  ref?: string | null;
}

export async function recordStep(db: Db, orderId: number, step: Step, now: number): Promise<void> {
  await db
    .insertInto('order_events')
    .values({
      order_id: orderId,
      kind: step.kind,
      from_status: step.from,
      to_status: step.to,
      actor: step.actor.kind,
      actor_user_id: step.actor.userId,
      note: step.note ?? '',
      amount_cents: step.amountCents ?? null,
      ref: step.ref ?? null,
      created_at: now,
    })
    .execute();
}

/** An unpaid order's hold on stock and on its coupon, given back (in the transaction that cancels it). */
async function releaseReservation(trx: Transaction<Database>, orderId: number): Promise<void> {
  const lines = await trx
    .selectFrom('order_lines')
    .select(['goods_id', 'color_id', 'quantity'])
    .where('order_id', '=', orderId)
    .execute();
  for (const line of lines) {
    await trx
      .updateTable('goods_colors')
      .set((eb) => ({ stock: eb('stock', '+', line.quantity) }))
      .where('goods_id', '=', line.goods_id)
      .where('color_id', '=', line.color_id)
      .where('stock', 'is not', null)
      .execute();
  }
  await trx.deleteFrom('coupon_uses').where('order_id', '=', orderId).execute();
}

/**
 * Cancels an unpaid order inside the caller's transaction: moves it only from created (so two callers, two
 * processes, or the job and the shopper, release once) and answers whether this call moved it.
 */
export async function cancelUnpaid(
  trx: Transaction<Database>,
  orderId: number,
  actor: Actor,
  kind: 'cancelled' | 'expired',
  note: string,
  now: number,
  extra: Partial<Pick<OrdersTable, 'deleted'>> = {},
): Promise<boolean> {
  const moved = await trx
    .updateTable('orders')
    .set({ status: 'cancelled', updated_at: now, ...extra })
    .where('id', '=', orderId)
    .where('status', '=', 'created')
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) !== 1) return false;
  await releaseReservation(trx, orderId);
  await recordStep(trx, orderId, { kind, from: 'created', to: 'cancelled', actor, note }, now);
  return true;
}

/* ------------------------------------------------------------------------------------------------------- ship */

export async function shipOrder(
  ctx: AppContext,
  actor: Actor,
  orderId: number,
  carrier: string,
  trackingNo: string,
): Promise<void> {
  const number = trackingNo.toUpperCase();
  const order = await readOrder(ctx, orderId);
  if (order.status === 'shipped' && order.tracking_no === number) return;
  if (order.status === 'shipped') throw new ApiError(409, REFUSALS.shippedOther(order.tracking_no ?? ''));
  if (order.status !== 'paid') throw new ApiError(409, REFUSALS.ship(order.status));
  const other = await ctx.db
    .selectFrom('orders')
    .select('id')
    .where('tracking_no', '=', number)
    .where('id', '<>', orderId)
    .executeTakeFirst();
  if (other) throw new ApiError(409, REFUSALS.trackingTaken);
  // Registered with the tracking provider before the order moves: an unreachable provider leaves it paid.
  await registerParcel(ctx, number, carrier || undefined);
  const now = ctx.now();
  const moved = await ctx.db.transaction().execute(async (trx) => {
    const row = await lockedOrder(ctx, trx, orderId);
    if (!row) throw new ApiError(404, NO_SUCH_ORDER);
    if (row.status === 'shipped' && row.tracking_no === number) return false;
    if (row.status !== 'paid') throw new ApiError(409, REFUSALS.ship(row.status));
    await trx
      .updateTable('orders')
      .set({ status: 'shipped', tracking_no: number, carrier, shipped_at: now, updated_at: now })
      .where('id', '=', orderId)
      .execute();
    await recordStep(
      trx,
      orderId,
      { kind: 'shipped', from: 'paid', to: 'shipped', actor, note: `${carrier} ${number}`.trim() },
      now,
    );
    return true;
  });
  if (moved) await notifyOrderStep(ctx, orderId, 'shipped');
}

/* ---------------------------------------------------------------------------------------------------- deliver */

export async function deliverOrder(ctx: AppContext, actor: Actor, orderId: number, note = ''): Promise<void> {
  const now = ctx.now();
  const moved = await ctx.db.transaction().execute(async (trx) => {
    const row = await lockedOrder(ctx, trx, orderId);
    if (!row) throw new ApiError(404, NO_SUCH_ORDER);
    if (row.status === 'delivered') return false;
    if (row.status !== 'shipped') throw new ApiError(409, REFUSALS.deliver(row.status));
    await trx
      .updateTable('orders')
      .set({ status: 'delivered', delivered_at: now, updated_at: now })
      .where('id', '=', orderId)
      .execute();
    await recordStep(trx, orderId, { kind: 'delivered', from: 'shipped', to: 'delivered', actor, note }, now);
    return true;
  });
  if (moved) await notifyOrderStep(ctx, orderId, 'delivered');
}

/* ----------------------------------------------------------------------------------------------------- refund */

const REFUND_PROVIDER: Record<string, RefundProvider> = { stripe: 'card', paypal: 'paypal', braintree: 'braintree' };

/**
 * Gives back `amountCents` (absent: all that is left) through the provider that took the payment. `key` is the
 * caller's for this refund: the same key again refunds nothing more. Answers whether this call refunded.
 */
export async function refundOrder(
  ctx: AppContext,
  actor: Actor,
  orderId: number,
  amountCents: number | undefined,
  key: string,
  note = '',
): Promise<boolean> {
  const ref = `refund:${orderId}:${key}`;
  const done = await ctx.db.selectFrom('order_events').select('id').where('ref', '=', ref).executeTakeFirst();
  if (done) return false;
  const order = await readOrder(ctx, orderId);
  if (!['paid', 'shipped', 'delivered'].includes(order.status)) throw new ApiError(409, REFUSALS.refund(order.status));
  const left = order.total_cents - order.refunded_cents;
  const amount = amountCents ?? left;
  if (amount <= 0 && amountCents !== undefined) throw new ApiError(400, 'amount: must be more than 0');
  if (amount > left || left <= 0) throw new ApiError(409, REFUSALS.refundTooMuch(left));
  const payment = await ctx.db
    .selectFrom('payments')
    .select(['provider', 'reference', 'amount_cents'])
    .where('order_id', '=', orderId)
    .where('status', '=', 'succeeded')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const provider = payment ? REFUND_PROVIDER[payment.provider] : undefined;
  if (!payment || !provider) throw new ApiError(409, REFUSALS.noPayment);
  try {
    await ctx.payments.refunds.refund({
      orderId,
      orderSn: order.order_sn,
      provider,
      providerRef: payment.reference,
      amountCents: amount,
      paymentAmountCents: payment.amount_cents,
      currency: 'USD',
      idempotencyKey: `order-${orderId}-${key}`,
    });
  } catch (error) {
    if (error instanceof RefundRefused) throw new ApiError(409, `order_id: ${error.message}`);
    console.warn(`refund of order ${orderId} failed: ${(error as Error).message}`);
    throw new ApiError(503, PAYMENT_MESSAGES.unreachable);
  }
  const now = ctx.now();
  const kind = await ctx.db.transaction().execute(async (trx) => {
    const row = await lockedOrder(ctx, trx, orderId);
    if (!row) throw new ApiError(404, NO_SUCH_ORDER);
    const again = await trx.selectFrom('order_events').select('id').where('ref', '=', ref).executeTakeFirst();
    if (again) return null;
    const refunded = row.refunded_cents + amount;
    const full = refunded >= row.total_cents;
    const to = full ? 'refunded' : row.status;
    await trx
      .updateTable('orders')
      .set({ refunded_cents: refunded, status: to, updated_at: now })
      .where('id', '=', orderId)
      .execute();
    const stepKind: StepKind = full ? 'refunded' : 'partially_refunded';
    await recordStep(
      trx,
      orderId,
      { kind: stepKind, from: row.status, to, actor, note, amountCents: amount, ref },
      now,
    );
    return stepKind;
  });
  if (kind) await notifyOrderStep(ctx, orderId, kind, amount);
  return kind !== null;
}

/* ----------------------------------------------------------------------------------------------------- cancel */

/** Cancels an order that has not left: unpaid, its stock and coupon go back; paid, it is refunded in full first. */
export async function cancelOrder(ctx: AppContext, actor: Actor, orderId: number, note = ''): Promise<void> {
  const order = await readOrder(ctx, orderId);
  if (order.status === 'cancelled') return;
  if (order.status === 'paid') {
    if (order.refunded_cents < order.total_cents) {
      await refundOrder(ctx, actor, orderId, order.total_cents - order.refunded_cents, 'cancel', note);
    }
    // Refunded in full, so its status is now refunded; the cancellation puts the stock back as well.
    const now = ctx.now();
    const moved = await ctx.db.transaction().execute(async (trx) => {
      const row = await lockedOrder(ctx, trx, orderId);
      if (!row || row.status !== 'refunded' || row.shipped_at !== null) return false;
      await trx.updateTable('orders').set({ status: 'cancelled', updated_at: now }).where('id', '=', orderId).execute();
      await releaseReservation(trx, orderId);
      await recordStep(trx, orderId, { kind: 'cancelled', from: 'refunded', to: 'cancelled', actor, note }, now);
      return true;
    });
    if (!moved) throw new ApiError(409, REFUSALS.changed);
    return;
  }
  if (order.status !== 'created') throw new ApiError(409, REFUSALS.cancel(order.status));
  const now = ctx.now();
  const moved = await ctx.db.transaction().execute((trx) => cancelUnpaid(trx, orderId, actor, 'cancelled', note, now));
  if (!moved) {
    const current = await readOrder(ctx, orderId);
    if (current.status !== 'cancelled') throw new ApiError(409, REFUSALS.cancel(current.status));
  }
}

/* ----------------------------------------------------------------------------------------------------- expiry */

/**
 * Cancels the orders unpaid for longer than ORDER_PAYMENT_MINUTES, releasing their stock and coupons; answers the
 * ids this call expired. On PostgreSQL each batch takes its rows with FOR UPDATE SKIP LOCKED, so two server
 * processes running it at once split the orders between them, and the move from created (cancelUnpaid) makes each
 * expiry happen once whatever the engine.
 */
export async function expireUnpaidOrders(ctx: AppContext, batch = 100): Promise<number[]> {
  const now = ctx.now();
  const cutoff = now - ctx.config.orderPaymentTtlMs;
  const expired: number[] = [];
  for (;;) {
    const ids = await ctx.db.transaction().execute(async (trx) => {
      let query = trx
        .selectFrom('orders')
        .select('id')
        .where('status', '=', 'created')
        .where('created_at', '<=', cutoff)
        // A payment the shopper started within the last ORDER_PAYMENT_MINUTES (still pending at the provider) holds
        // the order that much longer from its start, so a card being paid is not expired under the shopper.
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('payments')
                .select('payments.id')
                .whereRef('payments.order_id', '=', 'orders.id')
                .where('payments.status', '=', 'pending')
                .where('payments.updated_at', '>', cutoff),
            ),
          ),
        )
        .orderBy('id')
        .limit(batch);
      if (ctx.dialect === 'postgres') query = query.forUpdate().skipLocked();
      const rows = await query.execute();
      const moved: number[] = [];
      for (const row of rows) {
        const minutes = Math.round(ctx.config.orderPaymentTtlMs / 60_000);
        if (await cancelUnpaid(trx, row.id, SYSTEM, 'expired', `not paid within ${minutes} minutes`, now)) {
          moved.push(row.id);
        }
      }
      return { moved, seen: rows.length };
    });
    expired.push(...ids.moved);
    if (ids.seen < batch) break;
  }
  for (const id of expired) await notifyOrderStep(ctx, id, 'expired');
  return expired;
}

/* ---------------------------------------------------------------------------------------------------- history */

/** The order's steps, oldest first; `withStaff` names the staff member (the admin's view), else only the role. */
export async function orderHistory(ctx: AppContext, orderId: number, withStaff: boolean): Promise<OrderEvent[]> {
  const rows = await ctx.db
    .selectFrom('order_events')
    .leftJoin('users', 'users.id', 'order_events.actor_user_id')
    .select([
      'order_events.kind',
      'order_events.from_status',
      'order_events.to_status',
      'order_events.actor',
      'order_events.note',
      'order_events.amount_cents',
      'order_events.created_at',
      'users.email',
    ])
    .where('order_events.order_id', '=', orderId)
    .orderBy('order_events.id')
    .execute();
  return rows.map((row) => ({
    kind: row.kind as OrderEvent['kind'],
    from_status: row.from_status as OrderStatus,
    to_status: row.to_status as OrderStatus,
    actor: row.actor as OrderEvent['actor'],
    actor_name: withStaff || row.actor === 'shopper' ? (row.email ?? '') : '',
    note: row.note,
    amount: row.amount_cents === null ? null : fromCents(row.amount_cents),
    created_at: row.created_at,
  }));
}

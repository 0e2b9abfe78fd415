import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import type {
  Address,
  CartContent,
  Order,
  OrderLine,
  OrderStatus,
  Page,
  Prescription,
  PricedLens,
} from '../../types/api';
import type { ParsedRequestOf } from '../../types/contract';
import type { AppContext } from '../context';
import type { Database, OrdersTable } from '../db/schema';
import { ApiError, fromCents, jsonParse, pageRows } from '../http';
import { type Actor, cancelOrder, cancelUnpaid, deliverOrder, refundOrder, shipOrder } from './order-lifecycle';
import { couponSavingCents, loadPriceBook, priceLine, shippingCents } from './pricing';
import { toAddress, toPrescription } from './records';
import { uploadUrlReader } from './uploads';

/** The order status machine: which status may follow which. */
export const ORDER_TRANSITIONS: Record<OrderStatus, OrderStatus[]> = {
  created: ['paid', 'cancelled'],
  paid: ['shipped', 'refunded', 'cancelled'],
  shipped: ['delivered', 'refunded'],
  delivered: ['refunded'],
  cancelled: [],
  refunded: [],
};

export function canMove(from: OrderStatus, to: OrderStatus): boolean {
  return ORDER_TRANSITIONS[from].includes(to);
}

/**
 * Orders as answers show them. `readUrl` signs the prescription photos of the lines (see uploadUrlReader); only
 * answers to the order's owner or to staff pass one, and the stored order keeps the plain path.
 */
export async function toOrders(
  db: Kysely<Database>,
  rows: Selectable<OrdersTable>[],
  readUrl: (url: string) => string = (url) => url,
): Promise<Order[]> {
  if (rows.length === 0) return [];
  const lines = await db
    .selectFrom('order_lines')
    .selectAll()
    .where(
      'order_id',
      'in',
      rows.map((row) => row.id),
    )
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    order_id: row.id,
    order_sn: row.order_sn,
    status: row.status as OrderStatus,
    lines: lines
      .filter((line) => line.order_id === row.id)
      .map(
        (line): OrderLine => ({
          line_id: line.id,
          goods_id: line.goods_id,
          goods_name: line.goods_name,
          goods_img: line.goods_img,
          color_id: line.color_id,
          color_name: line.color_name,
          quantity: line.quantity,
          frame_price: fromCents(line.frame_price_cents),
          lens_detail: jsonParse<PricedLens | null>(line.lens_json, null),
          unit_price: fromCents(line.unit_price_cents),
          line_total: fromCents(line.line_total_cents),
          prescription: readablePrescription(jsonParse<Prescription | null>(line.prescription_json, null), readUrl),
        }),
      ),
    address: jsonParse<Address>(row.address_json, {} as Address),
    shipping_method: jsonParse<Order['shipping_method']>(row.shipping_json, {} as Order['shipping_method']),
    coupon: jsonParse<Order['coupon']>(row.coupon_json, null),
    subtotal: fromCents(row.subtotal_cents),
    coupon_discount: fromCents(row.coupon_discount_cents),
    shipping_fee: fromCents(row.shipping_fee_cents),
    total: fromCents(row.total_cents),
    currency: 'USD',
    tracking_no: row.tracking_no,
    carrier: row.carrier,
    created_at: row.created_at,
    paid_at: row.paid_at,
    refunded: fromCents(row.refunded_cents),
    shipped_at: row.shipped_at,
    delivered_at: row.delivered_at,
  }));
}

export async function loadOrder(
  db: Kysely<Database>,
  orderId: number,
  readUrl?: (url: string) => string,
): Promise<Order> {
  const row = await db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirstOrThrow();
  return (await toOrders(db, [row], readUrl))[0];
}

/** A prescription with its photo's URL as `readUrl` makes it readable. */
export function readablePrescription<P extends Prescription | null>(
  prescription: P,
  readUrl: (url: string) => string,
): P {
  if (!prescription?.image_url) return prescription;
  return { ...prescription, image_url: readUrl(prescription.image_url) };
}

function orderSn(now: number): string {
  const date = new Date(now).toISOString().slice(0, 10).replace(/-/g, '');
  return `LM${date}${randomBytes(4).toString('hex').toUpperCase()}`;
}

/** An order as its owner or staff read it: prescription photos signed for now. */
function ownersView(ctx: AppContext, orderId: number): Promise<Order> {
  return loadOrder(ctx.db, orderId, uploadUrlReader(ctx.config, ctx.now));
}

async function orderByClientKey(ctx: AppContext, userId: number, clientKey: string): Promise<number | undefined> {
  const row = await ctx.db
    .selectFrom('orders')
    .select('id')
    .where('user_id', '=', userId)
    .where('client_key', '=', clientKey)
    .executeTakeFirst();
  return row?.id;
}

/**
 * submit_order: prices the lines (given, or the saved cart), checks the address, shipping method and coupon, and
 * in one transaction writes the order, takes the stock and uses the coupon (and empties the cart it came from).
 * A retry with the same client key answers the order the first call made, also when the two raced.
 */
export async function submitOrder(
  ctx: AppContext,
  userId: number,
  input: ParsedRequestOf<'POST /api/order/submit_order'>,
): Promise<Order> {
  const existing = await orderByClientKey(ctx, userId, input.client_key);
  if (existing !== undefined) return ownersView(ctx, existing);

  const fromCart = input.lines === undefined;
  const cart = fromCart
    ? await ctx.db.selectFrom('carts').select('content').where('user_id', '=', userId).executeTakeFirst()
    : undefined;
  const lines = input.lines ?? jsonParse<CartContent>(cart?.content, { lines: [] }).lines;
  if (lines.length === 0) throw new ApiError(400, 'lines: the cart is empty');
  const book = await loadPriceBook(ctx.db, lines, userId);
  const priced = lines.map((line, index) => priceLine(book, line, index, true));
  priced.forEach((line, index) => {
    if (!line.available)
      throw new ApiError(
        409,
        `lines.${index}: ${line.goods_name} (${line.color_name}) is not available in this quantity`,
      );
  });
  const address = await ctx.db
    .selectFrom('addresses')
    .selectAll()
    .where('id', '=', input.address_id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!address) throw new ApiError(400, 'address_id: no such address');
  const shipping = await ctx.db
    .selectFrom('shipping_methods')
    .selectAll()
    .where('id', '=', input.shipping_method_id)
    .executeTakeFirst();
  if (!shipping) throw new ApiError(400, 'shipping_method_id: no such shipping method');
  const subtotalCents = priced.reduce((sum, line) => sum + line.cents.total, 0);
  const now = ctx.now();
  const couponRow = input.coupon_code
    ? await ctx.db
        .selectFrom('coupons')
        .selectAll()
        .where('code', '=', input.coupon_code.toUpperCase())
        .executeTakeFirst()
    : undefined;
  let couponDiscountCents = 0;
  if (input.coupon_code) {
    if (!couponRow || couponRow.valid_from > now || couponRow.valid_until <= now)
      throw new ApiError(400, 'coupon_code: no such coupon or it has expired');
    const used = await ctx.db
      .selectFrom('coupon_uses')
      .select('order_id')
      .where('coupon_id', '=', couponRow.id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (used) throw new ApiError(400, 'coupon_code: you have already used this coupon');
    if (subtotalCents < couponRow.threshold_cents) {
      throw new ApiError(
        400,
        `coupon_code: needs a subtotal of at least ${fromCents(couponRow.threshold_cents).toFixed(2)}`,
      );
    }
    couponDiscountCents = couponSavingCents(couponRow, subtotalCents);
  }
  const shippingFeeCents = shippingCents(shipping, subtotalCents - couponDiscountCents);
  const totalCents = subtotalCents - couponDiscountCents + shippingFeeCents;
  const prescriptionsById = new Map(
    [...book.prescriptions].map(([key, value]) => [key, toPrescription(value.row as never)]),
  );

  try {
    const orderId = await ctx.db.transaction().execute(async (trx) => {
      const order = await trx
        .insertInto('orders')
        .values({
          order_sn: orderSn(now),
          user_id: userId,
          client_key: input.client_key,
          status: 'created',
          subtotal_cents: subtotalCents,
          coupon_id: couponRow?.id ?? null,
          coupon_json: couponRow
            ? JSON.stringify({ coupon_id: couponRow.id, code: couponRow.code, title: couponRow.title })
            : null,
          coupon_discount_cents: couponDiscountCents,
          shipping_fee_cents: shippingFeeCents,
          total_cents: totalCents,
          address_json: JSON.stringify(toAddress(address)),
          shipping_json: JSON.stringify({
            shipping_method_id: shipping.id,
            name: shipping.name,
            min_days: shipping.min_days,
            max_days: shipping.max_days,
          }),
          tracking_no: null,
          carrier: null,
          deleted: 0,
          created_at: now,
          paid_at: null,
          shipped_at: null,
          delivered_at: null,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const [index, line] of priced.entries()) {
        const stock = await trx
          .updateTable('goods_colors')
          .set((eb) => ({ stock: eb('stock', '-', line.quantity) }))
          .where('goods_id', '=', line.goods_id)
          .where('color_id', '=', line.color_id)
          .where('stock', 'is not', null)
          .where('stock', '>=', line.quantity)
          .executeTakeFirst();
        const tracked = book.colors.get(`${line.goods_id}:${line.color_id}`)?.stock !== null;
        if (tracked && Number(stock.numUpdatedRows) === 0) {
          throw new ApiError(
            409,
            `lines.${index}: ${line.goods_name} (${line.color_name}) is not available in this quantity`,
          );
        }
        await trx
          .insertInto('order_lines')
          .values({
            order_id: order.id,
            goods_id: line.goods_id,
            goods_name: line.goods_name,
            goods_img: line.goods_img,
            color_id: line.color_id,
            color_name: line.color_name,
            quantity: line.quantity,
            frame_price_cents: line.cents.frame,
            lens_json: line.lens_detail ? JSON.stringify(line.lens_detail) : null,
            unit_price_cents: line.cents.unit,
            line_total_cents: line.cents.total,
            prescription_json:
              line.prescription_id != null ? JSON.stringify(prescriptionsById.get(line.prescription_id) ?? null) : null,
          })
          .execute();
      }
      if (couponRow)
        await trx
          .insertInto('coupon_uses')
          .values({ coupon_id: couponRow.id, user_id: userId, order_id: order.id })
          .execute();
      if (fromCart) await trx.deleteFrom('carts').where('user_id', '=', userId).execute();
      return order.id;
    });
    return ownersView(ctx, orderId);
  } catch (error) {
    // A concurrent retry with the same key won the race: answer its order.
    const winner = await orderByClientKey(ctx, userId, input.client_key);
    if (winner !== undefined) return ownersView(ctx, winner);
    throw error;
  }
}

/** get_user_order: the user's orders (not deleted), newest first, optionally of one status or one id. */
export async function listOrders(
  ctx: AppContext,
  userId: number,
  input: ParsedRequestOf<'POST /api/order/get_user_order'>,
): Promise<Page<Order>> {
  let base = ctx.db.selectFrom('orders').where('user_id', '=', userId).where('deleted', '=', 0);
  if (input.status) base = base.where('status', '=', input.status);
  if (input.order_id !== undefined) base = base.where('id', '=', input.order_id);
  const { rows, total } = await pageRows(base, input, (query) =>
    query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'),
  );
  const readUrl = uploadUrlReader(ctx.config, ctx.now);
  return { list: await toOrders(ctx.db, rows, readUrl), total, page: input.page, page_size: input.page_size };
}

/**
 * update_order_status (staff): one step of the status machine, made by the order lifecycle (services/order-lifecycle.ts)
 * and recorded with the staff member; shipping registers the parcel for tracking, refunded refunds what is left.
 */
export async function updateOrderStatus(
  ctx: AppContext,
  staffId: number,
  input: ParsedRequestOf<'POST /api/order/update_order_status'>,
): Promise<Order> {
  if (input.status === 'paid') {
    throw new ApiError(400, 'status: an order becomes paid only when the payment provider confirms');
  }
  const order = await ctx.db.selectFrom('orders').selectAll().where('id', '=', input.order_id).executeTakeFirst();
  if (!order) throw new ApiError(404, 'order_id: no such order');
  const from = order.status as OrderStatus;
  const repeat = from === input.status;
  if (!repeat && !canMove(from, input.status))
    throw new ApiError(409, `status: an order that is ${from} cannot become ${input.status}`);
  if (input.status === 'shipped' && !input.tracking_no) throw new ApiError(400, 'tracking_no: is required to ship');
  const staff: Actor = { kind: 'staff', userId: staffId };
  if (input.status === 'shipped')
    await shipOrder(ctx, staff, order.id, input.carrier ?? order.carrier ?? '', input.tracking_no ?? '');
  else if (input.status === 'delivered') await deliverOrder(ctx, staff, order.id);
  else if (input.status === 'cancelled') await cancelOrder(ctx, staff, order.id);
  else if (input.status === 'refunded' && !repeat) await refundOrder(ctx, staff, order.id, undefined, 'status-refund');
  return ownersView(ctx, order.id);
}

/**
 * delete_order: the owner hides an order that is not paid or on its way; an unpaid one is cancelled too, which
 * puts its stock back and frees its coupon.
 */
export async function deleteOrder(ctx: AppContext, userId: number, orderId: number): Promise<void> {
  const order = await ctx.db
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', orderId)
    .where('user_id', '=', userId)
    .where('deleted', '=', 0)
    .executeTakeFirst();
  if (!order) throw new ApiError(404, 'order_id: no such order');
  const status = order.status as OrderStatus;
  if (status === 'paid' || status === 'shipped')
    throw new ApiError(409, 'order_id: an order that is paid or on its way cannot be deleted');
  const now = ctx.now();
  await ctx.db.transaction().execute(async (trx) => {
    const shopper: Actor = { kind: 'shopper', userId };
    if (await cancelUnpaid(trx, order.id, shopper, 'cancelled', 'deleted by the shopper', now, { deleted: 1 })) return;
    // Not (or no longer) unpaid: only hidden. An order paid meanwhile stays, as it is on its way.
    const hidden = await trx
      .updateTable('orders')
      .set({ deleted: 1, updated_at: now })
      .where('id', '=', order.id)
      .where('status', 'not in', ['created', 'paid', 'shipped'])
      .executeTakeFirst();
    if (Number(hidden.numUpdatedRows) === 0)
      throw new ApiError(409, 'order_id: an order that is paid or on its way cannot be deleted');
  });
}

import type { Kysely, Selectable } from 'kysely';
import type { Address, Order, OrderLine, OrderStatus, Prescription, PricedLens } from '../../types/api';
import type { Database, OrdersTable } from '../db/schema';
import { fromCents, jsonParse } from '../http';

/** The order status machine: which status may follow which. */
export const ORDER_TRANSITIONS: Record<OrderStatus, OrderStatus[]> = {
  created: ['paid', 'cancelled'],
  paid: ['shipped', 'refunded'],
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

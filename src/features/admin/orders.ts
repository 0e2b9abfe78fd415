import { post } from '@/core/request';
import type {
  AdminOrder,
  AdminOrderDetail,
  AdminOrderListRequest,
  OrderEvent,
  OrderStatus,
  Page,
} from '../../../types/api';

export const ADMIN_ORDERS_PAGE = '/pages/admin/orders';
export const ADMIN_ORDER_DETAIL_PAGE = '/pages/admin/order-detail';
export const ADMIN_ORDERS_PAGE_SIZE = 20;

export const listOrders = (request: AdminOrderListRequest): Promise<Page<AdminOrder>> =>
  post('/api/admin/order/list', request);
export const getOrder = (orderId: number): Promise<AdminOrderDetail> =>
  post('/api/admin/order/detail', { order_id: orderId });
export const shipOrder = (orderId: number, carrier: string, trackingNo: string) =>
  post('/api/admin/order/ship', { order_id: orderId, carrier, tracking_no: trackingNo });
export const deliverOrder = (orderId: number) => post('/api/admin/order/deliver', { order_id: orderId });
export const cancelOrder = (orderId: number) => post('/api/admin/order/cancel', { order_id: orderId });
/** `clientKey` is made once per refund the owner confirms, so a retried request refunds once. */
export const refundOrder = (orderId: number, amount: number | undefined, clientKey: string) =>
  post('/api/admin/order/refund', { order_id: orderId, amount, client_key: clientKey });

export const ADMIN_STATUS_TABS: { label: string; status: OrderStatus | undefined }[] = [
  { label: 'All', status: undefined },
  { label: 'To pay', status: 'created' },
  { label: 'To ship', status: 'paid' },
  { label: 'Shipped', status: 'shipped' },
  { label: 'Delivered', status: 'delivered' },
  { label: 'Cancelled', status: 'cancelled' },
  { label: 'Refunded', status: 'refunded' },
];

/** The confirmations asked before each step. */
export const CONFIRM_SHIP = (sn: string, carrier: string, trackingNo: string) =>
  `Ship order ${sn} with ${carrier}, tracking number ${trackingNo}？`;
export const CONFIRM_DELIVER = (sn: string) => `Mark order ${sn} as delivered？`;
export const CONFIRM_CANCEL = (sn: string, paid: boolean) =>
  paid ? `Cancel order ${sn} and refund it in full？` : `Cancel order ${sn}？ Its stock and coupon are released.`;
export const CONFIRM_REFUND = (sn: string, amount: string) => `Refund ${amount} on order ${sn}？`;

const STEP_LABELS: Record<OrderEvent['kind'], string> = {
  paid: 'Paid',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  expired: 'Expired unpaid',
  refunded: 'Refunded',
  partially_refunded: 'Partly refunded',
};
const ACTOR_LABELS: Record<OrderEvent['actor'], string> = {
  staff: 'staff',
  shopper: 'the shopper',
  system: 'the shop (automatic)',
  provider: 'the payment provider',
  carrier: 'the carrier',
};

/** One line of an order's history: what, by whom. */
export function describeStep(event: OrderEvent): string {
  const who = event.actor_name ? `${ACTOR_LABELS[event.actor]} ${event.actor_name}` : ACTOR_LABELS[event.actor];
  const amount = event.amount !== null ? ` ${event.amount.toFixed(2)}` : '';
  return `${STEP_LABELS[event.kind]}${amount} by ${who}`;
}

/** `YYYY-MM-DD` as the start of that day (local time), or undefined when empty; NaN when not a date. */
export function dayStart(text: string): number | undefined {
  const value = text.trim();
  if (!value) return undefined;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return Number.NaN;
  const time = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])).getTime();
  return Number.isNaN(time) ? Number.NaN : time;
}

export const DAY_MS = 24 * 3600 * 1000;

import { get, post } from '@/core/request';
import type {
  Coupon,
  Order,
  OrderEvent,
  OrderStatus,
  Page,
  RecommendedCoupon,
  ShippingMethod,
  SubmitOrderRequest,
  Tracking,
} from '../../../types/api';

export type { Coupon, Order, OrderEvent, OrderStatus, RecommendedCoupon, ShippingMethod, Tracking };

export function fetchCoupons(): Promise<Coupon[]> {
  return get('/api/config/get_coupons', undefined, { loading: false });
}

/** The coupons the shopper may still use on this subtotal, best saving first. */
export function fetchRecommendedCoupons(subtotal: number): Promise<RecommendedCoupon[]> {
  return post('/api/config/get_recommend_coupons', { subtotal }, { loading: false });
}

export function fetchShippingMethods(subtotal: number, countryCode?: string): Promise<ShippingMethod[]> {
  return post('/api/config/get_shipping_method', { subtotal, country_code: countryCode });
}

/** Orders the saved cart; a retry with the same client key answers the same order. */
export function submitOrder(request: SubmitOrderRequest): Promise<Order> {
  return post('/api/order/submit_order', request);
}

export const ORDERS_PAGE_SIZE = 10;

export function fetchOrders(status: OrderStatus | undefined, page: number): Promise<Page<Order>> {
  return post('/api/order/get_user_order', { status, page, page_size: ORDERS_PAGE_SIZE });
}

export async function fetchOrder(orderId: number): Promise<Order | null> {
  const found = await post('/api/order/get_user_order', { order_id: orderId, page: 1, page_size: 1 });
  return found.list[0] ?? null;
}

export function deleteOrder(orderId: number): Promise<{ deleted: true }> {
  return post('/api/order/delete_order', { order_id: orderId });
}

/** The parcel of one of the shopper's orders, its events newest first (the server asks the tracking service). */
export function fetchTracking(orderId: number): Promise<Tracking> {
  return post('/api/order/get_order_tracking', { order_id: orderId }, { loading: false });
}

/** The steps of one of the shopper's orders, oldest first. */
export function fetchHistory(orderId: number): Promise<OrderEvent[]> {
  return post('/api/order/get_order_history', { order_id: orderId }, { loading: false });
}

export const STEP_LABELS: Record<OrderEvent['kind'], string> = {
  paid: 'Payment received',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  expired: 'Cancelled: not paid in time',
  refunded: 'Refunded',
  partially_refunded: 'Partly refunded',
};

export const STATUS_LABELS: Record<OrderStatus, string> = {
  created: 'Awaiting payment',
  paid: 'Paid',
  shipped: 'Shipped',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
};

/** An order may be deleted unless it is paid or on its way (the server's rule). */
export function canDeleteOrder(status: OrderStatus): boolean {
  return status !== 'paid' && status !== 'shipped';
}

export const DELETE_ORDER_QUESTION = 'Do you want to delete this order?';

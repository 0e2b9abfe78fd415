import { get, post } from '@/core/request';
import type { Coupon, OrderStatus } from '../../../types/api';

/** The order states a shopper follows from Mine, in the order they happen. */
export const ORDER_SHORTCUTS: { status: OrderStatus; label: string }[] = [
  { status: 'created', label: 'To pay' },
  { status: 'paid', label: 'Paid' },
  { status: 'shipped', label: 'Shipped' },
  { status: 'delivered', label: 'Delivered' },
];

export interface MineSummary {
  orders: Partial<Record<OrderStatus, number>>;
  addresses: number;
  prescriptions: number;
  coupons: Coupon[];
}

const quiet = { loading: false } as const;

async function orderCount(status: OrderStatus): Promise<number> {
  const page = await post('/api/order/get_user_order', { status, page: 1, page_size: 1 }, quiet);
  return page.total;
}

/**
 * Counts for the Mine tab; each part arrives on its own so one slow call does not hold the others. A part that
 * fails is logged and reported, so that the tab does not show a count it does not know as 0.
 */
export function loadMineSummary(
  onPart: (part: Partial<MineSummary>) => void,
  onFailure: (failure: unknown) => void = () => undefined,
): void {
  const report = (promise: Promise<Partial<MineSummary>>) =>
    promise.then(onPart, (failure: unknown) => {
      console.error('Mine summary', failure);
      onFailure(failure);
    });
  for (const { status } of ORDER_SHORTCUTS) {
    report(orderCount(status).then((count) => ({ orders: { [status]: count } })));
  }
  report(post('/api/user/get_user_address', {}, quiet).then((list) => ({ addresses: list.length })));
  report(
    get('/api/user/get_my_prescription', undefined, quiet).then((list) => ({
      prescriptions: list.length,
    })),
  );
  report(get('/api/config/get_coupons', undefined, quiet).then((coupons) => ({ coupons })));
}

export function mergeSummary(current: MineSummary, part: Partial<MineSummary>): MineSummary {
  return { ...current, ...part, orders: { ...current.orders, ...part.orders } };
}

export const EMPTY_SUMMARY: MineSummary = { orders: {}, addresses: 0, prescriptions: 0, coupons: [] };

export function couponLabel(coupon: Coupon): string {
  const off = coupon.kind === 'percent' ? `${coupon.value}% off` : `${coupon.value.toFixed(2)} off`;
  return coupon.threshold > 0 ? `${off} over ${coupon.threshold.toFixed(2)}` : off;
}

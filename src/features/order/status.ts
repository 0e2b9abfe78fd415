import type { OrderStatus } from './api';

export const ORDER_TABS: { label: string; status: OrderStatus | undefined }[] = [
  { label: 'All', status: undefined },
  { label: 'To pay', status: 'created' },
  { label: 'Paid', status: 'paid' },
  { label: 'Shipped', status: 'shipped' },
  { label: 'Delivered', status: 'delivered' },
  { label: 'Cancelled', status: 'cancelled' },
  { label: 'Refunded', status: 'refunded' },
];

export function statusBadgeClass(status: OrderStatus): string {
  if (status === 'created') return 'shop-badge shop-badge--warn';
  if (status === 'cancelled' || status === 'refunded') return 'shop-badge shop-badge--off';
  if (status === 'delivered') return 'shop-badge shop-badge--ok';
  return 'shop-badge';
}

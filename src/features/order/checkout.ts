import { appStore } from '@/state/store';
import { taroStorage } from '@/state/taro-storage';
import { atomWithStorage } from 'jotai/utils';

/** The choices of the checkout in progress, kept across pages (address list, shipment) and reloads. */
export interface Checkout {
  addressId: number | null;
  shippingMethodId: number | null;
  couponCode: string;
  /**
   * Made once per checkout and sent with every submit attempt, so a retry after a lost answer gets the same
   * order instead of a second one; a new key is made only after an order was placed.
   */
  clientKey: string;
}

export const EMPTY_CHECKOUT: Checkout = { addressId: null, shippingMethodId: null, couponCode: '', clientKey: '' };

export const checkoutAtom = atomWithStorage<Checkout>('checkout', EMPTY_CHECKOUT, taroStorage<Checkout>(), {
  getOnInit: true,
});

export function newClientKey(): string {
  const random = Math.random().toString(36).slice(2, 12).padEnd(10, '0');
  return `ck-${Date.now().toString(36)}-${random}`;
}

export function updateCheckout(change: Partial<Checkout>): void {
  appStore.set(checkoutAtom, { ...appStore.get(checkoutAtom), ...change });
}

/** The key of the checkout in progress, made on first use. */
export function checkoutClientKey(): string {
  const current = appStore.get(checkoutAtom);
  if (current.clientKey) return current.clientKey;
  const key = newClientKey();
  updateCheckout({ clientKey: key });
  return key;
}

/** After an order was placed: the next checkout starts fresh, keeping the address for convenience. */
export function finishCheckout(): void {
  const { addressId } = appStore.get(checkoutAtom);
  appStore.set(checkoutAtom, { ...EMPTY_CHECKOUT, addressId });
}

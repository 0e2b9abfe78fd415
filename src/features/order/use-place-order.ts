import { type Address, fetchAddresses } from '@/features/address/api';
import { type Cart, fetchCart } from '@/features/cart/api';
import type { LoadState } from '@/ui/shop/StateView';
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useMemo, useState } from 'react';
import {
  type Coupon,
  type RecommendedCoupon,
  type ShippingMethod,
  fetchCoupons,
  fetchRecommendedCoupons,
  fetchShippingMethods,
} from './api';
import { failureMessage } from './api-error';
import { checkoutAtom } from './checkout';
import { checkCoupon } from './coupons';

/** Everything the place-order page shows, all priced by the server. */
export function usePlaceOrder() {
  const checkout = useAtomValue(checkoutAtom);
  const [cart, setCart] = useState<Cart | null>(null);
  const [addresses, setAddresses] = useState<Address[]>([]);
  const [recommended, setRecommended] = useState<RecommendedCoupon[]>([]);
  const [coupons, setCoupons] = useState<Coupon[]>([]);
  const [methods, setMethods] = useState<ShippingMethod[]>([]);
  const [state, setState] = useState<LoadState>('loading');
  const [loadError, setLoadError] = useState('');

  const load = useCallback(() => {
    setState('loading');
    Promise.all([fetchCart(), fetchAddresses(), fetchCoupons()])
      .then(async ([answer, addressList, live]) => {
        const usable = await fetchRecommendedCoupons(answer.subtotal);
        setCart(answer);
        setAddresses(addressList);
        setCoupons(live);
        setRecommended(usable);
        setState('ready');
      })
      .catch((reason: unknown) => {
        setLoadError(failureMessage(reason));
        setState('error');
      });
  }, []);

  const address = useMemo(
    () =>
      addresses.find((item) => item.address_id === checkout.addressId) ??
      addresses.find((item) => item.is_default) ??
      addresses[0] ??
      null,
    [addresses, checkout.addressId],
  );

  const subtotal = cart?.subtotal ?? 0;
  const couponCheck = checkout.couponCode ? checkCoupon(checkout.couponCode, recommended, coupons, subtotal) : null;
  const saving = couponCheck?.ok ? couponCheck.coupon.saving : 0;
  const shippingBase = Math.max(0, Math.round((subtotal - saving) * 100) / 100);
  const countryCode = address?.country_code;

  useEffect(() => {
    if (state !== 'ready') return;
    fetchShippingMethods(shippingBase, countryCode).then(setMethods, (reason: unknown) => {
      setLoadError(failureMessage(reason));
      setState('error');
    });
  }, [state, shippingBase, countryCode]);

  const method = methods.find((item) => item.shipping_method_id === checkout.shippingMethodId) ?? methods[0] ?? null;
  const total = method ? Math.round((shippingBase + method.price) * 100) / 100 : null;

  return {
    checkout,
    cart,
    addresses,
    address,
    recommended,
    couponCheck,
    saving,
    shippingBase,
    method,
    total,
    state,
    loadError,
    load,
  };
}

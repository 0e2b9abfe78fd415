import { formatPrice } from '@/utils/format';
import type { Coupon, RecommendedCoupon } from './api';

export const NO_SUCH_COUPON = 'No such coupon or it has expired';
export const COUPON_ALREADY_USED = 'You have already used this coupon';

export type CouponCheck = { ok: true; coupon: RecommendedCoupon } | { ok: false; message: string };

/**
 * Whether a typed code applies to this order, from the server's lists: the recommended coupons are exactly
 * those the shopper may use on this subtotal, with their saving; any other live coupon says why not.
 */
export function checkCoupon(
  code: string,
  recommended: RecommendedCoupon[],
  live: Coupon[],
  subtotal: number,
): CouponCheck {
  const wanted = code.trim().toUpperCase();
  const usable = recommended.find((coupon) => coupon.code.toUpperCase() === wanted);
  if (usable) return { ok: true, coupon: usable };
  const known = live.find((coupon) => coupon.code.toUpperCase() === wanted);
  if (!known) return { ok: false, message: NO_SUCH_COUPON };
  if (subtotal < known.threshold)
    return { ok: false, message: `Needs a subtotal of at least $${formatPrice(known.threshold)}` };
  return { ok: false, message: COUPON_ALREADY_USED };
}

export function couponLabel(coupon: Coupon): string {
  return coupon.kind === 'percent' ? `${coupon.value} % off` : `$${formatPrice(coupon.value)} off`;
}

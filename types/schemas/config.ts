/** The shop's settings and reference lists: configuration, countries, coupons, shipping. */
import { z } from 'zod';
import { money, pageFields } from './common';

export const shopConfig = z.object({
  shop_name: z.string(),
  shop_logo: z.string(),
  currency: z.string(),
  currency_symbol: z.string(),
  service_email: z.string(),
  app_version: z.string(),
  google_client_id: z.string(),
  stripe_publishable_key: z.string(),
});

export const pageRequest = z.object(pageFields);

export const country = z.object({ country_code: z.string(), name: z.string(), phone_code: z.string() });

export const coupon = z.object({
  coupon_id: z.number(),
  code: z.string(),
  title: z.string(),
  kind: z.enum(['amount', 'percent']),
  /** Money off for `amount`; percent off (1…100) for `percent`. */
  value: z.number(),
  /** The minimum subtotal. */
  threshold: z.number(),
  valid_from: z.number(),
  valid_until: z.number(),
});

/** What the coupon takes off the given subtotal. */
export const recommendedCoupon = coupon.extend({ saving: z.number() });

export const recommendCouponsRequest = z.object({ subtotal: money });

export const shippingMethodRequest = z.object({
  subtotal: money.default(0),
  country_code: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'must be a 2-letter country code')
    .optional(),
});

export const shippingMethod = z.object({
  shipping_method_id: z.number(),
  name: z.string(),
  description: z.string(),
  /** The price for the given subtotal (0 at or above `free_threshold`). */
  price: z.number(),
  base_price: z.number(),
  free_threshold: z.number().nullable(),
  min_days: z.number(),
  max_days: z.number(),
});

export const discountOption = z.object({
  discount: z.number(),
  shown_discount: z.number(),
  goods_count: z.number(),
});

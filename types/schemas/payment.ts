/** Card (Stripe or its sandbox), PayPal and Braintree payments of an order. */
import { z } from 'zod';
import { PAYMENT_STATUSES } from '../constants';
import { id } from './common';

export const paymentStatus = z.enum(PAYMENT_STATUSES);

const requiredString = () => z.string({ required_error: 'is required' }).min(1, 'is required');

export const stripeSecret = z.object({
  client_secret: z.string(),
  payment_intent_id: z.string(),
  /** 'sandbox': confirm the card with POST /api/payment/sandbox/confirm_card instead of Stripe.js. */
  mode: z.enum(['stripe', 'sandbox']),
  publishable_key: z.string(),
  amount: z.number(),
  currency: z.string(),
});

export const sandboxCardRequest = z.object({
  client_secret: requiredString(),
  card_number: z.string({ required_error: 'is required' }).transform((value) => value.replace(/[\s-]/g, '')),
  exp_month: z
    .number({ required_error: 'is required' })
    .int()
    .min(1, 'must be from 1 to 12')
    .max(12, 'must be from 1 to 12'),
  exp_year: z.number({ required_error: 'is required' }).int().min(2000).max(2100),
  cvc: z.string({ required_error: 'is required' }).regex(/^\d{3,4}$/, 'must be 3 or 4 digits'),
});

export const sandboxCardResult = z.object({ status: paymentStatus });

export const paypalOrder = z.object({
  paypal_order_id: z.string(),
  /** Where the buyer approves; in sandbox mode POST /api/paypal/sandbox/approve instead. */
  approve_url: z.string(),
  mode: z.enum(['paypal', 'sandbox']),
});

export const paypalApproveRequest = z.object({ paypal_order_id: requiredString() });
export const paypalApproved = z.object({ approved: z.literal(true) });

export const paypalCaptureRequest = z.object({
  order_id: id,
  paypal_order_id: requiredString(),
});

export const braintreeToken = z.object({
  client_token: z.string(),
  mode: z.enum(['braintree', 'sandbox']),
});

export const braintreeCheckoutRequest = z.object({
  order_id: id,
  /** Sandbox nonces as Braintree's: fake-valid-nonce succeeds, fake-processor-declined-visa-nonce is declined. */
  payment_method_nonce: requiredString().max(500),
});

/**
 * Paying an order through the providers' own client SDKs: Stripe's Payment Element (card), the PayPal JS SDK's
 * buttons and Braintree's drop-in on H5 (WeChat Pay in the mini-program comes with its own routes). The server makes
 * every payment with the provider and reads its outcome back; the client never says what was paid.
 */
import { z } from 'zod';
import { PAYMENT_STATUSES } from '../constants';
import { id } from './common';

export const paymentStatus = z.enum(PAYMENT_STATUSES);

const requiredString = () => z.string({ required_error: 'is required' }).min(1, 'is required');

/** One way to pay this server offers now; `test_mode`: the provider's test mode or a local fake, no money moves. */
export const paymentMethod = z.object({
  /** card | paypal | braintree (and wechat, with the WeChat Pay provider). */
  id: z.string(),
  provider: z.string(),
  test_mode: z.boolean(),
  /** What a browser SDK is loaded with before any payment exists (PayPal's buttons); empty otherwise. */
  client_id: z.string(),
  sdk_url: z.string(),
});

export const paymentMethods = z.object({
  methods: z.array(paymentMethod),
  /** Any method in test mode: the checkout says "Test mode: no money moves". */
  test_mode: z.boolean(),
});

export const stripeSecret = z.object({
  client_secret: z.string(),
  payment_intent_id: z.string(),
  publishable_key: z.string(),
  /** Where Stripe.js loads from (Stripe's, or the local stand-in in tests and the demo). */
  js_url: z.string(),
  /** The PaymentIntent's amount and currency, as Stripe has them. */
  amount: z.number(),
  currency: z.string(),
  test_mode: z.boolean(),
});

export const paypalOrder = z.object({
  paypal_order_id: z.string(),
  /** What the PayPal JS SDK is loaded with. */
  client_id: z.string(),
  sdk_url: z.string(),
  currency: z.string(),
  test_mode: z.boolean(),
});

export const paypalCaptureRequest = z.object({
  order_id: id,
  paypal_order_id: requiredString().max(64),
});

export const braintreeToken = z.object({
  client_token: z.string(),
  dropin_url: z.string(),
  test_mode: z.boolean(),
});

export const braintreeCheckoutRequest = z.object({
  order_id: id,
  /** The nonce Braintree's drop-in produced for the shopper's card (3-D Secure authenticated). */
  payment_method_nonce: requiredString().max(500),
});

/** WeChat Pay in the mini-program: the order, and a fresh wx.login code naming the WeChat user who pays. */
export const wechatPrepayRequest = z.object({
  order_id: id,
  code: requiredString()
    .max(128, 'is not a wx.login code')
    .regex(/^[\w-]+$/, 'is not a wx.login code'),
});

/** What wx.requestPayment is called with, signed by the server (API v3: signType RSA). */
export const wechatPrepay = z.object({
  time_stamp: z.string(),
  nonce_str: z.string(),
  package: z.string(),
  sign_type: z.literal('RSA'),
  pay_sign: z.string(),
  amount: z.number(),
  currency: z.string(),
  test_mode: z.boolean(),
});

/** A WeChat Pay notification; its signature (Wechatpay-Signature over the exact bytes) is what makes it count. */
export const wechatWebhook = z
  .object({
    id: requiredString(),
    event_type: requiredString(),
    resource: z.object({ ciphertext: requiredString(), nonce: requiredString() }).passthrough(),
  })
  .passthrough();

export const webhookReceived = z.object({
  received: z.literal(true),
  /** A delivery of an event already applied: nothing changed. */
  duplicate: z.boolean(),
});

/** A Stripe event; its signature (Stripe-Signature over the exact bytes) is what makes it count. */
export const stripeWebhook = z.object({ id: requiredString(), type: requiredString() }).passthrough();

/** A PayPal event; PayPal's verify-webhook-signature is what makes it count. */
export const paypalWebhook = z.object({ id: requiredString(), event_type: requiredString() }).passthrough();

/** A Braintree notification (form fields), parsed and checked by the braintree SDK. */
export const braintreeWebhook = z.object({
  bt_signature: requiredString().max(2000),
  bt_payload: requiredString().max(200_000),
});

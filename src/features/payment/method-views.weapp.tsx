import type { PaymentPlatform } from './method-views';

/**
 * A mini-program can host none of the browser SDKs (Stripe's card fields, PayPal's buttons, Braintree's drop-in):
 * it offers what WeChat itself pays with, which the WeChat Pay provider adds here.
 */
export const paymentPlatform: PaymentPlatform = { name: 'weapp', views: {} };

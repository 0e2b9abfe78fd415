/**
 * The contract's constants that the app uses as values. This module imports nothing, so the app may import it
 * (through `types/api.ts`) without pulling the contract's schemas, or zod, into its bundle.
 */

/** The statuses an answer's body (and its HTTP response) may have. */
export const API_STATUSES = [200, 400, 401, 403, 404, 409, 429, 503] as const;

/** The request header that carries the login token. */
export const TOKEN_HEADER = 'lensmate-token';

export const FILTER_TYPES = ['Gender', 'Type', 'Shape', 'Material', 'Tag'] as const;

export const ORDER_STATUSES = ['created', 'paid', 'shipped', 'delivered', 'cancelled', 'refunded'] as const;

export const PAYMENT_PROVIDERS = ['stripe', 'paypal', 'braintree', 'wechat'] as const;
export const PAYMENT_STATUSES = ['pending', 'succeeded', 'declined'] as const;

export const TRACK_STATUSES = ['registered', 'in_transit', 'out_for_delivery', 'delivered'] as const;

export const PRISM_BASES = ['BU', 'BD', 'BI', 'BO'] as const;

/** The shop's customer-service team: every shopper writes to it; admins choose its agents. */
export const SUPPORT_TEAM_ID = 'lensmate-support';

/** A cart holds at most this many lines. */
export const MAX_CART_LINES = 50;

/** The longest review a shopper may write, in characters. */
export const REVIEW_MAX_LENGTH = 500;
/** Payment answers the app acts on or shows, worded once for the server and the app. */
export const PAYMENT_MESSAGES = {
  /** Shown on the checkout while a provider runs in its test mode or against a local fake. */
  testMode: 'Test mode: no money moves',
  cardNotConfirmed: 'order_id: the card payment is not confirmed yet',
  cardNeedsAuthentication: 'order_id: the card payment needs authentication',
  paypalNotApproved: 'paypal_order_id: the buyer has not approved the payment yet',
  /** The PayPal buttons restart (the buyer picks another way to pay at PayPal) on these two. */
  paypalDeclined: 'paypal_order_id: PayPal declined this way to pay: choose another one at PayPal',
  paypalVerify: 'paypal_order_id: PayPal needs the buyer to verify the payment: approve it again',
  braintreeNeedsAuthentication: 'payment_method_nonce: the card needs 3-D Secure authentication: try again',
  unreachable: 'The payment provider is not reachable, try again in a moment',
  wechatNotPaid: 'order_id: the WeChat Pay payment is not complete yet',
} as const;

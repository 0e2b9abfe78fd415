/**
 * What the order lifecycle needs from the payment side to give money back. The orders service calls it with the
 * order's successful payment row (provider and the provider's own reference); the payments side implements it for
 * each provider through that provider's official SDK (Stripe refunds, PayPal captures refund, Braintree
 * transaction refund or void, WeChat Pay v3 refunds). A partial refund passes less than the payment's amount.
 */
export type RefundProvider = 'card' | 'paypal' | 'braintree' | 'wechat';

export interface RefundRequest {
  orderId: number;
  orderSn: string;
  provider: RefundProvider;
  /** The provider's reference stored in `payments.reference` (PaymentIntent, PayPal order, Braintree transaction, WeChat out_trade_no). */
  providerRef: string;
  amountCents: number;
  /** The payment's whole amount, which some providers need beside the refunded part (WeChat Pay). */
  paymentAmountCents: number;
  currency: string;
  /** Stable for one refund attempt: a retried call must not refund twice. */
  idempotencyKey: string;
}

export interface RefundResult {
  /** The provider's id of the refund. */
  refundId: string;
  status: 'succeeded' | 'pending';
}

export interface RefundGateway {
  refund(request: RefundRequest): Promise<RefundResult>;
}

/** Refused by the provider (or no such payment there): the message says why and nothing was recorded. */
export class RefundRefused extends Error {}

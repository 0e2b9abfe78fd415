import { get, post } from '@/core/request';
import type { BraintreeToken, Order, PaypalOrder, StripeSecret } from '../../../types/api';

export type { BraintreeToken, PaypalOrder, StripeSecret };

export interface CardDetails {
  /** Digits only. */
  number: string;
  month: number;
  /** Four digits. */
  year: number;
  cvc: string;
}

/**
 * Pays the order by card through the server's card provider: the server makes the payment intent, the card
 * is confirmed (the sandbox endpoint when the server runs the sandbox), then the server records the outcome.
 */
export async function payByCard(orderId: number, card: CardDetails): Promise<Order> {
  const secret = await post('/api/payment/get_secret_for_stripe', { order_id: orderId });
  if (secret.mode !== 'sandbox') {
    throw new Error('Card payments need Stripe.js, which this build does not load');
  }
  await post('/api/payment/sandbox/confirm_card', {
    client_secret: secret.client_secret,
    card_number: card.number,
    exp_month: card.month,
    exp_year: card.year,
    cvc: card.cvc,
  });
  return post('/api/payment/confirm_stripe', { order_id: orderId });
}

export function createPaypalOrder(orderId: number): Promise<PaypalOrder> {
  return post('/api/paypal/create_order', { order_id: orderId });
}

/** The sandbox stands in for the buyer approving at PayPal. */
export function approveSandboxPaypal(paypalOrderId: string): Promise<{ approved: true }> {
  return post('/api/paypal/sandbox/approve', { paypal_order_id: paypalOrderId });
}

export function capturePaypalOrder(orderId: number, paypalOrderId: string): Promise<Order> {
  return post('/api/paypal/capture_order', { order_id: orderId, paypal_order_id: paypalOrderId });
}

export function fetchBraintreeToken(): Promise<BraintreeToken> {
  return get('/api/payment/get_paypal_braintree_accesstoken');
}

export function braintreeCheckout(orderId: number, nonce: string): Promise<Order> {
  return post('/api/payment/paypal_braintree_checkout', { order_id: orderId, payment_method_nonce: nonce });
}

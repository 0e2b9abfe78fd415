import { get, post } from '@/core/request';
import type {
  BraintreeToken,
  Order,
  PaymentMethodOffer,
  PaymentMethods,
  PaypalOrder,
  StripeSecret,
  WechatPrepay,
} from '../../../types/api';

export type { BraintreeToken, PaymentMethodOffer, PaymentMethods, PaypalOrder, StripeSecret, WechatPrepay };

/** The ways to pay the server offers (configured providers) and whether any runs in test mode. */
export function fetchPaymentMethods(): Promise<PaymentMethods> {
  return get('/api/payment/methods');
}

/** A Stripe PaymentIntent for the order's total (the server's), for the Payment Element. */
export function startCardPayment(orderId: number): Promise<StripeSecret> {
  return post('/api/payment/get_secret_for_stripe', { order_id: orderId });
}

/** The server reads the payment back from Stripe; the answer is the order, paid when Stripe says so. */
export function confirmCardPayment(orderId: number): Promise<Order> {
  return post('/api/payment/confirm_stripe', { order_id: orderId });
}

export function createPaypalOrder(orderId: number): Promise<PaypalOrder> {
  return post('/api/paypal/create_order', { order_id: orderId });
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

/** A WeChat Pay prepay for the order, for the WeChat user of the wx.login code: the signed wx.requestPayment fields. */
export function startWechatPayment(orderId: number, code: string): Promise<WechatPrepay> {
  return post('/api/payment/wechat/prepay', { order_id: orderId, code });
}

/** The server reads the payment back from WeChat Pay; the answer is the order, paid when WeChat Pay says so. */
export function confirmWechatPayment(orderId: number): Promise<Order> {
  return post('/api/payment/wechat/confirm', { order_id: orderId });
}

import type { ComponentType } from 'react';
import type { Order } from '../order/api';
import type { PaymentMethodOffer } from './api';
import type { PaymentPlatformName } from './methods';

/** What each payment method's view gets: the order to pay, what the server offers, and what to do once paid. */
export interface MethodViewProps {
  order: Order;
  offer: PaymentMethodOffer;
  onPaid(order: Order): void;
}

/**
 * Where paying differs, one file per platform: `method-views.h5.tsx` hosts the providers' browser SDKs (Stripe's
 * Payment Element, the PayPal buttons, Braintree's drop-in), loaded only when the payment page shows them;
 * `method-views.weapp.tsx` hosts what a mini-program can (WeChat Pay, added by its provider).
 */
export interface PaymentPlatform {
  readonly name: PaymentPlatformName;
  /** The view of each method this platform can host, by method id. */
  readonly views: Readonly<Record<string, ComponentType<MethodViewProps>>>;
}

export declare const paymentPlatform: PaymentPlatform;

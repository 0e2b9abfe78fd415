import type { PaymentPlatform } from './method-views';
import { BraintreeDropin } from './web/braintree-dropin';
import { PaypalButtons } from './web/paypal-buttons';
import { StripeCard } from './web/stripe-card';

/** On H5 the providers' own browser SDKs, each loaded from the URL the server gives, only when its view shows. */
export const paymentPlatform: PaymentPlatform = {
  name: 'h5',
  views: { card: StripeCard, paypal: PaypalButtons, braintree: BraintreeDropin },
};

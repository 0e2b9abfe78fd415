import type { PaymentPlatform } from './platform';

/** The mini-program has no browser to show PayPal's site in, so PayPal there runs against the sandbox only. */
export const paymentPlatform: PaymentPlatform = {
  openPaypalApproval() {},
};

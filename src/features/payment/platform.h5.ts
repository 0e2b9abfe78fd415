import type { PaymentPlatform } from './platform';

/** The buyer approves at PayPal in a new browser tab, then comes back to capture. */
export const paymentPlatform: PaymentPlatform = {
  openPaypalApproval(url) {
    window.open(url, '_blank');
  },
};

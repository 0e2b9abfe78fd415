/** Where paying differs, one file per platform: `platform.h5.ts` (a browser tab) and `platform.weapp.ts`. */
export interface PaymentPlatform {
  /** Sends the buyer to PayPal to approve the order, where the platform can show PayPal's site. */
  openPaypalApproval(url: string): void;
}

export declare const paymentPlatform: PaymentPlatform;

/**
 * Every way to pay the shop has, and the platforms that can host it: a list both payment providers' features add to
 * (the WeChat Pay provider adds its entry, for the mini-program). The payment page offers a method when the server
 * has it configured and this platform has a view for it (method-views), and tells which methods each platform
 * offers.
 */
export type PaymentPlatformName = 'h5' | 'weapp';

export interface PaymentMethodInfo {
  /** The id the server's GET /api/payment/methods answers with. */
  id: string;
  label: string;
  /** Who takes the payment, as the shopper sees it. */
  provider: string;
  platforms: PaymentPlatformName[];
}

export const PAYMENT_METHODS: PaymentMethodInfo[] = [
  { id: 'card', label: 'Card', provider: 'Stripe', platforms: ['h5'] },
  { id: 'paypal', label: 'PayPal', provider: 'PayPal', platforms: ['h5'] },
  { id: 'braintree', label: 'Card through Braintree', provider: 'Braintree', platforms: ['h5'] },
  { id: 'wechat', label: 'WeChat Pay', provider: 'WeChat Pay', platforms: ['weapp'] },
];

export const PLATFORM_NAMES: Record<PaymentPlatformName, string> = {
  h5: 'On the mobile site',
  weapp: 'In the WeChat mini-program',
};

/** "On the mobile site: Card (Stripe), PayPal, …" for each platform, from the list above. */
export function methodsByPlatform(
  methods: PaymentMethodInfo[] = PAYMENT_METHODS,
): { platform: string; methods: string }[] {
  return (Object.keys(PLATFORM_NAMES) as PaymentPlatformName[]).map((platform) => {
    const names = methods
      .filter((method) => method.platforms.includes(platform))
      .map((method) => (method.label === method.provider ? method.label : `${method.label} (${method.provider})`));
    return { platform: PLATFORM_NAMES[platform], methods: names.length > 0 ? names.join(', ') : 'none yet' };
  });
}

import type { ProviderFakes } from '../../server/sandbox';
import type { PaypalFunding } from '../../server/sandbox/paypal';

/**
 * What the shopper's browser does through the providers' client SDKs, done over HTTP against the fakes exactly as
 * the stand-ins do it (the e2e suite runs the stand-ins themselves in Chromium).
 */

/** Stripe.js's confirmPayment from the Payment Element: the card goes to Stripe with the publishable key. */
export async function stripeConfirm(fakes: ProviderFakes, clientSecret: string, card: string, expiry = '12/34') {
  const [month, year] = expiry.split('/');
  const id = clientSecret.split('_secret_')[0];
  const response = await fetch(`${fakes.stripe.origin}/v1/payment_intents/${id}/confirm`, {
    method: 'POST',
    body: new URLSearchParams({
      key: fakes.stripe.keys.publishableKey,
      client_secret: clientSecret,
      'payment_method_data[type]': 'card',
      'payment_method_data[card][number]': card,
      'payment_method_data[card][exp_month]': month,
      'payment_method_data[card][exp_year]': year,
      'payment_method_data[card][cvc]': '123',
    }),
  });
  return { http: response.status, body: (await response.json()) as any };
}

/** The shopper answers Stripe's 3-D Secure challenge. */
export async function stripeChallenge(fakes: ProviderFakes, intentId: string, outcome: 'complete' | 'fail') {
  const response = await fetch(`${fakes.stripe.origin}/3ds2/challenge/${intentId}/complete`, {
    method: 'POST',
    body: new URLSearchParams({ outcome }),
  });
  return response.status;
}

/** The buyer approves on PayPal's pop-up. */
export async function paypalApprove(fakes: ProviderFakes, orderId: string, funding: PaypalFunding = 'balance') {
  const response = await fetch(`${fakes.paypal.origin}/checkoutnow/${orderId}/approve`, {
    method: 'POST',
    body: new URLSearchParams({ funding }),
  });
  return response.status;
}

/**
 * Braintree's drop-in: the card tokenized with the client token's fingerprint, then the 3-D Secure lookup and, when
 * the bank asks, the challenge (`challenge: 'skip'` leaves it unanswered).
 */
export async function braintreeNonce(
  clientToken: string,
  card: string,
  challenge: 'complete' | 'fail' | 'skip' = 'complete',
): Promise<string> {
  const token = JSON.parse(Buffer.from(clientToken, 'base64').toString('utf8'));
  const post = async (path: string, body: object) => {
    const response = await fetch(`${token.clientApiUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, authorizationFingerprint: token.authorizationFingerprint }),
    });
    return (await response.json()) as any;
  };
  const tokenized = await post('/v1/payment_methods/credit_cards', {
    creditCard: { number: card, expirationDate: '12/34', cvv: '123' },
  });
  const lookup = await post(`/v1/payment_methods/${tokenized.creditCards[0].nonce}/three_d_secure/lookup`, {
    amount: '10.00',
  });
  const nonce = lookup.paymentMethod.nonce as string;
  if (lookup.lookup.acsUrl && challenge !== 'skip') {
    await post(`/v1/three_d_secure/${nonce}/authenticate`, { outcome: challenge });
  }
  return nonce;
}

/** Waits for a condition the server reaches on its own (a webhook applied), without a fixed sleep. */
export async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

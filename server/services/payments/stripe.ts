/**
 * Card payments through Stripe: PaymentIntents made, read and refunded by the stripe SDK, events verified with the
 * endpoint secret. The SDK reaches Stripe (https://api.stripe.com) or, in tests and the demo, the local fake given by
 * STRIPE_API_BASE: the same calls either way (host, port and protocol are the SDK's own options).
 */
import Stripe from 'stripe';
import { PROVIDER_URLS, type StripeConfig } from '../../config';
import { registerProductionCheck } from '../../production-mode';
import type { ProviderView } from './ledger';

export type StripeIntent = Stripe.PaymentIntent;
export type StripeEvent = Stripe.Event;

export class StripeProvider {
  readonly sdk: Stripe;

  constructor(readonly config: StripeConfig) {
    const api = new URL(config.apiBase);
    const protocol = api.protocol === 'http:' ? 'http' : 'https';
    this.sdk = new Stripe(config.secretKey, {
      host: api.hostname,
      port: api.port || (protocol === 'http' ? 80 : 443),
      protocol,
      maxNetworkRetries: 2,
      timeout: 20_000,
      appInfo: { name: 'Lensmate' },
    });
  }

  /** Test keys: Stripe's test mode, where no money moves. */
  get testMode(): boolean {
    return /^(sk|rk)_test_/.test(this.config.secretKey);
  }

  createIntent(input: { orderId: number; orderSn: string; amountCents: number; currency: string; attempt: number }) {
    return this.sdk.paymentIntents.create(
      {
        amount: input.amountCents,
        currency: input.currency.toLowerCase(),
        description: `Lensmate order ${input.orderSn}`,
        metadata: { order_id: String(input.orderId), order_sn: input.orderSn },
        automatic_payment_methods: { enabled: true },
      },
      // One intent per order and attempt: a retried request (ours or the SDK's) gets the same intent back.
      { idempotencyKey: `lensmate-order-${input.orderId}-intent-${input.attempt}` },
    );
  }

  retrieve(intentId: string): Promise<StripeIntent> {
    return this.sdk.paymentIntents.retrieve(intentId);
  }

  /** Verifies the Stripe-Signature header over the exact bytes received; throws when it does not match. */
  constructEvent(rawBody: string, signature: string): StripeEvent {
    return this.sdk.webhooks.constructEvent(rawBody, signature, this.config.webhookSecret);
  }
}

/** What the order's payment is, as Stripe has it now. */
export function intentView(intent: StripeIntent): ProviderView | null {
  const orderId = Number(intent.metadata?.order_id);
  if (!Number.isInteger(orderId) || orderId <= 0) return null;
  const failure = intent.last_payment_error?.message ?? '';
  let status: ProviderView['status'] = 'pending';
  if (intent.status === 'succeeded') status = 'succeeded';
  else if (intent.status === 'canceled' || (intent.status === 'requires_payment_method' && failure))
    status = 'declined';
  return {
    provider: 'stripe',
    reference: intent.id,
    orderId,
    amountCents: intent.status === 'succeeded' ? (intent.amount_received ?? intent.amount) : intent.amount,
    currency: intent.currency.toUpperCase(),
    status,
    failure: status === 'declined' ? failure || 'The card payment was cancelled' : '',
  };
}

registerProductionCheck({
  id: 'payments.stripe',
  check({ config }) {
    const stripe = config?.stripe;
    if (!stripe) return [];
    const found = [];
    if (/^(sk|rk)_test_/.test(stripe.secretKey)) {
      found.push({
        name: 'STRIPE_SECRET_KEY',
        reason: "is a test key (sk_test_…): Stripe's test mode, no money moves",
      });
    }
    if (stripe.apiBase !== PROVIDER_URLS.stripeApi) {
      found.push({ name: 'STRIPE_API_BASE', reason: `sends card payments to ${stripe.apiBase}, not to Stripe` });
    }
    if (!stripe.jsUrl.startsWith('https://js.stripe.com/')) {
      found.push({ name: 'STRIPE_JS_URL', reason: `loads Stripe.js from ${stripe.jsUrl}, not from Stripe` });
    }
    if (!stripe.webhookSecret) {
      found.push({
        name: 'STRIPE_WEBHOOK_SECRET',
        reason: 'is not set: a card payment whose page was closed before it returned would never mark the order paid',
      });
    }
    return found;
  },
});

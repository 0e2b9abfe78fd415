import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import Stripe from 'stripe';
import type { BraintreeConfig, PaypalConfig, ServerConfig } from '../config';
import type { Database } from '../db/schema';

/**
 * Payment providers. Each has the real client (used when its keys are configured) and an offline
 * sandbox that behaves like the provider's test mode and keeps its own records in sandbox_payments,
 * as the provider would on its side. Our order becomes paid only after asking the provider.
 */
export type ProviderOutcome = 'pending' | 'succeeded' | 'declined';

export interface CardProvider {
  readonly mode: 'stripe' | 'sandbox';
  createIntent(amountCents: number, currency: string, orderId: number): Promise<{ id: string; clientSecret: string }>;
  status(intentId: string): Promise<ProviderOutcome>;
}

export interface PaypalProvider {
  readonly mode: 'paypal' | 'sandbox';
  createOrder(amountCents: number, currency: string, orderSn: string): Promise<{ id: string; approveUrl: string }>;
  /** 'pending': the buyer has not approved yet. */
  capture(paypalOrderId: string): Promise<ProviderOutcome>;
}

export interface BraintreeProvider {
  readonly mode: 'braintree' | 'sandbox';
  clientToken(): Promise<string>;
  charge(nonce: string, amountCents: number, orderSn: string): Promise<{ id: string; outcome: ProviderOutcome }>;
}

export interface PaymentProviders {
  card: CardProvider;
  paypal: PaypalProvider;
  braintree: BraintreeProvider;
}

export const SANDBOX_DECLINED_CARDS = new Set(['4000000000000002', '4000000000009995', '4000000000009987']);

export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

const sandboxId = (prefix: string) => `${prefix}_sandbox_${randomBytes(12).toString('hex')}`;

async function sandboxStatus(db: Kysely<Database>, id: string, provider: string): Promise<ProviderOutcome> {
  const row = await db
    .selectFrom('sandbox_payments')
    .select('status')
    .where('id', '=', id)
    .where('provider', '=', provider)
    .executeTakeFirst();
  if (row?.status === 'succeeded') return 'succeeded';
  if (row?.status === 'declined') return 'declined';
  return 'pending';
}

export function sandboxCard(db: Kysely<Database>, now: () => number): CardProvider {
  return {
    mode: 'sandbox',
    async createIntent(amountCents, currency) {
      const id = sandboxId('pi');
      const clientSecret = `${id}_secret_${randomBytes(12).toString('hex')}`;
      await db
        .insertInto('sandbox_payments')
        .values({
          id,
          provider: 'stripe',
          secret: clientSecret,
          amount_cents: amountCents,
          currency,
          status: 'requires_payment_method',
          created_at: now(),
        })
        .execute();
      return { id, clientSecret };
    },
    status: (intentId) => sandboxStatus(db, intentId, 'stripe'),
  };
}

/** What Stripe.js does in test mode: 4242… succeeds, 4000 0000 0000 0002 is declined. */
export async function sandboxConfirmCard(
  db: Kysely<Database>,
  clientSecret: string,
  cardNumber: string,
): Promise<ProviderOutcome | 'unknown_intent' | 'already_succeeded'> {
  const intent = await db
    .selectFrom('sandbox_payments')
    .selectAll()
    .where('secret', '=', clientSecret)
    .executeTakeFirst();
  if (!intent) return 'unknown_intent';
  if (intent.status === 'succeeded') return 'already_succeeded';
  const outcome: ProviderOutcome = SANDBOX_DECLINED_CARDS.has(cardNumber) ? 'declined' : 'succeeded';
  await db.updateTable('sandbox_payments').set({ status: outcome }).where('id', '=', intent.id).execute();
  return outcome;
}

export function stripeCard(secretKey: string): CardProvider {
  const stripe = new Stripe(secretKey);
  return {
    mode: 'stripe',
    async createIntent(amountCents, currency, orderId) {
      const intent = await stripe.paymentIntents.create({
        amount: amountCents,
        currency: currency.toLowerCase(),
        metadata: { order_id: String(orderId) },
        automatic_payment_methods: { enabled: true },
      });
      return { id: intent.id, clientSecret: intent.client_secret ?? '' };
    },
    async status(intentId) {
      const intent = await stripe.paymentIntents.retrieve(intentId);
      if (intent.status === 'succeeded') return 'succeeded';
      if (intent.status === 'canceled') return 'declined';
      return 'pending';
    },
  };
}

export function sandboxPaypal(db: Kysely<Database>, now: () => number): PaypalProvider {
  return {
    mode: 'sandbox',
    async createOrder(amountCents, currency) {
      const id = sandboxId('PAYPAL').toUpperCase();
      await db
        .insertInto('sandbox_payments')
        .values({
          id,
          provider: 'paypal',
          secret: '',
          amount_cents: amountCents,
          currency,
          status: 'created',
          created_at: now(),
        })
        .execute();
      return { id, approveUrl: `/api/paypal/sandbox/approve?token=${id}` };
    },
    async capture(paypalOrderId) {
      const row = await db
        .selectFrom('sandbox_payments')
        .select('status')
        .where('id', '=', paypalOrderId)
        .where('provider', '=', 'paypal')
        .executeTakeFirst();
      if (row?.status === 'approved') {
        await db.updateTable('sandbox_payments').set({ status: 'succeeded' }).where('id', '=', paypalOrderId).execute();
        return 'succeeded';
      }
      return row?.status === 'succeeded' ? 'succeeded' : 'pending';
    },
  };
}

/** The buyer approving at PayPal, for the sandbox. */
export async function sandboxPaypalApprove(db: Kysely<Database>, paypalOrderId: string): Promise<boolean> {
  const result = await db
    .updateTable('sandbox_payments')
    .set({ status: 'approved' })
    .where('id', '=', paypalOrderId)
    .where('provider', '=', 'paypal')
    .where('status', '=', 'created')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export function realPaypal(config: PaypalConfig): PaypalProvider {
  async function accessToken(): Promise<string> {
    const response = await fetch(`${config.apiBase}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${config.clientId}:${config.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    if (!response.ok) throw new Error(`PayPal token request answered HTTP ${response.status}`);
    return ((await response.json()) as { access_token: string }).access_token;
  }
  async function call(path: string, payload: unknown): Promise<any> {
    const response = await fetch(`${config.apiBase}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await accessToken()}`, 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    return { ok: response.ok, status: response.status, json: await response.json().catch(() => ({})) };
  }
  return {
    mode: 'paypal',
    async createOrder(amountCents, currency, orderSn) {
      const answer = await call('/v2/checkout/orders', {
        intent: 'CAPTURE',
        purchase_units: [
          { reference_id: orderSn, amount: { currency_code: currency, value: (amountCents / 100).toFixed(2) } },
        ],
      });
      if (!answer.ok) throw new Error(`PayPal create order answered HTTP ${answer.status}`);
      const approve = (answer.json.links as { rel: string; href: string }[]).find((link) => link.rel === 'approve');
      return { id: answer.json.id as string, approveUrl: approve?.href ?? '' };
    },
    async capture(paypalOrderId) {
      const answer = await call(`/v2/checkout/orders/${encodeURIComponent(paypalOrderId)}/capture`, {});
      if (answer.status === 422) return 'pending';
      if (!answer.ok) return 'declined';
      return answer.json.status === 'COMPLETED' ? 'succeeded' : 'pending';
    },
  };
}

export const BRAINTREE_SANDBOX_NONCES = {
  valid: 'fake-valid-nonce',
  declined: 'fake-processor-declined-visa-nonce',
} as const;

export function sandboxBraintree(db: Kysely<Database>, now: () => number): BraintreeProvider {
  return {
    mode: 'sandbox',
    async clientToken() {
      return `sandbox_${randomBytes(16).toString('base64url')}`;
    },
    async charge(nonce, amountCents) {
      const outcome: ProviderOutcome = nonce === BRAINTREE_SANDBOX_NONCES.valid ? 'succeeded' : 'declined';
      const id = sandboxId('bt');
      await db
        .insertInto('sandbox_payments')
        .values({
          id,
          provider: 'braintree',
          secret: '',
          amount_cents: amountCents,
          currency: 'USD',
          status: outcome,
          created_at: now(),
        })
        .execute();
      return { id, outcome };
    },
  };
}

export function realBraintree(config: BraintreeConfig): BraintreeProvider {
  async function graphql(query: string, variables: unknown): Promise<any> {
    const response = await fetch(config.graphqlUrl, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${config.publicKey}:${config.privateKey}`).toString('base64')}`,
        'braintree-version': '2019-01-01',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ query, variables }),
    });
    if (!response.ok) throw new Error(`Braintree answered HTTP ${response.status}`);
    return response.json();
  }
  return {
    mode: 'braintree',
    async clientToken() {
      const answer = await graphql('mutation { createClientToken { clientToken } }', {});
      return answer.data.createClientToken.clientToken as string;
    },
    async charge(nonce, amountCents, orderSn) {
      const answer = await graphql(
        'mutation Charge($input: ChargePaymentMethodInput!) { chargePaymentMethod(input: $input) { transaction { id status } } }',
        {
          input: { paymentMethodId: nonce, transaction: { amount: (amountCents / 100).toFixed(2), orderId: orderSn } },
        },
      );
      const transaction = answer.data?.chargePaymentMethod?.transaction;
      const settled = ['SUBMITTED_FOR_SETTLEMENT', 'SETTLING', 'SETTLED', 'AUTHORIZED'];
      return {
        id: transaction?.id ?? '',
        outcome: transaction && settled.includes(transaction.status) ? 'succeeded' : 'declined',
      };
    },
  };
}

export function createPaymentProviders(
  config: ServerConfig,
  db: Kysely<Database>,
  now: () => number,
): PaymentProviders {
  return {
    card: config.stripeSecretKey ? stripeCard(config.stripeSecretKey) : sandboxCard(db, now),
    paypal: config.paypal ? realPaypal(config.paypal) : sandboxPaypal(db, now),
    braintree: config.braintree ? realBraintree(config.braintree) : sandboxBraintree(db, now),
  };
}

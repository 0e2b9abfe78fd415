/**
 * A local fake of Stripe's API, for the stripe SDK (host/port/protocol pointed here) and for the Stripe.js stand-in
 * it serves (browser/stripe.js, loaded as STRIPE_JS_URL). It answers as Stripe does (see stripe/stripe-mock for the
 * shapes): form-encoded requests, `Bearer sk_…` for the server and `key=pk_…` plus the client secret for the browser,
 * errors as `{error: {type, code, decline_code, message}}` with HTTP 402 for card errors, Idempotency-Key replays,
 * and events signed for the webhook endpoint (`Stripe-Signature: t=…,v1=HMAC-SHA256`).
 *
 * Test cards, as Stripe's test mode has them: 4242 4242 4242 4242 and 5555 5555 5555 4444 succeed; 4000 0000 0000
 * 0002 is declined, …9995 for insufficient funds, …0069 expired, …0127 a wrong CVC; 4000 0025 0000 3155,
 * 4000 0027 6000 3184 and 4000 0000 0000 3220 need 3-D Secure, which the challenge page completes or fails.
 */
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type FakeRequest,
  type FakeResponse,
  FakeServer,
  WebhookSender,
  html,
  json,
  parseForm,
  randomId,
  script,
} from './http-kit';

export interface StripeFakeKeys {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
}

export interface FakePaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: 'requires_payment_method' | 'requires_action' | 'succeeded' | 'canceled';
  client_secret: string;
  metadata: Record<string, string>;
  description: string | null;
  livemode: false;
  created: number;
  capture_method: 'automatic';
  confirmation_method: 'automatic';
  automatic_payment_methods: { enabled: boolean } | null;
  payment_method: string | null;
  payment_method_types: string[];
  latest_charge: string | null;
  last_payment_error: { type: string; code: string; decline_code?: string; message: string } | null;
  next_action: {
    type: 'use_stripe_sdk';
    use_stripe_sdk: { type: 'three_d_secure_redirect'; stripe_js: string };
  } | null;
  canceled_at: number | null;
}

interface FakeCharge {
  id: string;
  payment_intent: string;
  amount: number;
  amount_refunded: number;
  currency: string;
}

interface FakeRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  charge: string;
  payment_intent: string;
  status: 'succeeded' | 'pending' | 'failed';
  created: number;
  metadata: Record<string, string>;
}

type CardOutcome =
  | { kind: 'succeed'; brand: string }
  | { kind: 'decline'; code: string; decline_code?: string; message: string }
  | { kind: 'authenticate'; brand: string };

const DECLINED = 'Your card was declined.';

const CARDS: Record<string, CardOutcome> = {
  '4242424242424242': { kind: 'succeed', brand: 'visa' },
  '5555555555554444': { kind: 'succeed', brand: 'mastercard' },
  '4000000000000002': { kind: 'decline', code: 'card_declined', decline_code: 'generic_decline', message: DECLINED },
  '4000000000009995': {
    kind: 'decline',
    code: 'card_declined',
    decline_code: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  '4000000000000069': { kind: 'decline', code: 'expired_card', message: 'Your card has expired.' },
  '4000000000000127': { kind: 'decline', code: 'incorrect_cvc', message: "Your card's security code is incorrect." },
  '4000002500003155': { kind: 'authenticate', brand: 'visa' },
  '4000002760003184': { kind: 'authenticate', brand: 'visa' },
  '4000000000003220': { kind: 'authenticate', brand: 'visa' },
};

export const AUTHENTICATION_FAILED =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return digits.length >= 12 && sum % 10 === 0;
}

const now = () => Math.floor(Date.now() / 1000);

const stripeError = (status: number, error: Record<string, unknown>): FakeResponse =>
  json(status, { error: { ...error, request_log_url: null } }, { 'request-id': `req_${randomId(7)}` });

const invalid = (message: string, param?: string, code?: string) =>
  stripeError(400, { type: 'invalid_request_error', message, ...(param ? { param } : {}), ...(code ? { code } : {}) });

const missing = (id: string, kind: string) =>
  stripeError(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${kind}: '${id}'` });

export class StripeFake {
  readonly server = new FakeServer();
  readonly webhooks = new WebhookSender();
  readonly intents = new Map<string, FakePaymentIntent>();
  readonly charges = new Map<string, FakeCharge>();
  readonly refunds = new Map<string, FakeRefund>();
  /** Requests the SDK made, newest last (method and path), so a test sees what the shop asked. */
  readonly log: string[] = [];
  private readonly idempotent = new Map<string, FakeResponse>();
  private readonly standIn = readFileSync(join(__dirname, 'browser/stripe.js'), 'utf8');
  private readonly frameScript = readFileSync(join(__dirname, 'browser/stripe-frame.js'), 'utf8');

  constructor(readonly keys: StripeFakeKeys) {
    const s = this.server;
    s.on('POST', '/v1/payment_intents', (r) => this.secret(r, () => this.createIntent(parseForm(r.raw))));
    s.on('GET', '/v1/payment_intents/:id', (r) => this.retrieveIntent(r));
    s.on('POST', '/v1/payment_intents/:id/confirm', (r) => this.confirm(r));
    s.on('POST', '/v1/payment_intents/:id/cancel', (r) => this.secret(r, () => this.cancel(r.params.id)));
    s.on('POST', '/v1/refunds', (r) => this.secret(r, () => this.refund(parseForm(r.raw))));
    s.on('GET', '/v1/refunds/:id', (r) =>
      this.secret(r, () => {
        const refund = this.refunds.get(r.params.id);
        return refund ? json(200, refund) : missing(r.params.id, 'refund');
      }),
    );
    // The browser side: Stripe.js (the stand-in), the Payment Element's frame, the 3-D Secure challenge.
    s.on('GET', '/v3', () => script(this.standIn));
    s.on('GET', '/:release/stripe.js', () => script(this.standIn));
    s.on('GET', '/elements-inner-payment.html', () => html(PAYMENT_FRAME));
    s.on('GET', '/elements-frame.js', () => script(this.frameScript));
    s.on('GET', '/3ds2/challenge/:id', (r) => html(challengePage(r.params.id)));
    s.on('POST', '/3ds2/challenge/:id/complete', (r) => this.authenticate(r));
  }

  get origin(): string {
    return this.server.origin;
  }

  async start(host?: string): Promise<string> {
    return this.server.listen(host);
  }

  async close(): Promise<void> {
    await this.webhooks.settled();
    await this.server.close();
  }

  /** A server-side call: the secret key, and a replay of the first answer for an Idempotency-Key seen before. */
  private async secret(request: FakeRequest, run: () => FakeResponse | Promise<FakeResponse>): Promise<FakeResponse> {
    this.log.push(`${request.method} ${request.path}`);
    const auth = String(request.headers.authorization ?? '');
    if (auth !== `Bearer ${this.keys.secretKey}`) {
      const given = auth.replace(/^Bearer /, '');
      return stripeError(401, {
        type: 'invalid_request_error',
        message: given ? `Invalid API Key provided: ${given.slice(0, 8)}…` : 'You did not provide an API key.',
      });
    }
    const key = request.headers['idempotency-key'];
    const idempotencyKey = typeof key === 'string' && request.method === 'POST' ? `${request.path} ${key}` : '';
    if (idempotencyKey && this.idempotent.has(idempotencyKey))
      return this.idempotent.get(idempotencyKey) as FakeResponse;
    const answer = await run();
    if (idempotencyKey && answer.status < 500) this.idempotent.set(idempotencyKey, answer);
    return answer;
  }

  /** A browser-side call: the publishable key and the intent's client secret, as Stripe.js sends them. */
  private browser(params: URLSearchParams | Record<string, any>, id: string): FakePaymentIntent | FakeResponse {
    const read = (name: string) => (params instanceof URLSearchParams ? params.get(name) : params[name]);
    if (read('key') !== this.keys.publishableKey) {
      return stripeError(401, { type: 'invalid_request_error', message: 'Invalid API Key provided' });
    }
    const intent = this.intents.get(id);
    if (!intent || read('client_secret') !== intent.client_secret) return missing(id, 'payment_intent');
    return intent;
  }

  private createIntent(params: Record<string, any>): FakeResponse {
    const amount = Number(params.amount);
    if (!Number.isInteger(amount) || amount < 50) {
      return invalid('Amount must be at least $0.50 usd', 'amount', 'amount_too_small');
    }
    if (typeof params.currency !== 'string' || !/^[a-z]{3}$/.test(params.currency)) {
      return invalid('Invalid currency', 'currency');
    }
    const id = `pi_${randomId(12)}`;
    const intent: FakePaymentIntent = {
      id,
      object: 'payment_intent',
      amount,
      amount_received: 0,
      currency: params.currency,
      status: 'requires_payment_method',
      client_secret: `${id}_secret_${randomId(12)}`,
      metadata: { ...(params.metadata ?? {}) },
      description: params.description ?? null,
      livemode: false,
      created: now(),
      capture_method: 'automatic',
      confirmation_method: 'automatic',
      automatic_payment_methods: params.automatic_payment_methods ? { enabled: true } : null,
      payment_method: null,
      payment_method_types: ['card'],
      latest_charge: null,
      last_payment_error: null,
      next_action: null,
      canceled_at: null,
    };
    this.intents.set(id, intent);
    this.emit('payment_intent.created', intent);
    return json(200, intent);
  }

  private retrieveIntent(request: FakeRequest): FakeResponse {
    const { id } = request.params;
    if (request.headers.authorization) {
      this.log.push(`GET ${request.path}`);
      if (request.headers.authorization !== `Bearer ${this.keys.secretKey}`) {
        return stripeError(401, { type: 'invalid_request_error', message: 'Invalid API Key provided' });
      }
      const intent = this.intents.get(id);
      return intent ? json(200, intent) : missing(id, 'payment_intent');
    }
    const found = this.browser(request.query, id);
    return 'status' in found && typeof found.status === 'number' ? (found as FakeResponse) : json(200, found);
  }

  /** What Stripe.js's confirmPayment sends from the Payment Element: the card goes to Stripe, never to the shop. */
  private confirm(request: FakeRequest): FakeResponse {
    const params = parseForm(request.raw);
    const found = this.browser(params, request.params.id);
    if (!('object' in found)) return found as FakeResponse;
    const intent = found;
    if (intent.status === 'succeeded') {
      return invalid(
        'You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.',
        undefined,
        'payment_intent_unexpected_state',
      );
    }
    if (intent.status === 'canceled') {
      return invalid('This PaymentIntent has been canceled.', undefined, 'payment_intent_unexpected_state');
    }
    const card = params.payment_method_data?.card ?? {};
    const number = String(card.number ?? '').replace(/\D/g, '');
    const paymentMethod = `pm_${randomId(12)}`;
    intent.payment_method = paymentMethod;
    const cardError = this.checkCard(number, Number(card.exp_month), Number(card.exp_year), String(card.cvc ?? ''));
    const outcome: CardOutcome = cardError ?? CARDS[number] ?? { kind: 'succeed', brand: 'visa' };
    if (outcome.kind === 'decline') return this.decline(intent, outcome);
    if (outcome.kind === 'authenticate') {
      intent.status = 'requires_action';
      intent.next_action = {
        type: 'use_stripe_sdk',
        use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: `${this.origin}/3ds2/challenge/${intent.id}` },
      };
      this.emit('payment_intent.requires_action', intent);
      return json(200, intent);
    }
    this.succeed(intent);
    return json(200, intent);
  }

  private checkCard(number: string, month: number, year: number, cvc: string): CardOutcome | null {
    if (!luhn(number)) return { kind: 'decline', code: 'incorrect_number', message: 'Your card number is incorrect.' };
    const today = new Date();
    const fullYear = year < 100 ? 2000 + year : year;
    if (
      !(month >= 1 && month <= 12) ||
      fullYear < today.getUTCFullYear() ||
      (fullYear === today.getUTCFullYear() && month < today.getUTCMonth() + 1)
    ) {
      return { kind: 'decline', code: 'invalid_expiry_year', message: "Your card's expiration year is invalid." };
    }
    if (!/^\d{3,4}$/.test(cvc)) {
      return { kind: 'decline', code: 'invalid_cvc', message: "Your card's security code is invalid." };
    }
    return null;
  }

  private decline(intent: FakePaymentIntent, outcome: Extract<CardOutcome, { kind: 'decline' }>): FakeResponse {
    const error = {
      type: 'card_error',
      code: outcome.code,
      ...(outcome.decline_code ? { decline_code: outcome.decline_code } : {}),
      message: outcome.message,
    };
    intent.status = 'requires_payment_method';
    intent.next_action = null;
    intent.last_payment_error = error;
    this.emit('payment_intent.payment_failed', intent);
    return stripeError(402, { ...error, payment_intent: intent });
  }

  private succeed(intent: FakePaymentIntent): void {
    const charge: FakeCharge = {
      id: `ch_${randomId(12)}`,
      payment_intent: intent.id,
      amount: intent.amount,
      amount_refunded: 0,
      currency: intent.currency,
    };
    this.charges.set(charge.id, charge);
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    intent.latest_charge = charge.id;
    intent.last_payment_error = null;
    intent.next_action = null;
    this.emit('charge.succeeded', { object: 'charge', ...charge, status: 'succeeded' });
    this.emit('payment_intent.succeeded', intent);
  }

  /** The 3-D Secure challenge's answer: the bank authenticated the shopper (or not). */
  private authenticate(request: FakeRequest): FakeResponse {
    const intent = this.intents.get(request.params.id);
    if (!intent || intent.status !== 'requires_action') return missing(request.params.id, 'payment_intent');
    if (parseForm(request.raw).outcome === 'complete') {
      this.succeed(intent);
    } else {
      intent.status = 'requires_payment_method';
      intent.next_action = null;
      intent.last_payment_error = {
        type: 'card_error',
        code: 'payment_intent_authentication_failure',
        message: AUTHENTICATION_FAILED,
      };
      this.emit('payment_intent.payment_failed', intent);
    }
    return json(200, { status: intent.status });
  }

  private cancel(id: string): FakeResponse {
    const intent = this.intents.get(id);
    if (!intent) return missing(id, 'payment_intent');
    if (intent.status === 'succeeded') {
      return invalid(
        'You cannot cancel this PaymentIntent because it has a status of succeeded.',
        undefined,
        'payment_intent_unexpected_state',
      );
    }
    intent.status = 'canceled';
    intent.canceled_at = now();
    this.emit('payment_intent.canceled', intent);
    return json(200, intent);
  }

  private refund(params: Record<string, any>): FakeResponse {
    const intent = this.intents.get(String(params.payment_intent ?? ''));
    if (!intent) return missing(String(params.payment_intent ?? ''), 'payment_intent');
    const charge = intent.latest_charge ? this.charges.get(intent.latest_charge) : undefined;
    if (!charge || intent.status !== 'succeeded') {
      return invalid(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`);
    }
    const remaining = charge.amount - charge.amount_refunded;
    const amount = params.amount === undefined ? remaining : Number(params.amount);
    if (remaining === 0)
      return invalid(`Charge ${charge.id} has already been refunded.`, undefined, 'charge_already_refunded');
    if (!Number.isInteger(amount) || amount <= 0 || amount > remaining) {
      return invalid(
        `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(remaining / 100).toFixed(2)})`,
        'amount',
      );
    }
    charge.amount_refunded += amount;
    const refund: FakeRefund = {
      id: `re_${randomId(12)}`,
      object: 'refund',
      amount,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: intent.id,
      status: 'succeeded',
      created: now(),
      metadata: { ...(params.metadata ?? {}) },
    };
    this.refunds.set(refund.id, refund);
    this.emit('charge.refunded', {
      object: 'charge',
      ...charge,
      refunded: charge.amount_refunded === charge.amount,
      status: 'succeeded',
    });
    this.emit('refund.created', refund);
    return json(200, refund);
  }

  /** An event as Stripe delivers it, signed with the endpoint's secret. */
  emit(type: string, object: object): void {
    const id = `evt_${randomId(12)}`;
    const body = JSON.stringify({
      id,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: now(),
      livemode: false,
      pending_webhooks: 1,
      type,
      data: { object: structuredClone(object) },
    });
    this.webhooks.send({
      id,
      type,
      body,
      headers: { 'content-type': 'application/json', 'stripe-signature': this.sign(body) },
    });
  }

  /** `t=…,v1=…`: HMAC-SHA256 of `t.body` with the endpoint secret, as stripe.webhooks.constructEvent checks. */
  sign(body: string, timestamp = now(), secret = this.keys.webhookSecret): string {
    const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
    return `t=${timestamp},v1=${signature}`;
  }
}

/** The Payment Element's frame: the card fields live here, on Stripe's origin, never in the shop's page. */
const PAYMENT_FRAME = `<!doctype html><html><head><meta charset="utf-8"><title>Secure payment input frame</title>
<style>
body{margin:0;font:15px -apple-system,system-ui,sans-serif;color:#30313d}
label{display:block;margin:10px 0 4px;font-size:13px}
input{box-sizing:border-box;width:100%;padding:10px;border:1px solid #e6e6e6;border-radius:5px;font:inherit}
input[aria-invalid=true]{border-color:#df1b41}
.row{display:flex;gap:10px}.row>div{flex:1}
.error{color:#df1b41;font-size:13px;min-height:16px;margin-top:6px}
.tab{display:inline-block;padding:8px 12px;border:1px solid #0570de;border-radius:5px;color:#0570de;font-weight:600}
</style></head><body>
<div class="tab">Card</div>
<label for="number">Card number</label><input id="number" name="number" autocomplete="cc-number" inputmode="numeric" placeholder="1234 1234 1234 1234">
<div class="row"><div><label for="expiry">Expiration date</label><input id="expiry" name="expiry" autocomplete="cc-exp" inputmode="numeric" placeholder="MM / YY"></div>
<div><label for="cvc">Security code</label><input id="cvc" name="cvc" autocomplete="cc-csc" inputmode="numeric" placeholder="CVC"></div></div>
<div class="error" id="error" role="alert"></div>
<script src="/elements-frame.js"></script>
</body></html>`;

function challengePage(id: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>3D Secure 2 Test Page</title>
<style>body{font:15px system-ui,sans-serif;margin:24px;color:#30313d}button{display:block;width:100%;margin:10px 0;padding:12px;font:inherit;border-radius:6px;border:1px solid #0570de}
#complete{background:#0570de;color:#fff}</style></head><body>
<h3>3D Secure 2 Test Page</h3><p>This is a test authentication: no bank is asked.</p>
<button id="complete">Complete authentication</button><button id="fail">Fail authentication</button>
<script>
for (const outcome of ['complete', 'fail']) {
  document.getElementById(outcome).addEventListener('click', async () => {
    await fetch('/3ds2/challenge/${encodeURIComponent(id)}/complete', {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'outcome=' + outcome,
    });
    parent.postMessage({ stripeStandIn: 'challenge-done', intent: ${JSON.stringify(id)} }, '*');
  });
}
</script></body></html>`;
}

/**
 * A local fake of Braintree's gateway (BRAINTREE_GATEWAY_URL in tests and the demo) for the braintree SDK, which
 * speaks to it as to Braintree: JSON requests, XML answers (`<transaction>`, `<api-error-response>` with validation
 * errors, processor declines and gateway rejections), client tokens, sale, refund, void, find, and webhook
 * notifications signed as webhookNotification.parse verifies them (`public_key|HMAC-SHA1(SHA1(private_key),
 * payload)`). It also serves the drop-in stand-in (browser/dropin.js, BRAINTREE_DROPIN_URL), its card frame, and the
 * client API the drop-in tokenizes cards and runs 3-D Secure lookups with.
 *
 * Test cards as Braintree's sandbox has them: 4111 1111 1111 1111 succeeds, 4000 1111 1111 1115 is declined by the
 * processor (2000 Do Not Honor), as is any amount from 2000.00 to 2999.99; 4000 0000 0000 1091 needs a 3-D Secure
 * challenge; every other card passes 3-D Secure frictionless. The documented fake nonces work too
 * (fake-valid-nonce, fake-processor-declined-visa-nonce, fake-three-d-secure-visa-full-authentication-nonce).
 */
import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type FakeRequest,
  type FakeResponse,
  FakeServer,
  WebhookSender,
  alphanumeric,
  html,
  json,
  script,
} from './http-kit';

export interface BraintreeFakeKeys {
  merchantId: string;
  publicKey: string;
  privateKey: string;
}

interface FakeNonce {
  card: string;
  consumed: boolean;
  /** 3-D Secure: not asked, a challenge pending, or authenticated (liability shifted). */
  threeDSecure: 'none' | 'challenge' | 'authenticated' | 'failed';
}

export interface FakeBraintreeTransaction {
  id: string;
  type: 'sale' | 'credit';
  status: 'authorized' | 'submitted_for_settlement' | 'settled' | 'voided' | 'processor_declined' | 'gateway_rejected';
  amount: string;
  orderId: string;
  card: string;
  processorResponseCode: string;
  processorResponseText: string;
  gatewayRejectionReason: string | null;
  refundIds: string[];
  refundedTransactionId: string | null;
  liabilityShifted: boolean;
  createdAt: string;
  updatedAt: string;
}

const FAKE_NONCES: Record<string, Omit<FakeNonce, 'consumed'>> = {
  'fake-valid-nonce': { card: '4111111111111111', threeDSecure: 'none' },
  'fake-valid-visa-nonce': { card: '4111111111111111', threeDSecure: 'none' },
  'fake-processor-declined-visa-nonce': { card: '4000111111111115', threeDSecure: 'none' },
  'fake-three-d-secure-visa-full-authentication-nonce': { card: '4000000000001000', threeDSecure: 'authenticated' },
};

const DECLINED_CARD = '4000111111111115';
const CHALLENGE_CARD = '4000000000001091';

const escapeXml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Braintree's XML: kebab-case elements, `type` attributes for arrays, booleans, integers and datetimes. */
function toXml(name: string, value: unknown): string {
  if (value === null || value === undefined) return `<${name} nil="true"/>`;
  if (Array.isArray(value)) {
    return `<${name} type="array">${value.map((item) => toXml('item', item)).join('')}</${name}>`;
  }
  if (typeof value === 'boolean') return `<${name} type="boolean">${value}</${name}>`;
  if (typeof value === 'number') return `<${name} type="integer">${value}</${name}>`;
  if (typeof value === 'object') {
    return `<${name}>${Object.entries(value as Record<string, unknown>)
      .map(([key, item]) => toXml(key, item))
      .join('')}</${name}>`;
  }
  const text = String(value);
  if (/^\d{4}-\d{2}-\d{2}T/.test(text)) return `<${name} type="datetime">${escapeXml(text)}</${name}>`;
  return `<${name}>${escapeXml(text)}</${name}>`;
}

const xml = (status: number, name: string, value: unknown): FakeResponse => ({
  status,
  type: 'application/xml; charset=utf-8',
  body: `<?xml version="1.0" encoding="UTF-8"?>\n${toXml(name, value)}`,
});

const isoNow = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
const toCents = (amount: string) => Math.round(Number(amount) * 100);

export class BraintreeFake {
  readonly server = new FakeServer();
  readonly webhooks = new WebhookSender();
  readonly transactions = new Map<string, FakeBraintreeTransaction>();
  readonly nonces = new Map<string, FakeNonce>();
  /** A sale settles at once and its transaction_settled notification reaches the shop before the sale answers. */
  settleOnSale = false;
  /** How long a sale takes to answer (a slow processor), so a test can leave before the answer comes. */
  saleDelayMs = 0;
  /** Sales asked for so far, answered or not. */
  salesAsked = 0;
  private readonly fingerprints = new Set<string>();
  private readonly standIn = readFileSync(join(__dirname, 'browser/dropin.js'), 'utf8');
  private readonly frameScript = readFileSync(join(__dirname, 'browser/dropin-frame.js'), 'utf8');

  constructor(readonly keys: BraintreeFakeKeys) {
    const s = this.server;
    const base = `/merchants/${keys.merchantId}`;
    s.on('POST', `${base}/client_token`, (r) => this.gateway(r, () => this.clientToken()));
    s.on('POST', `${base}/transactions`, (r) => this.gateway(r, () => this.sale(r)));
    s.on('GET', `${base}/transactions/:id`, (r) =>
      this.gateway(r, () => {
        const transaction = this.transactions.get(r.params.id);
        return transaction
          ? xml(200, 'transaction', this.view(transaction))
          : { status: 404, type: 'text/plain', body: '' };
      }),
    );
    s.on('POST', `${base}/transactions/:id/refund`, (r) => this.gateway(r, () => this.refund(r)));
    s.on('PUT', `${base}/transactions/:id/void`, (r) => this.gateway(r, () => this.void(r.params.id)));
    s.on('PUT', `${base}/transactions/:id/settle`, (r) =>
      this.gateway(r, () => {
        const transaction = this.settle(r.params.id);
        return transaction
          ? xml(200, 'transaction', this.view(transaction))
          : { status: 404, type: 'text/plain', body: '' };
      }),
    );
    // The client API the drop-in uses (authorized by the client token's fingerprint), and the drop-in itself.
    s.on('GET', `${base}/client_api/v1/configuration`, (r) =>
      this.client(r.query.get('authorizationFingerprint'), () =>
        json(200, {
          merchantId: keys.merchantId,
          environment: 'sandbox',
          threeDSecureEnabled: true,
          challenges: ['cvv'],
        }),
      ),
    );
    s.on('POST', `${base}/client_api/v1/payment_methods/credit_cards`, (r) => this.tokenize(r));
    s.on('POST', `${base}/client_api/v1/payment_methods/:nonce/three_d_secure/lookup`, (r) => this.lookup(r));
    s.on('POST', `${base}/client_api/v1/three_d_secure/:nonce/authenticate`, (r) => this.authenticate(r));
    s.on('GET', '/web/dropin/:version/js/dropin.min.js', () => script(this.standIn));
    s.on('GET', '/web/dropin/card-frame.html', () => html(CARD_FRAME));
    s.on('GET', '/web/dropin/card-frame.js', () => script(this.frameScript));
    s.on('GET', '/3ds/challenge/:nonce', (r) => html(challengePage(keys.merchantId, r.params.nonce)));
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

  private gateway(request: FakeRequest, run: () => FakeResponse | Promise<FakeResponse>) {
    const expected = `Basic ${Buffer.from(`${this.keys.publicKey}:${this.keys.privateKey}`).toString('base64')}`;
    if (request.headers.authorization !== expected) return { status: 401, type: 'text/plain', body: '' };
    return run();
  }

  private client(fingerprint: string | null | undefined, run: () => FakeResponse | Promise<FakeResponse>) {
    if (!fingerprint || !this.fingerprints.has(fingerprint)) {
      return json(401, { error: { message: 'Authorization fingerprint is invalid' }, fieldErrors: [] });
    }
    return run();
  }

  private body(request: FakeRequest): any {
    try {
      return request.raw ? JSON.parse(request.raw) : {};
    } catch {
      return {};
    }
  }

  private clientToken(): FakeResponse {
    const fingerprint = alphanumeric(64);
    this.fingerprints.add(fingerprint);
    const base = `${this.origin}/merchants/${this.keys.merchantId}`;
    const token = {
      version: 2,
      authorizationFingerprint: fingerprint,
      configUrl: `${base}/client_api/v1/configuration`,
      clientApiUrl: `${base}/client_api`,
      assetsUrl: this.origin,
      environment: 'sandbox',
      merchantId: this.keys.merchantId,
      threeDSecureEnabled: true,
    };
    return xml(201, 'client-token', { value: Buffer.from(JSON.stringify(token)).toString('base64') });
  }

  private newNonce(entry: FakeNonce): string {
    const nonce = `tokencc_${alphanumeric(6)}_${alphanumeric(6)}_${alphanumeric(6)}_${alphanumeric(6)}_${alphanumeric(3)}`;
    this.nonces.set(nonce, entry);
    return nonce;
  }

  private cardDetails(card: string) {
    const type = card.startsWith('5') ? 'MasterCard' : 'Visa';
    return { cardType: type, lastFour: card.slice(-4), lastTwo: card.slice(-2), bin: card.slice(0, 6) };
  }

  /** The drop-in's card tokenization: the card goes to the provider, the shop gets a one-time nonce. */
  private tokenize(request: FakeRequest): FakeResponse | Promise<FakeResponse> {
    const body = this.body(request);
    return this.client(body.authorizationFingerprint, () => {
      const card = String(body.creditCard?.number ?? '').replace(/\D/g, '');
      const expiration = String(body.creditCard?.expirationDate ?? '');
      const problems: { field: string; message: string }[] = [];
      if (!/^\d{12,19}$/.test(card)) problems.push({ field: 'number', message: 'Credit card number is invalid.' });
      if (!/^\d{2}\/\d{2,4}$/.test(expiration)) {
        problems.push({ field: 'expirationDate', message: 'Expiration date is invalid.' });
      }
      if (problems.length > 0) {
        return json(422, {
          error: { message: problems.map((p) => p.message).join(' ') },
          fieldErrors: [{ field: 'creditCard', fieldErrors: problems }],
        });
      }
      const nonce = this.newNonce({ card, consumed: false, threeDSecure: 'none' });
      return json(201, {
        creditCards: [
          {
            nonce,
            type: 'CreditCard',
            description: `ending in ${card.slice(-2)}`,
            details: this.cardDetails(card),
            threeDSecureInfo: null,
          },
        ],
      });
    });
  }

  /** The 3-D Secure lookup the drop-in runs before handing over the nonce. */
  private lookup(request: FakeRequest): FakeResponse | Promise<FakeResponse> {
    const body = this.body(request);
    return this.client(body.authorizationFingerprint, () => {
      const entry = this.nonces.get(request.params.nonce);
      if (!entry || entry.consumed)
        return json(422, { error: { message: 'Unknown or expired payment_method_nonce.' } });
      const challenge = entry.card === CHALLENGE_CARD;
      const next: FakeNonce = {
        card: entry.card,
        consumed: false,
        threeDSecure: challenge ? 'challenge' : 'authenticated',
      };
      entry.consumed = true;
      const nonce = this.newNonce(next);
      return json(201, {
        lookup: challenge ? { acsUrl: `${this.origin}/3ds/challenge/${nonce}` } : { acsUrl: null },
        paymentMethod: {
          nonce,
          type: 'CreditCard',
          details: this.cardDetails(entry.card),
          threeDSecureInfo: {
            liabilityShifted: !challenge,
            liabilityShiftPossible: true,
            status: challenge ? 'challenge_required' : 'authenticate_successful',
          },
        },
      });
    });
  }

  private authenticate(request: FakeRequest): FakeResponse {
    const body = this.body(request);
    const entry = this.nonces.get(request.params.nonce);
    if (!entry || entry.threeDSecure === 'none') return json(422, { error: { message: 'Unknown nonce.' } });
    // The challenge page answers once (`outcome`); the drop-in then asks for the result.
    if (entry.threeDSecure === 'challenge') {
      if (!body.outcome) return json(422, { error: { message: 'The 3-D Secure challenge was not answered.' } });
      entry.threeDSecure = body.outcome === 'complete' ? 'authenticated' : 'failed';
    }
    const shifted = entry.threeDSecure === 'authenticated';
    return json(200, {
      paymentMethod: {
        nonce: request.params.nonce,
        type: 'CreditCard',
        details: this.cardDetails(entry.card),
        threeDSecureInfo: {
          liabilityShifted: shifted,
          liabilityShiftPossible: true,
          status: shifted ? 'authenticate_successful' : 'authenticate_failed',
        },
      },
    });
  }

  private validationError(attribute: string, code: string, message: string, params: unknown): FakeResponse {
    return xml(422, 'api-error-response', {
      errors: { transaction: { errors: [{ attribute, code, message }] }, errors: [] },
      params,
      message,
    });
  }

  private async sale(request: FakeRequest): Promise<FakeResponse> {
    this.salesAsked += 1;
    if (this.saleDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.saleDelayMs));
    const input = this.body(request).transaction ?? {};
    const amount = String(input.amount ?? '');
    const nonceId = String(input.payment_method_nonce ?? '');
    const params = { transaction: { type: 'sale', amount, 'order-id': input.order_id ?? null } };
    if (!/^\d{1,10}(\.\d{1,2})?$/.test(amount) || Number(amount) <= 0) {
      return this.validationError('amount', '81503', 'Amount is an invalid format.', params);
    }
    const fake = FAKE_NONCES[nonceId];
    const entry = fake ? { ...fake, consumed: false } : this.nonces.get(nonceId);
    if (!entry) return this.validationError('payment_method_nonce', '91565', 'Unknown payment_method_nonce.', params);
    if (entry.consumed) {
      return this.validationError(
        'payment_method_nonce',
        '93107',
        'Cannot use a payment_method_nonce more than once.',
        params,
      );
    }
    if (!fake) entry.consumed = true;
    const time = isoNow();
    const transaction: FakeBraintreeTransaction = {
      id: alphanumeric(8),
      type: 'sale',
      status: input.options?.submit_for_settlement ? 'submitted_for_settlement' : 'authorized',
      amount: Number(amount).toFixed(2),
      orderId: String(input.order_id ?? ''),
      card: entry.card,
      processorResponseCode: '1000',
      processorResponseText: 'Approved',
      gatewayRejectionReason: null,
      refundIds: [],
      refundedTransactionId: null,
      liabilityShifted: entry.threeDSecure === 'authenticated',
      createdAt: time,
      updatedAt: time,
    };
    this.transactions.set(transaction.id, transaction);
    const cents = toCents(amount);
    if (input.options?.three_d_secure?.required && entry.threeDSecure !== 'authenticated') {
      transaction.status = 'gateway_rejected';
      transaction.gatewayRejectionReason = 'three_d_secure';
      transaction.processorResponseCode = '';
      transaction.processorResponseText = 'Unknown ()';
      return xml(422, 'api-error-response', {
        errors: { errors: [] },
        params,
        message: 'Gateway Rejected: three_d_secure',
        transaction: this.view(transaction),
      });
    }
    if (entry.card === DECLINED_CARD || (cents >= 200000 && cents < 300000)) {
      transaction.status = 'processor_declined';
      transaction.processorResponseCode = entry.card === DECLINED_CARD ? '2000' : String(Math.floor(cents / 100));
      transaction.processorResponseText = 'Do Not Honor';
      return xml(422, 'api-error-response', {
        errors: { errors: [] },
        params,
        message: 'Do Not Honor',
        transaction: this.view(transaction),
      });
    }
    if (this.settleOnSale && transaction.status === 'submitted_for_settlement') {
      this.settle(transaction.id);
      await this.webhooks.settled();
    }
    return xml(201, 'transaction', this.view(transaction));
  }

  /** Braintree settles submitted transactions in its batch; here a test (or the demo) says when. */
  settle(id: string): FakeBraintreeTransaction | null {
    const transaction = this.transactions.get(id);
    if (!transaction || transaction.status !== 'submitted_for_settlement') return null;
    transaction.status = 'settled';
    transaction.updatedAt = isoNow();
    this.notify('transaction_settled', transaction);
    return transaction;
  }

  private refund(request: FakeRequest): FakeResponse {
    const original = this.transactions.get(request.params.id);
    if (!original) return { status: 404, type: 'text/plain', body: '' };
    const input = this.body(request).transaction ?? {};
    const params = { transaction: { amount: input.amount ?? null } };
    if (original.status !== 'settled') {
      return this.validationError('base', '91506', 'Cannot refund transaction unless it is settled.', params);
    }
    const refunded = original.refundIds.reduce((sum, id) => sum + toCents(this.transactions.get(id)?.amount ?? '0'), 0);
    const remaining = toCents(original.amount) - refunded;
    const amount = input.amount === undefined ? remaining : toCents(String(input.amount));
    if (remaining === 0)
      return this.validationError('base', '91512', 'Transaction has already been completely refunded.', params);
    if (!(amount > 0) || amount > remaining) {
      return this.validationError('amount', '91521', 'Refund amount is too large.', params);
    }
    const time = isoNow();
    const credit: FakeBraintreeTransaction = {
      ...original,
      id: alphanumeric(8),
      type: 'credit',
      status: 'submitted_for_settlement',
      amount: (amount / 100).toFixed(2),
      refundIds: [],
      refundedTransactionId: original.id,
      createdAt: time,
      updatedAt: time,
    };
    this.transactions.set(credit.id, credit);
    original.refundIds.push(credit.id);
    return xml(201, 'transaction', this.view(credit));
  }

  private void(id: string): FakeResponse {
    const transaction = this.transactions.get(id);
    if (!transaction) return { status: 404, type: 'text/plain', body: '' };
    if (transaction.status !== 'authorized' && transaction.status !== 'submitted_for_settlement') {
      return this.validationError(
        'base',
        '91504',
        'Transaction can only be voided if status is authorized, submitted_for_settlement, or - for PayPal - settlement_pending.',
        { transaction: {} },
      );
    }
    transaction.status = 'voided';
    transaction.updatedAt = isoNow();
    return xml(200, 'transaction', this.view(transaction));
  }

  view(transaction: FakeBraintreeTransaction) {
    return {
      id: transaction.id,
      status: transaction.status,
      type: transaction.type,
      'currency-iso-code': 'USD',
      amount: transaction.amount,
      'merchant-account-id': `${this.keys.merchantId}_usd`,
      'order-id': transaction.orderId || null,
      'created-at': transaction.createdAt,
      'updated-at': transaction.updatedAt,
      'processor-response-code': transaction.processorResponseCode,
      'processor-response-text': transaction.processorResponseText,
      'gateway-rejection-reason': transaction.gatewayRejectionReason,
      'refund-ids': transaction.refundIds,
      'refunded-transaction-id': transaction.refundedTransactionId,
      'payment-instrument-type': 'credit_card',
      'credit-card': {
        bin: transaction.card.slice(0, 6),
        'last-4': transaction.card.slice(-4),
        'card-type': transaction.card.startsWith('5') ? 'MasterCard' : 'Visa',
      },
      'three-d-secure-info': transaction.liabilityShifted
        ? { 'liability-shifted': true, 'liability-shift-possible': true, status: 'authenticate_successful' }
        : null,
    };
  }

  /** A webhook notification as Braintree posts it: form fields bt_signature and bt_payload. */
  notify(kind: string, transaction: FakeBraintreeTransaction): void {
    const payload = `${Buffer.from(
      `<notification><timestamp type="datetime">${isoNow()}</timestamp><kind>${kind}</kind><subject>${toXml(
        'transaction',
        this.view(transaction),
      )}</subject></notification>`,
    ).toString('base64')}\n`;
    const body = new URLSearchParams({ bt_signature: this.sign(payload), bt_payload: payload }).toString();
    this.webhooks.send({
      id: `${kind}:${transaction.id}`,
      type: kind,
      body,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  }

  sign(payload: string, privateKey = this.keys.privateKey): string {
    const key = createHash('sha1').update(privateKey).digest();
    return `${this.keys.publicKey}|${createHmac('sha1', key).update(payload).digest('hex')}`;
  }
}

/** The drop-in's card frame (Braintree's hosted fields live on its origin, not the shop's). */
const CARD_FRAME = `<!doctype html><html><head><meta charset="utf-8"><title>Secure Credit Card Frame</title>
<style>body{margin:0;font:15px system-ui,sans-serif;color:#000}label{display:block;margin:8px 0 4px;font-size:13px}
input{box-sizing:border-box;width:100%;padding:10px;border:1px solid #b5b5b5;border-radius:4px;font:inherit}
.row{display:flex;gap:10px}.row>div{flex:1}.error{color:#d00;font-size:13px;min-height:16px;margin-top:6px}</style></head>
<body><label for="credit-card-number">Card Number</label><input id="credit-card-number" autocomplete="cc-number" inputmode="numeric" placeholder="•••• •••• •••• ••••">
<div class="row"><div><label for="expiration">Expiration Date (MM/YY)</label><input id="expiration" autocomplete="cc-exp" inputmode="numeric" placeholder="MM/YY"></div>
<div><label for="cvv">CVV (3 digits)</label><input id="cvv" autocomplete="cc-csc" inputmode="numeric" placeholder="•••"></div></div>
<div class="error" role="alert" id="error"></div><script src="/web/dropin/card-frame.js"></script></body></html>`;

function challengePage(merchantId: string, nonce: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Authentication</title>
<style>body{font:15px system-ui,sans-serif;margin:24px}button{display:block;width:100%;margin:10px 0;padding:12px;font:inherit}</style></head>
<body><h3>Cardinal Commerce test challenge</h3><p>Your bank asks you to confirm this purchase.</p>
<button id="complete">Submit</button><button id="fail">Fail authentication</button>
<script>
for (const outcome of ['complete', 'fail']) {
  document.getElementById(outcome).addEventListener('click', async () => {
    await fetch('/merchants/${merchantId}/client_api/v1/three_d_secure/${encodeURIComponent(nonce)}/authenticate', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ outcome }),
    });
    parent.postMessage({ braintreeStandIn: 'challenge-done' }, '*');
  });
}
</script></body></html>`;
}

/**
 * A local fake of PayPal's REST API (PAYPAL_API_BASE in tests and the demo) and of its buyer-facing side (the JS SDK
 * stand-in at /sdk/js, the buttons' frame, the approval pop-up at /checkoutnow). It answers as PayPal does: OAuth
 * client credentials, Orders v2 (create, get, capture: 201 COMPLETED, or 422 with ORDER_NOT_APPROVED,
 * INSTRUMENT_DECLINED, PAYER_ACTION_REQUIRED, ORDER_ALREADY_CAPTURED), captures refunds (REFUND_AMOUNT_EXCEEDED),
 * PayPal-Request-Id replays, and webhooks signed with SHA256withRSA over `transmission id|time|webhook id|crc32(body)`
 * that only /v1/notifications/verify-webhook-signature can check.
 *
 * On the approval page the buyer pays with PayPal, with a card the bank declines, or with one that asks for a
 * verification first (PAYER_ACTION_REQUIRED at capture, then approved again through `actions.restart()`).
 */
import { createSign, createVerify, generateKeyPairSync, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
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

export interface PaypalFakeKeys {
  clientId: string;
  clientSecret: string;
  webhookId: string;
}

/** How the buyer funds the payment on the approval page. */
export type PaypalFunding = 'balance' | 'declined_card' | 'verification_card' | 'verified';

interface Money {
  currency_code: string;
  value: string;
}

interface FakeCapture {
  id: string;
  orderId: string;
  status: 'COMPLETED' | 'PARTIALLY_REFUNDED' | 'REFUNDED';
  amount: Money;
  refundedCents: number;
  custom_id?: string;
  create_time: string;
}

export interface FakePaypalOrder {
  id: string;
  intent: 'CAPTURE';
  status: 'CREATED' | 'APPROVED' | 'PAYER_ACTION_REQUIRED' | 'COMPLETED';
  purchase_units: { reference_id: string; custom_id?: string; amount: Money }[];
  payer: { payer_id: string; email_address: string; name: { given_name: string; surname: string } } | null;
  funding: PaypalFunding | null;
  capture: FakeCapture | null;
  create_time: string;
  update_time: string;
}

const cents = (value: string) => Math.round(Number(value) * 100);
const isoNow = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

function problem(status: number, name: string, issue: string, description: string, message: string): FakeResponse {
  return json(status, {
    name,
    details: [{ issue, description }],
    message,
    debug_id: alphanumeric(13),
    links: [{ href: `https://developer.paypal.com/docs/api/orders/v2/#error-${issue}`, rel: 'information_link' }],
  });
}

const unprocessable = (issue: string, description: string) =>
  problem(
    422,
    'UNPROCESSABLE_ENTITY',
    issue,
    description,
    'The requested action could not be performed, semantically incorrect, or failed business validation.',
  );

const notFound = (id: string) =>
  problem(
    404,
    'RESOURCE_NOT_FOUND',
    'INVALID_RESOURCE_ID',
    `Specified resource ID ${id} does not exist.`,
    'The specified resource does not exist.',
  );

const invalidRequest = (field: string, description: string) =>
  json(400, {
    name: 'INVALID_REQUEST',
    message: 'Request is not well-formed, syntactically incorrect, or violates schema.',
    debug_id: alphanumeric(13),
    details: [{ field, issue: 'INVALID_PARAMETER_VALUE', description }],
  });

export class PaypalFake {
  readonly server = new FakeServer();
  readonly webhooks = new WebhookSender();
  readonly orders = new Map<string, FakePaypalOrder>();
  readonly captures = new Map<string, FakeCapture>();
  readonly refunds = new Map<string, { id: string; status: 'COMPLETED'; amount: Money; captureId: string }>();
  /** Verification calls the shop made, with PayPal's answer. */
  readonly verifications: ('SUCCESS' | 'FAILURE')[] = [];
  private readonly tokens = new Set<string>();
  private readonly idempotent = new Map<string, FakeResponse>();
  private readonly signingKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  private readonly standIn = readFileSync(join(__dirname, 'browser/paypal.js'), 'utf8');
  private readonly buttonFrame = readFileSync(join(__dirname, 'browser/paypal-buttons.js'), 'utf8');

  constructor(readonly keys: PaypalFakeKeys) {
    const s = this.server;
    s.on('POST', '/v1/oauth2/token', (r) => this.token(r));
    s.on('POST', '/v2/checkout/orders', (r) => this.authorized(r, () => this.createOrder(r)));
    s.on('GET', '/v2/checkout/orders/:id', (r) =>
      this.authorized(r, () => {
        const order = this.orders.get(r.params.id);
        return order ? json(200, this.orderView(order)) : notFound(r.params.id);
      }),
    );
    s.on('POST', '/v2/checkout/orders/:id/capture', (r) => this.authorized(r, () => this.capture(r.params.id)));
    s.on('POST', '/v2/payments/captures/:id/refund', (r) => this.authorized(r, () => this.refund(r)));
    s.on('GET', '/v2/payments/captures/:id', (r) =>
      this.authorized(r, () => {
        const capture = this.captures.get(r.params.id);
        return capture ? json(200, this.captureView(capture)) : notFound(r.params.id);
      }),
    );
    s.on('GET', '/v2/payments/refunds/:id', (r) =>
      this.authorized(r, () => {
        const refund = this.refunds.get(r.params.id);
        return refund ? json(200, refund) : notFound(r.params.id);
      }),
    );
    s.on('POST', '/v1/notifications/verify-webhook-signature', (r) => this.authorized(r, () => this.verify(r)));
    s.on('GET', '/v1/notifications/certs/:name', () => ({
      status: 200,
      type: 'application/x-pem-file',
      body: this.signingKeys.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    }));
    // The buyer's side: the JS SDK stand-in, the buttons' frame, the approval pop-up.
    s.on('GET', '/sdk/js', () => script(this.standIn));
    s.on('GET', '/smart/buttons', () => html(BUTTON_FRAME));
    s.on('GET', '/smart/buttons.js', () => script(this.buttonFrame));
    s.on('GET', '/checkoutnow', (r) => this.approvalPage(r.query.get('token') ?? ''));
    s.on('POST', '/checkoutnow/:id/approve', (r) => {
      const funding = (new URLSearchParams(r.raw).get('funding') ?? 'balance') as PaypalFunding;
      return this.approve(r.params.id, funding) ? json(200, { approved: true }) : notFound(r.params.id);
    });
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

  private token(request: FakeRequest): FakeResponse {
    const expected = `Basic ${Buffer.from(`${this.keys.clientId}:${this.keys.clientSecret}`).toString('base64')}`;
    if (request.headers.authorization !== expected) {
      return json(401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
    }
    if (new URLSearchParams(request.raw).get('grant_type') !== 'client_credentials') {
      return json(400, { error: 'unsupported_grant_type', error_description: 'Grant Type is NULL' });
    }
    const token = `A21AA${alphanumeric(60)}`;
    this.tokens.add(token);
    return json(200, {
      scope: 'https://uri.paypal.com/services/payments/payment https://uri.paypal.com/services/payments/refund',
      access_token: token,
      token_type: 'Bearer',
      app_id: 'APP-80W284485P519543T',
      expires_in: 32400,
      nonce: `${isoNow()}${alphanumeric(20)}`,
    });
  }

  private async authorized(
    request: FakeRequest,
    run: () => FakeResponse | Promise<FakeResponse>,
  ): Promise<FakeResponse> {
    const token = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
    if (!this.tokens.has(token)) {
      return json(401, {
        name: 'AUTHENTICATION_FAILURE',
        message: 'Authentication failed due to invalid authentication credentials or a missing Authorization header.',
        debug_id: alphanumeric(13),
        details: [],
      });
    }
    const requestId = request.headers['paypal-request-id'];
    const key = typeof requestId === 'string' && request.method === 'POST' ? `${request.path} ${requestId}` : '';
    if (key && this.idempotent.has(key)) return this.idempotent.get(key) as FakeResponse;
    const answer = await run();
    // PayPal keeps the answer of a request that went through; a refused one may be sent again with the same id.
    if (key && answer.status >= 200 && answer.status < 300) this.idempotent.set(key, answer);
    return answer;
  }

  /** An order as the REST API creates it; also what a buyer's browser makes with the JS SDK's client-side create. */
  createOrderDirect(unit: { reference_id: string; custom_id?: string; amount: Money }): FakePaypalOrder {
    const order: FakePaypalOrder = {
      id: alphanumeric(17, true),
      intent: 'CAPTURE',
      status: 'CREATED',
      purchase_units: [unit],
      payer: null,
      funding: null,
      capture: null,
      create_time: isoNow(),
      update_time: isoNow(),
    };
    this.orders.set(order.id, order);
    return order;
  }

  private createOrder(request: FakeRequest): FakeResponse {
    let body: any;
    try {
      body = JSON.parse(request.raw);
    } catch {
      return invalidRequest('/', 'MALFORMED_REQUEST_JSON');
    }
    if (body?.intent !== 'CAPTURE' && body?.intent !== 'AUTHORIZE')
      return invalidRequest('/intent', 'Intent is invalid.');
    const unit = body.purchase_units?.[0];
    const amount = unit?.amount;
    if (!amount || !/^[A-Z]{3}$/.test(amount.currency_code ?? '') || !/^\d+(\.\d{2})?$/.test(amount.value ?? '')) {
      return invalidRequest("/purchase_units/@reference_id=='default'/amount", 'The amount is invalid.');
    }
    if (cents(amount.value) <= 0) return unprocessable('AMOUNT_MISMATCH', 'The amount must be positive.');
    const order = this.createOrderDirect({
      reference_id: String(unit.reference_id ?? 'default'),
      ...(unit.custom_id ? { custom_id: String(unit.custom_id) } : {}),
      amount: { currency_code: amount.currency_code, value: amount.value },
    });
    return json(201, this.orderView(order));
  }

  /** The buyer approved on the pop-up (what the approval page posts). */
  approve(id: string, funding: PaypalFunding): boolean {
    const order = this.orders.get(id);
    if (!order || order.status === 'COMPLETED') return false;
    order.status = 'APPROVED';
    order.funding = order.funding === 'verification_card' && funding === 'verified' ? 'verified' : funding;
    order.payer = {
      payer_id: 'QYR5Z8XDVJNXQ',
      email_address: 'sb-buyer@personal.example.com',
      name: { given_name: 'Sandbox', surname: 'Buyer' },
    };
    order.update_time = isoNow();
    this.emit('CHECKOUT.ORDER.APPROVED', 'checkout-order', this.orderView(order));
    return true;
  }

  private capture(id: string): FakeResponse {
    const order = this.orders.get(id);
    if (!order) return notFound(id);
    if (order.status === 'COMPLETED') {
      return unprocessable(
        'ORDER_ALREADY_CAPTURED',
        "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed.",
      );
    }
    if (order.status === 'CREATED') {
      return unprocessable(
        'ORDER_NOT_APPROVED',
        "Payer has not yet approved the Order for payment. Please redirect the payer to the 'rel':'approve' url returned as part of the HATEOAS links within the Create Order call or provide a valid payment_source in the request.",
      );
    }
    if (order.funding === 'declined_card') {
      return unprocessable(
        'INSTRUMENT_DECLINED',
        "The instrument presented  was either declined by the processor or bank, or it can't be used for this payment.",
      );
    }
    if (order.funding === 'verification_card' || order.status === 'PAYER_ACTION_REQUIRED') {
      order.status = 'PAYER_ACTION_REQUIRED';
      return unprocessable(
        'PAYER_ACTION_REQUIRED',
        'Transaction cannot complete successfully, instruct the buyer to return to PayPal.',
      );
    }
    const unit = order.purchase_units[0];
    const capture: FakeCapture = {
      id: alphanumeric(17, true),
      orderId: order.id,
      status: 'COMPLETED',
      amount: { ...unit.amount },
      refundedCents: 0,
      ...(unit.custom_id ? { custom_id: unit.custom_id } : {}),
      create_time: isoNow(),
    };
    this.captures.set(capture.id, capture);
    order.capture = capture;
    order.status = 'COMPLETED';
    order.update_time = isoNow();
    this.emit('PAYMENT.CAPTURE.COMPLETED', 'capture', this.captureView(capture));
    return json(201, this.orderView(order));
  }

  private refund(request: FakeRequest): FakeResponse {
    const capture = this.captures.get(request.params.id);
    if (!capture) return notFound(request.params.id);
    let body: any = {};
    try {
      body = request.raw ? JSON.parse(request.raw) : {};
    } catch {
      return invalidRequest('/', 'MALFORMED_REQUEST_JSON');
    }
    const remaining = cents(capture.amount.value) - capture.refundedCents;
    const amount = body.amount ? cents(String(body.amount.value)) : remaining;
    if (capture.status === 'REFUNDED') {
      return unprocessable('CAPTURE_FULLY_REFUNDED', 'The capture has already been fully refunded');
    }
    if (body.amount && body.amount.currency_code !== capture.amount.currency_code) {
      return unprocessable('REFUND_CURRENCY_MISMATCH', 'Refund must be in the same currency as the capture.');
    }
    if (!(amount > 0) || amount > remaining) {
      return unprocessable(
        'REFUND_AMOUNT_EXCEEDED',
        'The refund amount must be less than or equal to the capture amount that has not yet been refunded.',
      );
    }
    capture.refundedCents += amount;
    capture.status = capture.refundedCents === cents(capture.amount.value) ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    const refund = {
      id: alphanumeric(17, true),
      status: 'COMPLETED' as const,
      amount: { currency_code: capture.amount.currency_code, value: (amount / 100).toFixed(2) },
      captureId: capture.id,
    };
    this.refunds.set(refund.id, refund);
    this.emit('PAYMENT.CAPTURE.REFUNDED', 'refund', {
      id: refund.id,
      status: refund.status,
      amount: refund.amount,
      links: [{ rel: 'up', href: `${this.origin}/v2/payments/captures/${capture.id}`, method: 'GET' }],
    });
    return json(201, {
      id: refund.id,
      status: refund.status,
      links: [{ href: `${this.origin}/v2/payments/refunds/${refund.id}`, rel: 'self', method: 'GET' }],
    });
  }

  orderView(order: FakePaypalOrder) {
    return {
      id: order.id,
      intent: order.intent,
      status: order.status,
      purchase_units: order.purchase_units.map((unit) => ({
        ...unit,
        ...(order.capture ? { payments: { captures: [this.captureView(order.capture)] } } : {}),
      })),
      ...(order.payer ? { payer: order.payer } : {}),
      create_time: order.create_time,
      update_time: order.update_time,
      links: [
        { href: `${this.origin}/v2/checkout/orders/${order.id}`, rel: 'self', method: 'GET' },
        { href: `${this.origin}/checkoutnow?token=${order.id}`, rel: 'approve', method: 'GET' },
        { href: `${this.origin}/v2/checkout/orders/${order.id}/capture`, rel: 'capture', method: 'POST' },
      ],
    };
  }

  private captureView(capture: FakeCapture) {
    return {
      id: capture.id,
      status: capture.status,
      amount: capture.amount,
      final_capture: true,
      ...(capture.custom_id ? { custom_id: capture.custom_id } : {}),
      seller_protection: { status: 'ELIGIBLE' },
      create_time: capture.create_time,
      update_time: isoNow(),
      supplementary_data: { related_ids: { order_id: capture.orderId } },
      links: [{ href: `${this.origin}/v2/payments/captures/${capture.id}`, rel: 'self', method: 'GET' }],
    };
  }

  /** An event as PayPal delivers it: signed over the transmission id, time, webhook id and the body's CRC32. */
  emit(eventType: string, resourceType: string, resource: object): void {
    const id = `WH-${alphanumeric(17, true)}`;
    const body = JSON.stringify({
      id,
      event_version: '1.0',
      create_time: isoNow(),
      resource_type: resourceType,
      event_type: eventType,
      summary: eventType,
      resource,
    });
    this.webhooks.send({ id, type: eventType, body, headers: this.signatureHeaders(body) });
  }

  signatureHeaders(body: string, webhookId = this.keys.webhookId): Record<string, string> {
    const transmissionId = randomUUID();
    const time = new Date().toISOString();
    const signer = createSign('sha256');
    signer.update(`${transmissionId}|${time}|${webhookId}|${crc32(body)}`);
    return {
      'content-type': 'application/json',
      'paypal-transmission-id': transmissionId,
      'paypal-transmission-time': time,
      'paypal-transmission-sig': signer.sign(this.signingKeys.privateKey, 'base64'),
      'paypal-cert-url': `${this.origin}/v1/notifications/certs/CERT-360caa42-fca2a594-a5cafa77`,
      'paypal-auth-algo': 'SHA256withRSA',
    };
  }

  private verify(request: FakeRequest): FakeResponse {
    let body: any;
    try {
      body = JSON.parse(request.raw);
    } catch {
      return invalidRequest('/', 'MALFORMED_REQUEST_JSON');
    }
    const fields = ['auth_algo', 'cert_url', 'transmission_id', 'transmission_sig', 'transmission_time', 'webhook_id'];
    const absent = fields.find((field) => typeof body?.[field] !== 'string' || body[field] === '');
    if (absent || typeof body.webhook_event !== 'object' || body.webhook_event === null) {
      return invalidRequest(`/${absent ?? 'webhook_event'}`, 'A required field is missing.');
    }
    const verifier = createVerify('sha256');
    verifier.update(
      `${body.transmission_id}|${body.transmission_time}|${body.webhook_id}|${crc32(JSON.stringify(body.webhook_event))}`,
    );
    let valid = false;
    try {
      valid =
        body.webhook_id === this.keys.webhookId &&
        body.auth_algo === 'SHA256withRSA' &&
        verifier.verify(this.signingKeys.publicKey, body.transmission_sig, 'base64');
    } catch {
      valid = false;
    }
    const status = valid ? 'SUCCESS' : 'FAILURE';
    this.verifications.push(status);
    return json(200, { verification_status: status });
  }

  private approvalPage(id: string): FakeResponse {
    const order = this.orders.get(id);
    if (!order) return { status: 404, type: 'text/html; charset=utf-8', body: '<p>This payment no longer exists.</p>' };
    const unit = order.purchase_units[0];
    const verifying = order.status === 'PAYER_ACTION_REQUIRED';
    const choices = verifying
      ? `<button data-funding="verified" class="primary">Complete verification</button>`
      : `<button data-funding="balance" class="primary">Pay now</button>
<button data-funding="declined_card">Pay with a card the bank declines</button>
<button data-funding="verification_card">Pay with a card that asks for verification</button>`;
    return html(`<!doctype html><html><head><meta charset="utf-8"><title>PayPal Checkout</title>
<style>body{font:15px system-ui,sans-serif;margin:24px;color:#2c2e2f}button{display:block;width:100%;margin:10px 0;padding:12px;border-radius:24px;border:1px solid #0070ba;background:#fff;font:inherit}
.primary{background:#0070ba;color:#fff}.amount{font-size:22px;font-weight:600}</style></head><body>
<h2>PayPal Sandbox</h2><p>Sandbox Buyer (sb-buyer@personal.example.com)</p>
<p class="amount">${unit.amount.currency_code} ${unit.amount.value}</p>
${choices}
<button data-cancel="1">Cancel and return to the merchant</button>
<script>
const token = ${JSON.stringify(order.id)};
for (const button of document.querySelectorAll('button')) {
  button.addEventListener('click', async () => {
    if (button.dataset.cancel) {
      window.opener && window.opener.postMessage({ paypalStandIn: 'cancel', orderID: token }, '*');
      window.close();
      return;
    }
    await fetch('/checkoutnow/' + token + '/approve', {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'funding=' + button.dataset.funding,
    });
    window.opener && window.opener.postMessage({ paypalStandIn: 'approved', orderID: token, payerID: 'QYR5Z8XDVJNXQ' }, '*');
    window.close();
  });
}
</script></body></html>`);
  }
}

/** The buttons' frame, on PayPal's origin as the real SDK's is. */
const BUTTON_FRAME = `<!doctype html><html><head><meta charset="utf-8"><title>PayPal</title>
<style>body{margin:0}button{width:100%;height:45px;border:0;border-radius:4px;background:#ffc439;font:600 16px system-ui,sans-serif;color:#003087;cursor:pointer}</style>
</head><body><button type="button" aria-label="PayPal">Pay with PayPal</button><script src="/smart/buttons.js"></script></body></html>`;

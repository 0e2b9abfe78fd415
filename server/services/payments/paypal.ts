/**
 * PayPal through its REST API (Orders v2, captures refunds, webhook verification), as PayPal's server integration
 * guide has it: an OAuth client-credentials token, orders created and captured by the server, PayPal-Request-Id on
 * every write so a retry never captures or refunds twice, and events checked by PayPal's verify-webhook-signature.
 * PAYPAL_API_BASE points it at a local fake in tests and the demo.
 */
import { randomUUID } from 'node:crypto';
import { PROVIDER_URLS, type PaypalConfig } from '../../config';
import { registerProductionCheck } from '../../production-mode';
import type { ProviderView } from './ledger';

export interface PaypalAnswer {
  status: number;
  body: any;
}

export interface PaypalOrderView {
  id: string;
  status: string;
  purchase_units?: {
    reference_id?: string;
    custom_id?: string;
    amount?: { currency_code: string; value: string };
    payments?: { captures?: { id: string; status: string; amount: { currency_code: string; value: string } }[] };
  }[];
}

/** The issue PayPal names in a 422 (ORDER_NOT_APPROVED, INSTRUMENT_DECLINED, PAYER_ACTION_REQUIRED …). */
export const paypalIssue = (answer: PaypalAnswer): string =>
  answer.body?.details?.[0]?.issue ?? answer.body?.name ?? '';

export class PaypalError extends Error {
  constructor(readonly answer: PaypalAnswer) {
    super(`PayPal answered HTTP ${answer.status}${paypalIssue(answer) ? ` (${paypalIssue(answer)})` : ''}`);
  }
}

export const WEBHOOK_HEADERS = [
  'paypal-auth-algo',
  'paypal-cert-url',
  'paypal-transmission-id',
  'paypal-transmission-sig',
  'paypal-transmission-time',
] as const;

export class PaypalProvider {
  private token: { value: string; expiresAt: number } | null = null;

  constructor(readonly config: PaypalConfig) {}

  get testMode(): boolean {
    return this.config.env === 'sandbox';
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now()) return this.token.value;
    const response = await fetch(`${this.config.apiBase}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${this.config.clientId}:${this.config.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
      signal: AbortSignal.timeout(20_000),
    });
    const body = (await response.json().catch(() => ({}))) as { access_token?: string; expires_in?: number };
    if (!response.ok || !body.access_token) throw new Error(`PayPal's token request answered HTTP ${response.status}`);
    // Renewed a minute before PayPal says it expires.
    this.token = { value: body.access_token, expiresAt: Date.now() + ((body.expires_in ?? 300) - 60) * 1000 };
    return this.token.value;
  }

  /** One REST call; `body` may be pre-serialized JSON (the verification embeds the event's own bytes). */
  async call(method: 'GET' | 'POST', path: string, body?: unknown, requestId?: string): Promise<PaypalAnswer> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${await this.accessToken()}`,
      'content-type': 'application/json',
      prefer: 'return=representation',
    };
    if (requestId) headers['paypal-request-id'] = requestId;
    const response = await fetch(`${this.config.apiBase}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(20_000),
    });
    if (response.status === 401) this.token = null;
    return { status: response.status, body: await response.json().catch(() => ({})) };
  }

  async createOrder(input: { orderId: number; orderSn: string; amountCents: number; currency: string }) {
    const answer = await this.call(
      'POST',
      '/v2/checkout/orders',
      {
        intent: 'CAPTURE',
        purchase_units: [
          {
            reference_id: input.orderSn,
            custom_id: String(input.orderId),
            description: `Lensmate order ${input.orderSn}`,
            amount: { currency_code: input.currency, value: (input.amountCents / 100).toFixed(2) },
          },
        ],
      },
      randomUUID(),
    );
    if (answer.status !== 201 && answer.status !== 200) throw new PaypalError(answer);
    return answer.body as PaypalOrderView;
  }

  async getOrder(id: string): Promise<PaypalOrderView | null> {
    const answer = await this.call('GET', `/v2/checkout/orders/${encodeURIComponent(id)}`);
    if (answer.status === 404) return null;
    if (answer.status !== 200) throw new PaypalError(answer);
    return answer.body as PaypalOrderView;
  }

  /** Captures an approved order; the request id makes a second capture of the same order a replay, not a charge. */
  capture(id: string): Promise<PaypalAnswer> {
    return this.call('POST', `/v2/checkout/orders/${encodeURIComponent(id)}/capture`, {}, `lensmate-capture-${id}`);
  }

  /** PayPal's own check of an event: the headers it sent and the event's bytes, against our webhook's id. */
  async verifyWebhook(headers: Record<string, string | string[] | undefined>, rawBody: string): Promise<boolean> {
    const value = (name: string) => String(headers[name] ?? '');
    if (WEBHOOK_HEADERS.some((name) => value(name) === '') || !this.config.webhookId) return false;
    const request = `{"auth_algo":${JSON.stringify(value('paypal-auth-algo'))},"cert_url":${JSON.stringify(
      value('paypal-cert-url'),
    )},"transmission_id":${JSON.stringify(value('paypal-transmission-id'))},"transmission_sig":${JSON.stringify(
      value('paypal-transmission-sig'),
    )},"transmission_time":${JSON.stringify(value('paypal-transmission-time'))},"webhook_id":${JSON.stringify(
      this.config.webhookId,
    )},"webhook_event":${rawBody}}`;
    const answer = await this.call('POST', '/v1/notifications/verify-webhook-signature', request);
    if (answer.status !== 200) throw new PaypalError(answer);
    return answer.body?.verification_status === 'SUCCESS';
  }
}

const cents = (value: string | undefined) => Math.round(Number(value ?? 'NaN') * 100);

/** The order's payment as PayPal has it: paid once a capture of it completed. */
export function paypalView(order: PaypalOrderView, failure = ''): ProviderView | null {
  const unit = order.purchase_units?.[0];
  const orderId = Number(unit?.custom_id);
  if (!unit || !Number.isInteger(orderId) || orderId <= 0) return null;
  const capture = unit.payments?.captures?.find((candidate) =>
    ['COMPLETED', 'PARTIALLY_REFUNDED', 'REFUNDED'].includes(candidate.status),
  );
  const amount = capture?.amount ?? unit.amount;
  let status: ProviderView['status'] = 'pending';
  if (order.status === 'COMPLETED' && capture) status = 'succeeded';
  else if (failure || order.status === 'VOIDED') status = 'declined';
  return {
    provider: 'paypal',
    reference: order.id,
    orderId,
    amountCents: cents(amount?.value),
    currency: amount?.currency_code ?? '',
    status,
    failure: status === 'declined' ? failure || 'PayPal voided the payment' : '',
  };
}

registerProductionCheck({
  id: 'payments.paypal',
  check({ config }) {
    const paypal = config?.paypal;
    if (!paypal) return [];
    const found = [];
    if (paypal.env === 'sandbox') {
      found.push({ name: 'PAYPAL_ENV=sandbox', reason: "PayPal's sandbox: no money moves (set PAYPAL_ENV=live)" });
    }
    if (paypal.apiBase !== PROVIDER_URLS.paypalApi.live) {
      found.push({ name: 'PAYPAL_API_BASE', reason: `sends PayPal payments to ${paypal.apiBase}, not to PayPal` });
    }
    if (paypal.sdkUrl !== PROVIDER_URLS.paypalSdk.live) {
      found.push({ name: 'PAYPAL_SDK_URL', reason: `loads the PayPal JS SDK from ${paypal.sdkUrl}, not from PayPal` });
    }
    if (!paypal.webhookId) {
      found.push({
        name: 'PAYPAL_WEBHOOK_ID',
        reason:
          'is not set: PayPal events cannot be verified, so an approved payment whose page was closed stays unpaid',
      });
    }
    return found;
  },
});

/**
 * The little HTTP server every provider fake is built on: node:http, a route table, bodies as the providers take
 * them (form-encoded with Stripe's bracket keys, JSON), CORS for the browser-side stand-ins, and webhook delivery
 * with the retries a provider makes. Only server/main.ts (with PAYMENT_SANDBOX=1) and the tests load server/sandbox.
 */
import { randomBytes } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  raw: string;
  /** Path parameters of the matched route (`:id`). */
  params: Record<string, string>;
}

export interface FakeResponse {
  status: number;
  body: string;
  type: string;
  headers?: Record<string, string>;
}

export type FakeHandler = (request: FakeRequest) => FakeResponse | Promise<FakeResponse>;

export const json = (status: number, value: unknown, headers?: Record<string, string>): FakeResponse => ({
  status,
  body: JSON.stringify(value),
  type: 'application/json',
  headers,
});

export const html = (body: string): FakeResponse => ({ status: 200, body, type: 'text/html; charset=utf-8' });

export const script = (body: string): FakeResponse => ({
  status: 200,
  body,
  type: 'application/javascript; charset=utf-8',
});

export const randomId = (bytes = 12) => randomBytes(bytes).toString('hex');

/** Alphanumerics of a given length, as PayPal's and Braintree's ids look. */
export function alphanumeric(length: number, upper = false): string {
  const alphabet = upper ? 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789' : 'abcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = randomBytes(length);
  return Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join('');
}

/**
 * A form-encoded body with bracket keys (`metadata[order_id]=5&expand[0]=x`) as nested objects, as Stripe's API
 * reads the bodies stripe-node and Stripe.js send.
 */
export function parseForm(raw: string): Record<string, any> {
  const result: Record<string, any> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const parts = key.split(/\[|\]\[|\]/).filter((part) => part !== '');
    let node = result;
    parts.forEach((part, index) => {
      if (part === '__proto__' || part === 'constructor' || part === 'prototype') return;
      if (index === parts.length - 1) node[part] = value;
      else {
        if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
        node = node[part];
      }
    });
  }
  return result;
}

function readBody(request: IncomingMessage, limit = 1024 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new Error('body too large'));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

interface Route {
  method: string;
  pattern: RegExp;
  names: string[];
  handler: FakeHandler;
}

export class FakeServer {
  private readonly routes: Route[] = [];
  private server: Server | null = null;
  origin = '';

  /** `path` may hold `:name` segments. */
  on(method: string, path: string, handler: FakeHandler): this {
    const names: string[] = [];
    const pattern = new RegExp(
      `^${path.replace(/:(\w+)/g, (_match, name: string) => {
        names.push(name);
        return '([^/]+)';
      })}$`,
    );
    this.routes.push({ method, pattern, names, handler });
    return this;
  }

  async listen(host = '127.0.0.1'): Promise<string> {
    this.server = createServer((request, response) => {
      void this.dispatch(request, response);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, host, resolve));
    const { port } = this.server.address() as AddressInfo;
    this.origin = `http://${host}:${port}`;
    return this.origin;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async dispatch(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://fake');
    const cors = {
      'access-control-allow-origin': '*',
      'access-control-allow-headers': 'authorization, content-type, braintree-version',
      'access-control-allow-methods': 'GET, POST, PUT, DELETE',
    };
    if (request.method === 'OPTIONS') {
      response.writeHead(204, cors).end();
      return;
    }
    let answer: FakeResponse;
    try {
      const raw = await readBody(request);
      const route = this.routes.find((candidate) => {
        return candidate.method === request.method && candidate.pattern.test(url.pathname);
      });
      if (!route) {
        answer = json(404, { error: { message: `Unrecognized request URL (${request.method}: ${url.pathname})` } });
      } else {
        const match = route.pattern.exec(url.pathname) as RegExpExecArray;
        const params: Record<string, string> = {};
        route.names.forEach((name, index) => {
          params[name] = decodeURIComponent(match[index + 1]);
        });
        answer = await route.handler({
          method: request.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          headers: request.headers,
          raw,
          params,
        });
      }
    } catch (error) {
      answer = json(500, { error: { message: (error as Error).message } });
    }
    response.writeHead(answer.status, { 'content-type': answer.type, ...cors, ...answer.headers });
    response.end(answer.body);
  }
}

/** A webhook the fake sent (or holds): the exact bytes and headers, so a test can deliver it again (a replay). */
export interface SentWebhook {
  id: string;
  type: string;
  body: string;
  headers: Record<string, string>;
  /** HTTP statuses the endpoint answered, one per attempt. */
  answers: number[];
}

/**
 * Delivers a provider's webhooks to the shop's endpoint, as providers do: right after the change, again on a
 * failure (three tries here, shortly apart). `hold()` keeps them queued until `release()`, so a test can make one
 * arrive before or after the shopper's browser comes back.
 */
export class WebhookSender {
  endpoint = '';
  readonly sent: SentWebhook[] = [];
  private held: SentWebhook[] | null = null;
  private readonly inFlight = new Set<Promise<void>>();

  hold(): void {
    this.held ??= [];
  }

  /** Sends what was held, in order, and stops holding. */
  async release(): Promise<void> {
    const queued = this.held ?? [];
    this.held = null;
    for (const webhook of queued) await this.deliver(webhook);
  }

  /** Held webhooks are dropped: the endpoint never hears of them (a provider outage, a missed delivery). */
  drop(): SentWebhook[] {
    const dropped = this.held ?? [];
    this.held = [];
    return dropped;
  }

  send(webhook: Omit<SentWebhook, 'answers'>): void {
    const record: SentWebhook = { ...webhook, answers: [] };
    this.sent.push(record);
    if (this.held) {
      this.held.push(record);
      return;
    }
    const delivery = this.deliverWithRetries(record).finally(() => this.inFlight.delete(delivery));
    this.inFlight.add(delivery);
  }

  /** One delivery of exactly these bytes (also how a test replays one); answers the endpoint's status. */
  async deliver(webhook: SentWebhook): Promise<number> {
    if (!this.endpoint) return 0;
    try {
      const response = await fetch(this.endpoint, { method: 'POST', headers: webhook.headers, body: webhook.body });
      await response.arrayBuffer();
      webhook.answers.push(response.status);
      return response.status;
    } catch {
      webhook.answers.push(0);
      return 0;
    }
  }

  /** Waits for every delivery under way (tests and shutdown). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private async deliverWithRetries(webhook: SentWebhook): Promise<void> {
    for (const delay of [0, 200, 1000]) {
      if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
      const status = await this.deliver(webhook);
      if (status >= 200 && status < 300) return;
    }
  }
}

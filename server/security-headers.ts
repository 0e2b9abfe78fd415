import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { CspSources, ServerConfig } from './config';
import { paymentCspSources } from './services/payments/csp';

/** Google Identity Services, as Google's CSP guide lists it; added when GOOGLE_CLIENT_ID is set. */
const GOOGLE_SIGN_IN: CspSources & { styleSrc: string[] } = {
  scriptSrc: ['https://accounts.google.com/gsi/client'],
  frameSrc: ['https://accounts.google.com/gsi/'],
  connectSrc: ['https://accounts.google.com/gsi/'],
  styleSrc: ['https://accounts.google.com/gsi/style'],
};

/**
 * The 'sha256-…' source of every inline script of the H5 build's index.html (none since Taro's viewport script
 * became a style rule, config/h5/root-font-size.ts; kept for any that a build adds), read from
 * the build this server serves, so the policy allows exactly those and no injected one.
 */
export function inlineScriptHashes(h5Dir: string): string[] {
  const index = join(h5Dir, 'index.html');
  if (!existsSync(index)) return [];
  const html = readFileSync(index, 'utf8');
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(match[1]) || match[2].length === 0) continue;
    hashes.push(`'sha256-${createHash('sha256').update(match[2], 'utf8').digest('base64')}'`);
  }
  return hashes;
}

/**
 * The site's Content-Security-Policy directives. This is the one place its sources are listed: the build's own
 * scripts ('self' and the inline hashes), Google sign-in when configured, the configured payment SDKs (Stripe.js,
 * the PayPal JS SDK, Braintree's drop-in: their providers' origins, or the one origin of a local stand-in; see
 * paymentCspSources), and what CSP_SCRIPT_SRC, CSP_FRAME_SRC and CSP_CONNECT_SRC add (a messaging host on another
 * origin). Styles stay 'unsafe-inline': Taro's components set style attributes.
 */
export function siteDirectives(config: ServerConfig, inlineHashes: string[]): Record<string, string[]> {
  const google = config.googleClientId ? GOOGLE_SIGN_IN : { scriptSrc: [], frameSrc: [], connectSrc: [], styleSrc: [] };
  const payments = paymentCspSources(config);
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'script-src': ["'self'", ...inlineHashes, ...google.scriptSrc, ...payments.scriptSrc, ...config.csp.scriptSrc],
    'style-src': ["'self'", "'unsafe-inline'", ...google.styleSrc],
    'img-src': ["'self'", 'data:', 'blob:', 'https:'],
    'media-src': ["'self'", 'blob:', 'https:'],
    'font-src': ["'self'", 'data:'],
    // blob: for the files a shopper picks: Taro's uploadFile reads the picked file's blob: URL before sending it.
    'connect-src': ["'self'", 'blob:', ...google.connectSrc, ...payments.connectSrc, ...config.csp.connectSrc],
    'frame-src': ["'self'", ...google.frameSrc, ...payments.frameSrc, ...config.csp.frameSrc],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

/**
 * Every user file goes out under this policy: opened on its own or in a frame, nothing in it may run script,
 * load anything or be framed by another page; `sandbox` also gives it an opaque origin, away from the shop's.
 */
export const USER_FILE_POLICY =
  "default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; sandbox; frame-ancestors 'none'";

const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Whether the client reached the shop over TLS: the public URL is https, or the request came over TLS itself or,
 * through a trusted proxy, said so in X-Forwarded-Proto (fastify reads it only from proxies TRUST_PROXY names).
 */
function overTls(config: ServerConfig, request: FastifyRequest): boolean {
  return config.publicBaseUrl.startsWith('https:') || request.protocol === 'https';
}

/**
 * The headers helmet sets for `options`, worked out once. Its middleware builds them anew on every call (and
 * @fastify/helmet calls helmet(options) on every request, parsing the CSP each time); none of them depends on the
 * request, so every response can take the same ready list.
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as never, response as never, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return headers;
}

/**
 * helmet on every response of the instance (API answers, the site, user files, 404s and errors): the CSP above,
 * nosniff, a strict Referrer-Policy, frames refused; HSTS only over TLS, where browsers honour it.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: ServerConfig): Promise<void> {
  const directives = siteDirectives(config, inlineScriptHashes(config.h5Dir));
  const headers = helmetHeaders({
    contentSecurityPolicy: { useDefaults: false, directives },
    strictTransportSecurity: false,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Google sign-in and the payment providers' checkouts open pop-ups that answer to this page.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    // The H5 dev server (another port of the same host) still shows the API's images; other sites cannot embed them.
    crossOriginResourcePolicy: { policy: 'same-site' },
  });
  const alwaysTls = config.publicBaseUrl.startsWith('https:');
  // A callback hook, not an async one: it runs on every request, and has nothing to wait for.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    if (alwaysTls || overTls(config, request)) reply.header('strict-transport-security', HSTS);
    done();
  });
}

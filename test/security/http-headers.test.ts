/**
 * Security headers on every kind of response the shop sends with its default configuration: API answers (ok,
 * refused, malformed, rate limited), the H5 site (index.html, a hashed script, an app route), 404s and user files.
 * The CSP allows the inline script of the build it serves by hash, and nothing inline besides.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { type TestServer, startServer } from '../server/helpers';
import { recordReliability } from '../support/reliability';

const INLINE_SCRIPT = 'window.__viewport=function(){document.documentElement.style.fontSize="20px"};';
const site = mkdtempSync(join(tmpdir(), 'lensmate-headers-site-'));
mkdirSync(join(site, 'js'));
writeFileSync(
  join(site, 'index.html'),
  `<!doctype html><title>Lensmate</title><script>${INLINE_SCRIPT}</script><script defer src="/js/app.1a2b3c4d.js"></script>`,
);
writeFileSync(join(site, 'js', 'app.1a2b3c4d.js'), 'console.log("app")');

afterAll(() => rmSync(site, { recursive: true, force: true }));

/** The CSP as a map of directive to sources. */
function policy(response: LightMyRequestResponse): Map<string, string[]> {
  const header = String(response.headers['content-security-policy'] ?? '');
  return new Map(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name, sources]),
  );
}

/** The headers every response must carry, whatever produced it. */
function expectSecurityHeaders(response: LightMyRequestResponse, what: string): void {
  const headers = response.headers;
  expect({ what, nosniff: headers['x-content-type-options'] }).toEqual({ what, nosniff: 'nosniff' });
  expect({ what, referrer: headers['referrer-policy'] }).toEqual({ what, referrer: 'strict-origin-when-cross-origin' });
  expect({ what, frames: policy(response).get('frame-ancestors') }).toEqual({ what, frames: ["'none'"] });
  expect({ what, hsts: headers['strict-transport-security'] }).toEqual({ what, hsts: undefined });
}

describe('security headers with the default configuration', () => {
  let server: TestServer;
  let tried = 0;

  beforeAll(async () => {
    server = await startServer('sqlite', { H5_DIR: site });
  });
  afterAll(async () => {
    await server?.close();
    recordReliability({ suite: 'http-headers', payloads: tried });
  });

  const get = (url: string, headers: Record<string, string> = {}) => {
    tried += 1;
    return server.app.inject({ method: 'GET', url, headers });
  };
  const post = (url: string, payload: string) => {
    tried += 1;
    return server.app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json' } });
  };

  test('API answers: ok, refused, malformed, not found, rate limited', async () => {
    expectSecurityHeaders(await get('/api/config/shop_config'), 'ok');
    expectSecurityHeaders(await post('/api/user/get_user_address', '{}'), 'no token (403)');
    expectSecurityHeaders(await post('/api/auth/login', '{"email":'), 'malformed JSON (400)');
    expectSecurityHeaders(await get('/api/no/such/route'), 'API 404');
    const answers: LightMyRequestResponse[] = [];
    for (let attempt = 0; attempt <= server.config.authRateLimit.max; attempt += 1) {
      answers.push(await post('/api/auth/forget_password', JSON.stringify({ email: 'nobody@lensmate.test' })));
    }
    const limited = answers[answers.length - 1];
    expect(limited.statusCode).toBe(429);
    expectSecurityHeaders(limited, 'rate limited (429)');
  });

  test('the site: index.html, a hashed script, an app route; the CSP allows the inline script by its hash only', async () => {
    const index = await get('/');
    expect(index.statusCode).toBe(200);
    expectSecurityHeaders(index, 'index.html');
    const hash = `'sha256-${createHash('sha256').update(INLINE_SCRIPT).digest('base64')}'`;
    const scripts = policy(index).get('script-src') ?? [];
    expect(scripts).toEqual(["'self'", hash]);
    expect(policy(index).get('object-src')).toEqual(["'none'"]);
    expect(policy(index).get('base-uri')).toEqual(["'self'"]);
    expectSecurityHeaders(await get('/js/app.1a2b3c4d.js'), 'hashed script');
    const route = await get('/pages/product/product?id=1');
    expect(route.statusCode).toBe(200);
    expectSecurityHeaders(route, 'app route');
  });

  test('user files and their 404s carry the sandboxing policy instead of the site one', async () => {
    const seeded = await get('/uploads/seed/logo.svg');
    expect(seeded.statusCode).toBe(200);
    expectSecurityHeaders(seeded, 'seeded drawing');
    expect(policy(seeded).get('sandbox')).toEqual([]);
    expect(policy(seeded).get('default-src')).toEqual(["'none'"]);
    const missing = await get('/uploads/social/missing.png');
    expect(missing.statusCode).toBe(404);
    expectSecurityHeaders(missing, 'uploads 404');
  });
});

describe('HSTS only where the shop is reached over TLS', () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });
  const start = async (env: Record<string, string>) => {
    const server = await startServer('sqlite', env);
    servers.push(server);
    return server;
  };
  const hsts = async (server: TestServer, headers: Record<string, string> = {}) =>
    (await server.app.inject({ method: 'GET', url: '/api/config/shop_config', headers })).headers[
      'strict-transport-security'
    ];

  test('a public https URL turns it on for every response', async () => {
    const server = await start({ PUBLIC_BASE_URL: 'https://shop.example.com' });
    expect(await hsts(server)).toBe('max-age=31536000; includeSubDomains');
  });

  test('X-Forwarded-Proto counts only from a trusted proxy', async () => {
    const direct = await start({});
    expect(await hsts(direct, { 'x-forwarded-proto': 'https' })).toBeUndefined();
    const proxied = await start({ TRUST_PROXY: '127.0.0.1' });
    expect(await hsts(proxied, { 'x-forwarded-proto': 'https' })).toBe('max-age=31536000; includeSubDomains');
    expect(await hsts(proxied)).toBeUndefined();
  });
});

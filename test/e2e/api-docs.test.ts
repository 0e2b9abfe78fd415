// Keeps page.goto (issue 20 lets URL tests keep it): /api/docs is a URL for developers; no tap of the app
// leads there.
/**
 * The API's OpenAPI document and its documentation page as a browser gets them from the running shop: the page is
 * Swagger UI served from the server itself, and it must work under the Content-Security-Policy the server sends
 * (no CDN script, no inline script): it loads the document and lists the routes, with no CSP violation.
 */
import type { Browser } from 'playwright-core';
import { launchChromium, phonePage } from './support/browser';
import { type RunningShop, startShop } from './support/server';

jest.setTimeout(120_000);

let shop: RunningShop;
let browser: Browser;

beforeAll(async () => {
  [shop, browser] = await Promise.all([startShop(), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await shop?.stop();
});

test('the OpenAPI 3.1 document is served and lists the routes with their schemas', async () => {
  const response = await fetch(`${shop.url}/api/openapi.json`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/application\/json/);
  const document = (await response.json()) as {
    openapi: string;
    paths: Record<string, Record<string, { requestBody?: unknown; responses?: Record<string, unknown> }>>;
  };
  expect(document.openapi).toBe('3.1.0');
  const submit = document.paths['/api/order/submit_order'].post;
  expect(JSON.stringify(submit.requestBody)).toContain('client_key');
  expect(Object.keys(submit.responses ?? {})).toEqual(expect.arrayContaining(['200', '4XX']));
});

test('the documentation page runs under the served Content-Security-Policy and shows the routes', async () => {
  const { page, errors } = await phonePage(browser);
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  const outside: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(shop.url) && !request.url().startsWith('data:')) outside.push(request.url());
  });
  const response = await page.goto(`${shop.url}/api/docs`);
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await page.waitForSelector('[data-path="/api/order/submit_order"]', { timeout: 30_000 });
  expect(await page.locator('.opblock').count()).toBeGreaterThan(10);
  expect(violations).toEqual([]);
  expect(errors).toEqual([]);
  expect(outside).toEqual([]);
  await page.context().close();
});

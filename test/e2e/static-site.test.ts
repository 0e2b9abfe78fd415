/**
 * The H5 site as the server sends it: the precompressed copies written by scripts/precompress.mjs go out to
 * browsers that accept them, hashed assets are cached for a year, index.html is revalidated, and every other
 * path is a route of the single-page app.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { type RunningShop, startShop } from './support/server';

const site = mkdtempSync(join(tmpdir(), 'lensmate-site-'));
const script = `console.log(${JSON.stringify('lensmate '.repeat(400))});`;
let shop: RunningShop;

beforeAll(async () => {
  mkdirSync(join(site, 'js'));
  writeFileSync(
    join(site, 'index.html'),
    '<!doctype html><title>Lensmate</title><script src="/js/app.1a2b3c4d.js"></script>',
  );
  writeFileSync(join(site, 'js', 'app.1a2b3c4d.js'), script);
  execFileSync(process.execPath, ['scripts/precompress.mjs', site], { cwd: join(__dirname, '../..') });
  shop = await startShop({ H5_DIR: site });
}, 60_000);

afterAll(async () => {
  await shop?.stop();
  rmSync(site, { recursive: true, force: true });
});

const get = (path: string, encoding: string) =>
  fetch(`${shop.url}${path}`, { headers: { 'accept-encoding': encoding } });

test('a hashed script goes out as its brotli copy, cached for a year', async () => {
  const response = await get('/js/app.1a2b3c4d.js', 'br, gzip');
  expect(response.headers.get('content-encoding')).toBe('br');
  expect(response.headers.get('content-type')).toMatch(/javascript/);
  expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(await response.text()).toBe(script);
});

test('a browser without brotli gets the gzip copy, one without either the raw file', async () => {
  const gz = await fetch(`${shop.url}/js/app.1a2b3c4d.js`, { headers: { 'accept-encoding': 'gzip' } });
  expect(gz.headers.get('content-encoding')).toBe('gzip');
  expect(await gz.text()).toBe(script);
  const raw = await get('/js/app.1a2b3c4d.js', 'identity');
  expect(raw.headers.get('content-encoding')).toBeNull();
  expect(Number(raw.headers.get('content-length'))).toBe(Buffer.byteLength(script));
  // The gzip copy on disk is the same script.
  expect(
    gunzipSync(Buffer.from(await (await fetch(`${shop.url}/js/app.1a2b3c4d.js.gz`)).arrayBuffer())).toString(),
  ).toBe(script);
});

test('index.html and app routes are revalidated on every visit', async () => {
  const home = await get('/', 'identity');
  expect(home.headers.get('cache-control')).toBe('no-cache');
  const route = await get('/pages/product/product?id=1', 'identity');
  expect(route.status).toBe(200);
  expect(await route.text()).toContain('<title>Lensmate</title>');
});

import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { JSDOM } from 'jsdom';
import {
  HOME_DATA_ID,
  PRERENDER_ID,
  START_SCRIPT_PATH,
  escapeHtml,
  jsonForScript,
  safeImageUrl,
} from '../../server/prerender/home';
import { CORPUS } from '../security/xss-corpus';
import { ADMIN, type TestServer, startServer } from './helpers';

/** An index.html as Taro's H5 build writes it: the viewport script inline, the app's scripts deferred. */
const VIEWPORT_SCRIPT = '!function(n){n.document.documentElement.style.fontSize="20px"}(window);';
const INDEX_HTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Lensmate</title>' +
  `<script>${VIEWPORT_SCRIPT}</script><script defer="defer" src="/js/app.js"></script>` +
  '<link href="/css/app.css" rel="stylesheet"></head><body><div id="app"></div></body></html>';
const viewportHash = `'sha256-${createHash('sha256').update(VIEWPORT_SCRIPT).digest('base64')}'`;

/** Strings that end a script block or an attribute, on top of the stored-XSS corpus. */
const PAYLOADS = [
  ...CORPUS,
  '</script><script>alert("xss")</script>',
  '<!--<script>alert(1)//-->',
  '\u2028\u2029</SCRIPT >',
  `' onmouseover='alert(1)`,
  '" onmouseover="alert(1)',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
];
/** Image URLs a hostile admin could store: none may reach the prerendered markup as anything but a site path. */
const HOSTILE_IMAGES = [
  'javascript:alert(1)',
  '//evil.test/x.png',
  '" onerror="alert(1)',
  'data:image/svg+xml,<svg onload=alert(1)>',
];

let s: TestServer;
let admin: string;

let site: string;

beforeAll(async () => {
  site = mkdtempSync(join(tmpdir(), 'lensmate-site-'));
  writeFileSync(join(site, 'index.html'), INDEX_HTML);
  s = await startServer('sqlite', { H5_DIR: site });
  admin = await s.login(ADMIN.email, ADMIN.password);
});

afterAll(async () => {
  await s.close();
  rmSync(site, { recursive: true, force: true });
});

async function page(url = '/', headers: Record<string, string> = {}) {
  const response = await s.app.inject({ method: 'GET', url, headers });
  return { response, html: response.body, document: new JSDOM(response.body).window.document };
}

async function homeData() {
  return (await s.call('GET', '/api/index/shop_mainpage')).body.data;
}

test('home is served with its first screen prerendered and the data it was made from beside it', async () => {
  const { response, document } = await page();
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/html/);
  expect(response.headers['cache-control']).toBe('no-cache');
  const data = await homeData();
  const prerendered = document.getElementById(PRERENDER_ID);
  expect(prerendered).not.toBeNull();
  const names = Array.from(prerendered?.querySelectorAll('.home__category-name') ?? []).map((n) => n.textContent);
  expect(names).toEqual(data.categories.map((c: { category_name: string }) => c.category_name));
  const titles = Array.from(prerendered?.querySelectorAll('.home__banner-title') ?? []).map((n) => n.textContent);
  expect(titles).toEqual(data.banners.map((b: { title: string }) => b.title));
  const block = document.getElementById(HOME_DATA_ID);
  expect(block?.getAttribute('type')).toBe('application/json');
  expect(JSON.parse(block?.textContent ?? '')).toEqual(data);
  // The first banner, the largest paint of the screen: preloaded from <head> and fetched first.
  const preload = document.querySelector('head link[rel="preload"][as="image"]');
  expect(preload?.getAttribute('href')).toBe(data.banners[0].image);
  expect(prerendered?.querySelector('.home__banner-image img')?.getAttribute('fetchpriority')).toBe('high');
  // The app's mount point stays after it.
  expect(document.getElementById('app')?.previousElementSibling?.id).toBe(HOME_DATA_ID);
  expect((await page('/pages/index/index')).document.getElementById(PRERENDER_ID)).not.toBeNull();
});

test('the policy stays strict: no inline script but the hashed viewport script, and data in a JSON block', async () => {
  const { response, document } = await page();
  const csp = String(response.headers['content-security-policy']);
  const scriptSrc = csp.split(';').find((directive) => directive.trim().startsWith('script-src'));
  expect(scriptSrc?.trim()).toBe(`script-src 'self' ${viewportHash}`);
  const inline = Array.from(document.querySelectorAll('script')).filter((script) => !script.hasAttribute('src'));
  expect(inline.map((script) => script.getAttribute('type') ?? 'javascript')).toEqual([
    'javascript',
    'application/json',
  ]);
  expect(inline[0].textContent).toBe(VIEWPORT_SCRIPT);
  const plain = await s.app.inject({ method: 'GET', url: '/index.html' });
  expect(plain.headers['content-security-policy']).toBe(csp);
});

test('compressed for browsers that accept it', async () => {
  const plain = (await page()).html;
  const br = await s.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip, deflate, br' } });
  expect(br.headers['content-encoding']).toBe('br');
  expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain);
  const gzip = await s.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip' } });
  expect(gzip.headers['content-encoding']).toBe('gzip');
  expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain);
});

test('other routes of the app get the plain index.html, as before', async () => {
  for (const url of ['/pages/product/product?id=1', '/index.html', '/pages/mine/index/mine']) {
    const { response, html } = await page(url);
    expect(response.statusCode).toBe(200);
    expect(html).toBe(INDEX_HTML);
  }
});

test('hostile catalogue strings are text in the markup and data in the block: nothing in them runs', async () => {
  const data0 = await homeData();
  // Admins write banners, categories and articles; the article carries its author's nickname.
  await s.handle.db
    .updateTable('settings')
    .set({
      value: JSON.stringify([
        ...PAYLOADS.map((title, index) => ({
          image: HOSTILE_IMAGES[index % HOSTILE_IMAGES.length],
          title,
          link: title,
        })),
      ]),
    })
    .where('key', '=', 'home.banners')
    .execute();
  await s.handle.db.deleteFrom('categories').execute();
  await s.handle.db
    .insertInto('categories')
    .values(
      PAYLOADS.map((name, index) => ({
        name,
        img: HOSTILE_IMAGES[index % HOSTILE_IMAGES.length],
        sort: index,
      })) as never,
    )
    .execute();
  const nickname = (await s.call('POST', '/api/social/update_profile', { nickname: PAYLOADS[0] }, admin)).body;
  expect(nickname.status).toBe(200);
  for (const title of PAYLOADS.slice(0, 4)) {
    const created = await s.call(
      'POST',
      '/api/article/insert_article',
      { title, cover: '/uploads/a.png', imgsUrl: ['/uploads/b.png'], content: '<p>Hi</p>' },
      admin,
    );
    expect(created.body.status).toBe(200);
  }

  const data = await homeData();
  expect(data).not.toEqual(data0);
  const { document } = await page();
  const prerendered = document.getElementById(PRERENDER_ID) as HTMLElement;
  // Markup: only the elements the app draws, no attribute that runs anything, every string as text.
  const tags = new Set(Array.from(prerendered.querySelectorAll('*')).map((element) => element.tagName));
  expect([...tags].sort()).toEqual(['DIV', 'IMG', 'SPAN']);
  for (const element of Array.from(prerendered.querySelectorAll('*'))) {
    for (const attribute of Array.from(element.attributes)) {
      expect(['class', 'src', 'fetchpriority', 'loading', 'id']).toContain(attribute.name);
    }
  }
  for (const img of Array.from(prerendered.querySelectorAll('img'))) {
    const src = img.getAttribute('src');
    if (src !== null) expect(src).toMatch(/^(\/[^/]|https?:\/\/)/);
  }
  const names = Array.from(prerendered.querySelectorAll('.home__category-name')).map((n) => n.textContent);
  expect(names).toEqual(PAYLOADS);
  const titles = Array.from(prerendered.querySelectorAll('.home__banner-title')).map((n) => n.textContent);
  expect(titles).toEqual(PAYLOADS);
  // The page has exactly the scripts of the build (started by the start script, which names them, after the first
  // screen; preloaded meanwhile) and one data block, which holds the answer unchanged.
  const scripts = Array.from(document.querySelectorAll('script'));
  expect(scripts.map((script) => script.getAttribute('src') ?? script.getAttribute('type') ?? 'inline')).toEqual([
    'inline',
    START_SCRIPT_PATH,
    'application/json',
  ]);
  expect(scripts[1].getAttribute('data-scripts')).toBe('/js/app.js');
  expect(
    Array.from(document.querySelectorAll('link[rel="preload"][as="script"]')).map((link) => link.getAttribute('href')),
  ).toEqual(['/js/app.js']);
  expect(JSON.parse(document.getElementById(HOME_DATA_ID)?.textContent ?? '')).toEqual(data);
  expect(data.articles[0].author.nickname).toBe(PAYLOADS[0]);
  // The preloaded banner too is a site path at most (`javascript:x` is the file /javascript:x, as in the app).
  expect(document.querySelector('link[rel="preload"][as="image"]')?.getAttribute('href')).toMatch(
    /^(\/[^/]|https?:\/\/)/,
  );
});

test('the escaping helpers', () => {
  expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
    '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
  );
  const json = jsonForScript({ s: '</script><!-- & \u2028\u2029' });
  expect(json).not.toMatch(/[<>&\u2028\u2029]/);
  expect(JSON.parse(json)).toEqual({ s: '</script><!-- & \u2028\u2029' });
  expect(safeImageUrl('uploads/a.png')).toBe('/uploads/a.png');
  expect(safeImageUrl('/uploads/a.png')).toBe('/uploads/a.png');
  expect(safeImageUrl('https://cdn.example.com/a.png')).toBe('https://cdn.example.com/a.png');
  for (const hostile of HOSTILE_IMAGES) expect(safeImageUrl(hostile)).not.toMatch(/^(javascript|data):|^\/\//i);
});

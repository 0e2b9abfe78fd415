import type { Browser, Page } from 'playwright-core';
import { apiLogin, apiPost, fill } from './support/account-flow';
import { launchChromium, phonePage } from './support/browser';
import { type CrawlResult, crawl, emptyResult, routeOf } from './support/crawler';
import { registeredRoutes } from './support/routes';
import { type RunningShop, startShop } from './support/server';

jest.setTimeout(360_000);

const SHOPPER = { email: 'ada@lensmate.test', password: 'Shopper#2026a' };
const ADMIN = { email: 'admin@lensmate.test', password: 'Admin#2026pass' };

/**
 * Taps that would end the session, destroy what the crawl walks through (× takes a picked photo off a draft), or
 * leave the shop's site.
 */
const AVOID =
  /^(log out|sign out|delete|remove|×|unlist|cancel (the )?order|sign in with google|continue with google)/i;

/** Pages an administrator sees more of than a shopper (Mine's support desk, Publish's article) and the way there. */
type Role = 'shopper' | 'admin' | 'anonymous';
const ADMIN_SEES_MORE = ['/pages/mine/index/mine', '/pages/main/main', '/pages/push/push'];

/**
 * What the crawler types into an empty field of that name, as a user would: a search, an article's title and first
 * paragraph, a place to send in a chat (choose-location's form on H5, which has no map picker).
 */
const FILLS = {
  keyword: 'round',
  title: 'Notes from a crawl',
  'paragraph-0': 'A first paragraph, typed by the crawler.',
  'place-name': 'Crawl corner',
  'place-latitude': '51.5074',
  'place-longitude': '-0.1278',
};

/** Taps that submit what a page's other taps filled in (a photo, a choice): made last on a page. */
const SUBMITS = /^(Next|Preview|Publish|Place order|Checkout|Save|Send)\b/;

/** What an administrator taps first on a page: the ways to what only administrators see. */
const ADMIN_WAYS = [/^Support desk/, /^Admin/, /^\+ New/, /^Support agents/, /^Community/, /^Publish/, /^Article/];

/** A 2×2 PNG: what the crawler picks when a tap opens the file picker. */
const PHOTO = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGM4EWAARAwQCgAmTgUhXywv4AAAAABJRU5ErkJggg==',
  'base64',
);

/** What a shopper has after a first purchase: an address, a line in the cart and an order waiting for payment. */
async function shopperHistory(base: string): Promise<void> {
  const token = await apiLogin(base, SHOPPER.email, SHOPPER.password);
  const goods = await apiPost<{
    list: { goods_id: number; color_arr: { color_id: number; stock: number | null }[] }[];
  }>(base, '/api/goods/get_goods_page', { page: 1, page_size: 20 });
  const frame = goods.data.list.find((item) => item.color_arr[0].stock === null) ?? goods.data.list[0];
  const line = { goods_id: frame.goods_id, color_id: frame.color_arr[0].color_id, quantity: 1 };
  const address = await apiPost<{ address_id: number }>(
    base,
    '/api/user/set_user_address',
    {
      first_name: 'Ada',
      last_name: 'Lovelace',
      phone: '+1 415 555 0100',
      country_code: 'US',
      province: 'CA',
      city: 'San Francisco',
      street: '1 Market Street',
      zip: '94105',
    },
    token,
  );
  if (address.status !== 200) throw new Error(`set_user_address: ${address.msg}`);
  const order = await apiPost(
    base,
    '/api/order/submit_order',
    { client_key: 'crawl-order-1', address_id: address.data.address_id, shipping_method_id: 1, lines: [line] },
    token,
  );
  if (order.status !== 200) throw new Error(`submit_order: ${order.msg}`);
  const cart = await apiPost(
    base,
    '/api/order/upload_cart',
    { content: JSON.stringify({ lines: [{ ...line, lens: null, prescription_id: null }] }) },
    token,
  );
  if (cart.status !== 200) throw new Error(`upload_cart: ${cart.msg}`);
}

/** Signs in the way a user does from home: the Mine tab leads to login; after it, the Home tab. */
async function signInByTaps(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.locator('.taro_page:visible .tab-bar__label', { hasText: 'Mine' }).last().click();
  await page.waitForURL(/\/pages\/login\/login/);
  await fill(page, 'email', account.email);
  await fill(page, 'password', account.password);
  await page.locator('.login__submit').click();
  await page.waitForURL(/\/pages\/mine\/index\/mine/, { timeout: 90_000 });
  await page.locator('.taro_page:visible .tab-bar__label', { hasText: 'Home' }).last().click();
  await page.waitForURL((url) => routeOf(url.toString()) === '/pages/index/index');
}

describe('every registered route is reached from home by taps (H5 build, headless Chromium)', () => {
  let shop: RunningShop;
  let browser: Browser;
  const trace: string[] = [];
  const results: Record<Role, CrawlResult> = { shopper: emptyResult(), admin: emptyResult(), anonymous: emptyResult() };

  beforeAll(async () => {
    shop = await startShop({ H5_DIR: process.env.LENSMATE_E2E_H5_DIR ?? 'dist/h5', AUTH_RATE_LIMIT_MAX: '50' });
    browser = await launchChromium();
    await shopperHistory(shop.url);
  });

  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
  });

  /**
   * A route explored by a signed-in role is only noted by the others, unless the admin sees more on it. The guest
   * sees the login detour the others never meet, so what it explores counts for nobody else.
   */
  function alreadyExplored(role: Role, route: string): boolean {
    const { shopper, admin } = results;
    if (role === 'anonymous') return shopper.explored.has(route) || admin.explored.has(route);
    if (ADMIN_SEES_MORE.includes(route)) return role === 'shopper' && admin.explored.has(route);
    return (role === 'shopper' ? admin : shopper).explored.has(route);
  }

  async function crawlAs(
    role: Role,
    account: { email: string; password: string } | null,
    startWith: RegExp,
    prefer?: RegExp[],
  ): Promise<void> {
    const { page } = await phonePage(browser);
    try {
      // The only URL the crawl opens.
      await page.goto(`${shop.url}/`, { waitUntil: 'networkidle' });
      if (account) await signInByTaps(page, account);
      await crawl(
        page,
        {
          avoid: AVOID,
          fills: FILLS,
          files: [{ name: 'photo.png', mimeType: 'image/png', buffer: PHOTO }],
          // Six crawlers share one browser on a 2-core machine; under CI load one took 120 s and missed a route.
          budgetMs: 200_000,
          log: (line) => trace.push(`${role}${startWith.source}: ${line}`),
          startWith,
          prefer,
          last: SUBMITS,
          skipExplore: (route) => alreadyExplored(role, route),
        },
        results[role],
      );
    } finally {
      await page.context().close();
    }
  }

  it('reaches every registered route, as anonymous, shopper and admin', async () => {
    // Crawlers of one role share what they explored and begin at different places on home, side by side.
    await Promise.all([
      crawlAs('shopper', SHOPPER, /^Mine$/, [/^(Prescriptions|Profile|Settings|Change password|Update password)/]),
      crawlAs('shopper', SHOPPER, /^Open the community$/, [
        /^(Publish|Article|Push)/,
        /^(History|People|Message|Groups)/,
        /^(\+|Location)$/,
      ]),
      crawlAs('shopper', SHOPPER, /^Search/, [
        /^Add to cart$/,
        /^Single Vision/,
        /^Non-prescription/,
        /^Try on/,
        /^See all$/,
      ]),
      crawlAs('shopper', SHOPPER, /^See all$/, [/^Try on/]),
      crawlAs('admin', ADMIN, /^(Admin|Mine)$/, ADMIN_WAYS),
      crawlAs('anonymous', null, /^Mine$/),
    ]);
    const reached = new Set(Object.values(results).flatMap((result) => [...result.reached]));
    const missing = registeredRoutes().filter((route) => !reached.has(route));
    for (const [role, result] of Object.entries(results)) {
      console.log(
        `${role} reached ${result.reached.size} routes:\n${[...result.trails].map(([route, trail]) => `  ${route} <- ${trail.join(' › ')}`).join('\n')}`,
      );
    }
    if (missing.length > 0) console.log(trace.join('\n'));
    expect(missing).toEqual([]);
  });
});

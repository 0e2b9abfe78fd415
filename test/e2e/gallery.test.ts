import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { type ProviderFakes, startProviderFakes } from '../../server/sandbox';
import { apiLogin, apiPost, signInAs } from './support/account-flow';
import { launchChromium, phonePage } from './support/browser';
import { registeredRoutes } from './support/routes';
import { type RunningShop, startShop } from './support/server';

/**
 * The gallery (issue 20 point 8): every registered route at 375×812 in three states, as PNG files under the
 * git-ignored test-artifacts/gallery/<route>--<state>.png, to be looked at. Deep URLs are what this test is about:
 * each screenshot opens its route by URL (the journeys reach pages by taps; the crawler proves every route has a
 * way in). It fails when a screenshot shows an uncaught page error, a blank page, a page wider than the phone or a
 * field past its box, a page still loading after SETTLE_MS, an empty state without the empty text the app defines for it, or (in the
 * error state, where every /api/** call answers HTTP 500) a page whose data failed without a visible error and a
 * way to retry or leave.
 */

jest.setTimeout(240_000);

const galleryDir = join(__dirname, '../../test-artifacts/gallery');

type State = 'loaded' | 'empty' | 'error';

const SHOPPER = { email: 'ada@lensmate.test', password: 'Shopper#2026a' };
const ADMIN = { email: 'admin@lensmate.test', password: 'Admin#2026pass' };
const CHAT_LINE = 'Are the round frames in stock?';
const NEWCOMER = { email: 'newcomer@lensmate.test', password: 'Newcomer#2026x', nickname: 'Newcomer' };

/** What a page may take to settle (its data shown, no loading toast or spinner) on a busy 2-core machine. */
const SETTLE_MS = 6_000;
/** The body every /api/** call gets in the error state: the shape the server's own failures have. */
const SERVER_FAILURE = { status: 500, msg: 'Something went wrong on our side', data: null };
const ERROR_SHOWN = /went wrong|could not|couldn't|failed|error/i;
const WAY_OUT = /^(Try again|Retry|Reload|Go back|Back|Back to home|Home)$/;

/** Pages for the team: the admin area, the agents' desk and the article draft (shown as admin). */
const ADMIN_PAGES = /^\/pages\/(admin\/|chat\/chat2$|addarticle\/)/;

const HISTORY = '/pages/history/history';

/** Pages open to guests: shown signed out in the loaded and empty states. */
const GUEST_PAGES = ['/pages/login/login', '/pages/login/findPassword', '/pages/regist/regist'];

/** The empty texts the app defines, for the pages a newcomer sees empty. */
const EMPTY_TEXTS: Record<string, string> = {
  '/pages/order/cart/cart': 'Your cart is empty',
  '/pages/order/place-order/place-order': 'Your cart is empty',
  '/pages/order/order-list/order-list-main': 'No orders yet',
  '/pages/order/address/address-list': 'No addresses yet',
  '/pages/index/search/searchList': 'No frames found',
  '/pages/message/message': 'No conversations yet',
  '/pages/history/history': 'Nothing read yet',
  '/pages/user/trends/trends': 'No articles yet',
  '/pages/user/albums/albums': 'No albums yet',
};

interface Ids {
  goodsId: number;
  colorId: number;
  lensTypeId: number;
  prescriptionId: number;
  orderId: number;
  articleId: number;
  categoryId: number;
  categoryName: string;
  sectionId: number;
  shopperId: number;
  benId: number;
  newcomerId: number;
  albumId: number;
  imageId: number;
  tagId: number;
  groupId: number;
}

/** The query a route is opened with in a state: real ids of the seeded shop (the newcomer's own where it has any). */
function queryOf(route: string, state: State, ids: Ids): string {
  const owner = state === 'empty' ? ids.newcomerId : ids.shopperId;
  const frame = `goods_id=${ids.goodsId}&color_id=${ids.colorId}`;
  const queries: Record<string, string> = {
    '/pages/product/product-list-main': `category_id=${ids.categoryId}`,
    '/pages/product/product': `id=${ids.goodsId}&color_id=${ids.colorId}`,
    '/pages/product/lens-type/lens-type': frame,
    '/pages/product/prescription/prescription': `${frame}&lens_type_id=${ids.lensTypeId}`,
    '/pages/product/lens/lens': `${frame}&lens_type_id=${ids.lensTypeId}&prescription_id=${ids.prescriptionId}`,
    '/pages/index/search/searchList': `keyword=${state === 'empty' ? 'zebra-striped%20monocle' : 'round'}`,
    '/pages/index/detail/detail': `id=${ids.sectionId}`,
    '/pages/category/categoryList/categoryList': `id=${ids.categoryId}&name=${encodeURIComponent(ids.categoryName)}`,
    '/pages/order/shipment/shipment': 'subtotal=120&country=US',
    '/pages/order/payment/payment': `order_id=${ids.orderId}`,
    '/pages/order/order-detail/order-detail': `order_id=${ids.orderId}`,
    '/pages/admin/product-edit': `id=${ids.goodsId}`,
    '/pages/admin/article-edit': `id=${ids.articleId}`,
    '/pages/admin/order-detail': `id=${ids.orderId}`,
    '/pages/article/article': `id=${ids.articleId}`,
    '/pages/user/user': `id=${owner}`,
    '/pages/user/trends/trends': `id=${owner}`,
    '/pages/user/albums/albums': `id=${owner}`,
    '/pages/user/albums/albumInfo': `id=${ids.albumId}`,
    '/pages/user/allUser/allUser': `type=followers&id=${owner}`,
    '/pages/addtag/addtag': `image_id=${ids.imageId}`,
    '/pages/tagImgList/tagImgList': `id=${ids.tagId}`,
    '/pages/message/privateChat/privateChat': `to=${ids.benId}`,
    '/pages/groupChat/groupChat': `to=${ids.groupId}`,
    '/pages/chat/chat': `goods_id=${ids.goodsId}`,
    '/pages/tryon/tryon': `id=${ids.goodsId}&color_id=${ids.colorId}`,
    '/pages/location/open-location':
      'name=Lensmate%20store&address=1%20Market%20Street&latitude=37.7946&longitude=-122.3950',
  };
  const query = queries[route];
  return query ? `?${query}` : '';
}

function fileName(route: string, state: State): string {
  return `${route.replace(/^\/pages\//, '').replace(/\//g, '_')}--${state}.png`;
}

async function checked<T>(label: string, answer: Promise<{ status: number; msg: string; data: T }>): Promise<T> {
  const { status, msg, data } = await answer;
  if (status !== 200) throw new Error(`${label}: ${status} ${msg}`);
  return data;
}

/** The shopper's history (an address, a prescription, a cart line, an order) and the ids the routes need. */
async function seed(base: string): Promise<Ids> {
  const token = await apiLogin(base, SHOPPER.email, SHOPPER.password);
  const post = <T>(path: string, body: unknown, as = token) => checked<T>(path, apiPost<T>(base, path, body, as));
  const get = async <T>(path: string): Promise<T> => {
    const body = (await (await fetch(`${base}${path}`, { headers: { 'lensmate-token': token } })).json()) as {
      status: number;
      msg: string;
      data: T;
    };
    return checked(path, Promise.resolve(body));
  };
  const goods = await post<{ list: { goods_id: number; color_arr: { color_id: number; stock: number | null }[] }[] }>(
    '/api/goods/get_goods_page',
    { page: 1, page_size: 20 },
  );
  const frame = goods.list.find((item) => item.color_arr[0].stock === null) ?? goods.list[0];
  const colorId = frame.color_arr[0].color_id;
  const lensTypes = await post<{ lens_type_id: number; needs_prescription: boolean; needs_add: boolean }[]>(
    '/api/goods/get_lens_type',
    { goods_id: frame.goods_id, color_id: colorId },
  );
  const singleVision = lensTypes.find((type) => type.needs_prescription && !type.needs_add) ?? lensTypes[0];
  const prescription = await post<{ prescription_id: number }>('/api/order/submit_my_prescription', {
    name: 'Distance 2026',
    od: { sph: -6, cyl: -0.5, axis: 90, add: null, prism: null, base: null },
    os: { sph: -5.75, cyl: null, axis: null, add: null, prism: null, base: null },
    pd: { kind: 'single', value: 63 },
  });
  const address = await post<{ address_id: number }>('/api/user/set_user_address', {
    first_name: 'Ada',
    last_name: 'Lovelace',
    phone: '+1 415 555 0100',
    country_code: 'US',
    province: 'CA',
    city: 'San Francisco',
    street: '1 Market Street',
    zip: '94105',
  });
  const line = { goods_id: frame.goods_id, color_id: colorId, quantity: 1 };
  const order = await post<{ order_id: number }>('/api/order/submit_order', {
    client_key: 'gallery-order-1',
    address_id: address.address_id,
    shipping_method_id: 1,
    lines: [line],
  });
  await post('/api/order/upload_cart', {
    content: JSON.stringify({ lines: [{ ...line, lens: null, prescription_id: null }] }),
  });
  const articles = await post<{ list: { article_id: number }[] }>('/api/article/get_article_list', {
    page: 1,
    page_size: 1,
  });
  const home = await get<{ categories: { category_id: number; category_name: string }[]; sections: { id: number }[] }>(
    '/api/index/shop_mainpage',
  );
  const users = await post<{ list: { user_id: number; nickname: string }[] }>('/api/social/users', {});
  const me = await post<{ user_id: number }>('/api/social/profile', {});
  const albums = await post<{ album_id: number }[]>('/api/social/albums', {});
  const album = await post<{ images: { image_id: number }[] }>('/api/social/album', { album_id: albums[0].album_id });
  const tags = await post<{ tag_id: number }[]>('/api/social/tags', {});
  const groups = await post<{ group_id: number }[]>('/api/social/groups', {});
  const newcomer = await checked('register', apiPost<{ user_id: number }>(base, '/api/auth/register', NEWCOMER));
  const ben = users.list.find((user) => user.nickname === 'Ben');
  if (!ben) throw new Error('the demo data has no Ben');
  return {
    goodsId: frame.goods_id,
    colorId,
    lensTypeId: singleVision.lens_type_id,
    prescriptionId: prescription.prescription_id,
    orderId: order.order_id,
    articleId: articles.list[0].article_id,
    categoryId: home.categories[0].category_id,
    categoryName: home.categories[0].category_name,
    sectionId: home.sections[0].id,
    shopperId: me.user_id,
    benId: ben.user_id,
    newcomerId: newcomer.user_id,
    albumId: albums[0].album_id,
    imageId: album.images[0].image_id,
    tagId: tags[0].tag_id,
    groupId: groups[0].group_id,
  };
}

/**
 * Waits for the page on top to settle: no transition, no loading toast, no spinner or "Loading" text, twice
 * 300 ms apart (a page often asks its second call once the first has answered).
 */
async function settle(page: Page): Promise<boolean> {
  const deadline = Date.now() + SETTLE_MS;
  if (!(await settledBy(page, deadline))) return false;
  await page.waitForTimeout(300);
  return settledBy(page, deadline);
}

async function settledBy(page: Page, deadline: number): Promise<boolean> {
  try {
    await page.waitForFunction(
      () => {
        const pages = Array.from(document.querySelectorAll<HTMLElement>('.taro_page')).filter(
          (node) => node.style.display !== 'none',
        );
        const top = pages[pages.length - 1];
        if (!top || Math.abs(top.getBoundingClientRect().left) >= 1) return false;
        const toast = Array.from(document.querySelectorAll<HTMLElement>('.taro__toast')).some((node) => {
          const style = getComputedStyle(node);
          return style.display !== 'none' && style.opacity !== '0' && node.innerText.includes('Loading');
        });
        const spinner = Array.from(top.querySelectorAll<HTMLElement>('.shop-state__spinner')).some(
          (node) => node.offsetParent !== null,
        );
        return !toast && !spinner && !/^Loading/m.test(top.innerText);
      },
      undefined,
      { timeout: Math.max(deadline - Date.now(), 1), polling: 100 },
    );
    return true;
  } catch {
    return false;
  }
}

/** The visible text of the page on top (Taro keeps pages left behind in the document, hidden). */
function topText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const pages = Array.from(document.querySelectorAll<HTMLElement>('.taro_page')).filter(
      (node) => node.style.display !== 'none',
    );
    return (pages[pages.length - 1]?.innerText ?? '').trim();
  });
}

interface Shot {
  route: string;
  state: State;
  problems: string[];
}

/**
 * Scrolled to its end, the page shows every line clear of the floating Cart button: the text under the button's box,
 * other than the button's own and what floats above the page too (the tab bar, banners, toasts); null on a page
 * without it.
 */
async function textUnderFloatingCart(page: Page): Promise<string[] | null> {
  return page.evaluate(async () => {
    const pages = Array.from(document.querySelectorAll<HTMLElement>('.taro_page')).filter(
      (node) => node.style.display !== 'none',
    );
    const top = pages[pages.length - 1];
    const button = top?.querySelector<HTMLElement>('.cart-button--floating');
    if (!top || !button) return null;
    window.scrollTo(0, document.documentElement.scrollHeight);
    top.scrollTop = top.scrollHeight;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const area = button.getBoundingClientRect();
    const floats = (element: HTMLElement): boolean => {
      for (let at: HTMLElement | null = element; at && at !== top; at = at.parentElement) {
        if (getComputedStyle(at).position === 'fixed') return true;
      }
      return false;
    };
    const hits: string[] = [];
    const walker = document.createTreeWalker(top, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const parent = node.parentElement;
      if (!text || !parent || button.contains(parent)) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const under = Array.from(range.getClientRects()).some(
        (box) =>
          box.width > 0 &&
          box.height > 0 &&
          box.left < area.right &&
          box.right > area.left &&
          box.top < area.bottom &&
          box.bottom > area.top,
      );
      if (under && !floats(parent)) hits.push(text.slice(0, 40));
    }
    return hits;
  });
}

describe('the gallery: every route at 375×812, loaded, empty and failing (H5 build, headless Chromium)', () => {
  let fakes: ProviderFakes;
  let shop: RunningShop;
  let browser: Browser;
  let ids: Ids;

  beforeAll(async () => {
    rmSync(galleryDir, { recursive: true, force: true });
    mkdirSync(galleryDir, { recursive: true });
    // The payment providers' local fakes, so that the payment page shows its ways to pay.
    fakes = await startProviderFakes();
    [shop, browser] = await Promise.all([
      startShop({ ...fakes.env, H5_DIR: process.env.LENSMATE_E2E_H5_DIR ?? 'dist/h5', AUTH_RATE_LIMIT_MAX: '50' }),
      launchChromium(),
    ]);
    fakes.connect(shop.url);
    ids = await seed(shop.url);
  });

  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
    await fakes?.close();
    console.log(`gallery: ${galleryDir}`);
  });

  /** One page per state and account, reused for each of its routes; the API answers 500 once `failing`. */
  async function worker(
    state: State,
    account: { email: string; password: string } | null,
    routes: string[],
    prepare?: (page: Page) => Promise<void>,
  ): Promise<Shot[]> {
    const { page, errors } = await phonePage(browser);
    const shots: Shot[] = [];
    try {
      if (account) await signInAs(page, shop.url, account.email, account.password);
      if (prepare) await prepare(page);
      const requested = new Set<string>();
      page.on('request', (request) => {
        const path = new URL(request.url()).pathname;
        if (path.startsWith('/api/')) requested.add(path);
      });
      if (state === 'error') {
        await page.route('**/api/**', (route) =>
          route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify(SERVER_FAILURE) }),
        );
      }
      // What the app asks at start on any page (the login page asks nothing of its own).
      await page.goto(`${shop.url}/pages/login/login`, { waitUntil: 'load' });
      await settle(page);
      const atStart = new Set(requested);
      for (const route of routes) {
        requested.clear();
        errors.length = 0;
        const problems: string[] = [];
        await page.goto(`${shop.url}${route}${queryOf(route, state, ids)}`, { waitUntil: 'load' });
        const settled = await settle(page);
        await page.screenshot({ path: join(galleryDir, fileName(route, state)) });
        const text = await topText(page);
        if (!settled) problems.push(`still loading after ${SETTLE_MS} ms`);
        if (errors.length > 0) problems.push(`uncaught page error: ${errors.join(' | ')}`);
        if (text === '') problems.push('blank page');
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        if (overflow > 0) problems.push(`${overflow} px wider than the phone`);
        const spilling = await page.evaluate(() => {
          const pages = Array.from(document.querySelectorAll<HTMLElement>('.taro_page')).filter(
            (node) => node.style.display !== 'none',
          );
          const fields = Array.from(pages[pages.length - 1]?.querySelectorAll<HTMLElement>('input, textarea') ?? []);
          return fields
            .filter((field) => field.offsetParent !== null && field.parentElement)
            .filter((field) => {
              const box = field.getBoundingClientRect();
              const around = (field.parentElement as HTMLElement).getBoundingClientRect();
              return box.right > around.right + 1 || box.right > window.innerWidth;
            })
            .map((field) => field.getAttribute('name') ?? field.tagName.toLowerCase());
        });
        if (spilling.length > 0) problems.push(`fields past their box: ${spilling.join(', ')}`);
        const underCart = await textUnderFloatingCart(page);
        if (underCart !== null) {
          await page.screenshot({ path: join(galleryDir, fileName(route, state).replace(/\.png$/, '-end.png')) });
        }
        if (underCart?.length) problems.push(`text under the Cart button at the page's end: ${underCart.join(' | ')}`);
        const ownRequests = [...requested].filter((path) => !atStart.has(path));
        if (state === 'error' && ownRequests.length > 0) {
          const wayOut = await page.locator('.taro_page:visible').last().getByText(WAY_OUT).filter({ visible: true });
          if (!ERROR_SHOWN.test(text)) problems.push(`no error shown for failed ${ownRequests.join(', ')}`);
          if ((await wayOut.count()) === 0) problems.push('no way to retry or go back');
        }
        const empty = EMPTY_TEXTS[route];
        if (state === 'empty' && empty && !text.includes(empty)) problems.push(`no "${empty}"`);
        shots.push({ route, state, problems });
      }
    } finally {
      await page.context().close();
    }
    return shots;
  }

  it('renders every registered route in its loaded, empty and error states without a broken screen', async () => {
    const started = Date.now();
    const routes = registeredRoutes();
    const admin = routes.filter((route) => ADMIN_PAGES.test(route));
    const guest = routes.filter((route) => GUEST_PAGES.includes(route));
    const shopper = routes.filter((route) => !admin.includes(route) && !guest.includes(route));
    // A chat history for the loaded chats: Ada writes to Ben and to the group before her screenshots.
    const chatHistory = async (page: Page) => {
      for (const to of [
        `/pages/message/privateChat/privateChat?to=${ids.benId}`,
        `/pages/groupChat/groupChat?to=${ids.groupId}`,
      ]) {
        await page.goto(`${shop.url}${to}`, { waitUntil: 'load' });
        const top = page.locator('.taro_page:visible').last();
        await top.locator('input[name="message"]').fill(CHAT_LINE);
        await top.locator('.chat__send').click();
        await top.getByText(CHAT_LINE, { exact: true }).filter({ visible: true }).first().waitFor({ timeout: 20_000 });
      }
    };
    const halves = [shopper.slice(0, Math.ceil(shopper.length / 2)), shopper.slice(Math.ceil(shopper.length / 2))];
    const results = (
      await Promise.all([
        worker('loaded', SHOPPER, halves[0], chatHistory),
        worker('loaded', SHOPPER, halves[1]),
        worker('loaded', ADMIN, admin),
        worker('loaded', null, guest),
        // History first: it lists the articles this browser opened, and the newcomer opens one further on.
        worker('empty', NEWCOMER, [HISTORY, ...shopper.filter((route) => route !== HISTORY)]),
        worker('empty', null, guest),
        worker('error', SHOPPER, shopper),
        worker('error', ADMIN, admin),
        worker('error', null, guest),
      ])
    ).flat();
    const broken = results
      .filter((shot) => shot.problems.length > 0)
      .map((shot) => `${fileName(shot.route, shot.state)}: ${shot.problems.join('; ')}`);
    console.log(
      `gallery: ${results.length} screenshots of ${routes.length} routes in ${Math.round((Date.now() - started) / 1000)} s in ${galleryDir}`,
    );
    // The team's pages have no empty state here: the seeded shop's catalogue and orders are what an admin manages.
    expect(results.length).toBe(routes.length * 3 - admin.length);
    expect(broken).toEqual([]);
  });
});

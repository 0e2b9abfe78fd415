import { CONNECTION_LOST_MESSAGE } from '@/features/paging/use-paged-list';
import { signOut } from '@/state/customer';
import { OFFLINE_TEXT } from '@/ui/offline/offline-text';
import Taro from '@tarojs/taro';
import { currentPageElement, typeInto, waitForPath } from '../../setup/mount-app';
import { orderOf, signInAda } from '../order/support';
import {
  COLORS,
  FILTERS,
  type FakeApi,
  byText,
  click,
  fakeApi,
  makeGoods,
  mountShop,
  ok,
  page,
  textOf,
  wait,
  waitFor,
  waitForText,
} from './support';

/**
 * Paged lists when a later page fails (a refusal, or the connection lost) and the offline banner: "Try again"
 * asks for the failed page again and scrolling then goes on; the banner follows the browser's online status;
 * what a lost request left waiting is released when the connection is back.
 */

/** The device's network as the fake API sees it: offline, every request fails like a network error. */
let networkUp = true;

function setNetwork(up: boolean): void {
  networkUp = up;
  Object.defineProperty(window.navigator, 'onLine', { value: up, configurable: true });
  window.dispatchEvent(new Event(up ? 'online' : 'offline'));
}

/** The product API faked by route, behind a network that can go down. */
function shopApi(): FakeApi {
  const api = fakeApi();
  const request = jest.spyOn(Taro, 'request');
  const answer = request.getMockImplementation() as (options: Taro.request.Option) => Promise<unknown>;
  request.mockImplementation(((options: Taro.request.Option) => {
    if (networkUp) return answer(options);
    api.calls.push({ route: `${options.method} lost ${options.url}`, body: {} });
    return Promise.reject({ errMsg: 'request:fail net::ERR_INTERNET_DISCONNECTED' });
  }) as never);
  api.on('GET /api/config/get_colors', () => ok(COLORS));
  api.on('GET /api/config/get_filters', () => ok(FILTERS));
  return api;
}

const frames = (from: number, count: number) => Array.from({ length: count }, (_, i) => makeGoods(from + i));
const reachBottom = () => Taro.getCurrentInstance().page?.onReachBottom?.();
const pagesAsked = (api: FakeApi) => api.bodiesOf('POST /api/goods/get_goods_page').map((body) => body.page);
const bannerShown = () => document.body.textContent?.includes(OFFLINE_TEXT) ?? false;

beforeEach(() => {
  Taro.clearStorageSync();
  signOut();
  if (!networkUp) setNetwork(true);
});

afterEach(() => {
  jest.restoreAllMocks();
});

it('a later page that fails shows Try again, which asks for that page; scrolling then loads the next', async () => {
  const api = shopApi();
  let secondAsked = 0;
  api.on('POST /api/goods/get_goods_page', (body) => {
    if (body.page === 2) {
      secondAsked += 1;
      if (secondAsked === 1) return { status: 503, msg: 'The catalogue is busy, try again' };
      return ok(page(frames(11, 10), 25, 2));
    }
    if (body.page === 3) return ok(page(frames(21, 5), 25, 3));
    return ok(page(frames(1, 10), 25, 1));
  });
  await mountShop('/pages/product/product-list-main');
  await waitForText('25 frames');
  reachBottom();
  await waitForText('The catalogue is busy, try again');
  expect(textOf()).toContain('Try again');
  // Scrolling on does not hammer the failed page: only Try again asks again.
  reachBottom();
  await wait(100);
  expect(pagesAsked(api)).toEqual([1, 2]);
  click(byText('Try again'));
  await waitForText('Frame 20');
  expect(textOf()).not.toContain('The catalogue is busy');
  reachBottom();
  await waitForText('Frame 25');
  await waitForText('That is every frame');
  expect(pagesAsked(api)).toEqual([1, 2, 2, 3]);
});

it('the offline banner appears while the browser is offline and goes when it is back', async () => {
  const api = shopApi();
  api.on('POST /api/goods/get_goods_page', () => ok(page(frames(1, 3), 3, 1)));
  await mountShop('/pages/product/product-list-main');
  await waitForText('3 frames');
  expect(bannerShown()).toBe(false);
  setNetwork(false);
  await waitFor(bannerShown, 'the offline banner');
  setNetwork(true);
  await waitFor(() => !bannerShown(), 'the offline banner to go');
});

it('a page lost with the connection waits (no false success), and on reconnection offers Try again', async () => {
  const api = shopApi();
  api.on('POST /api/goods/get_goods_page', (body) =>
    ok(page(frames((Number(body.page) - 1) * 10 + 1, body.page === 3 ? 5 : 10), 25, Number(body.page))),
  );
  await mountShop('/pages/product/product-list-main');
  await waitForText('25 frames');
  setNetwork(false);
  await waitFor(bannerShown, 'the offline banner');
  reachBottom();
  await waitForText('Loading more…');
  await wait(200);
  // The lost request never settles: still waiting, no error, no page.
  expect(textOf()).toContain('Loading more…');
  expect(textOf()).not.toContain('Try again');
  expect(textOf()).not.toContain('Frame 11');
  setNetwork(true);
  await waitForText(CONNECTION_LOST_MESSAGE);
  expect(bannerShown()).toBe(false);
  click(byText('Try again'));
  await waitForText('Frame 20');
  reachBottom();
  await waitForText('That is every frame');
  expect(pagesAsked(api)).toEqual([1, 2, 3]);
});

it('a button left waiting by a lost connection is enabled again on reconnection, and then works', async () => {
  const api = shopApi();
  api.on('POST /api/auth/login', () =>
    ok({ user_id: 3, email: 'ann@example.com', nickname: 'Ann', avatar: '', is_admin: false, token: 'tok-ann' }),
  );
  await mountShop('/pages/login/login');
  await waitForPath('/pages/login/login');
  const submit = () => currentPageElement().querySelector<HTMLElement>('.login__submit') as HTMLElement;
  await typeInto(currentPageElement(), 'email', 'ann@example.com');
  await typeInto(currentPageElement(), 'password', 'right-pass-1');
  await wait(50);
  setNetwork(false);
  click(submit());
  await waitFor(() => submit().hasAttribute('disabled'), 'the button waiting');
  await wait(200);
  // The lost sign-in never settles: the button stays waiting while offline.
  expect(submit().hasAttribute('disabled')).toBe(true);
  expect(api.calls.some((call) => call.route.includes('lost'))).toBe(true);
  setNetwork(true);
  await waitFor(() => !submit().hasAttribute('disabled'), 'the button enabled again');
  click(submit());
  await waitFor(() => !window.location.hash.includes('/pages/login/login'), 'leaving login after signing in');
  expect(api.bodiesOf('POST /api/auth/login')).toHaveLength(1);
});

it('the orders list: a failed second page, Try again, then the third page on scrolling', async () => {
  signInAda();
  const api = shopApi();
  let secondAsked = 0;
  api.on('POST /api/order/get_user_order', (body) => {
    if (body.page === 2) {
      secondAsked += 1;
      if (secondAsked === 1) return { status: 500, msg: 'orders: the server is busy' };
    }
    const from = (Number(body.page) - 1) * 10 + 1;
    const count = body.page === 3 ? 2 : 10;
    const list = Array.from({ length: count }, (_, i) => orderOf({ order_id: from + i, order_sn: `LM-${from + i}` }));
    return ok({ list, total: 22, page: Number(body.page), page_size: 10 });
  });
  await mountShop('/pages/order/order-list/order-list-main');
  await waitForText('LM-10');
  reachBottom();
  await waitForText('The server is busy');
  expect(textOf()).not.toContain('LM-11');
  click(byText('Try again'));
  await waitForText('LM-20');
  reachBottom();
  await waitForText('LM-22');
  await waitForText('That is all your orders');
  const pages = api.bodiesOf('POST /api/order/get_user_order').map((body) => body.page);
  expect(pages).toEqual([1, 2, 2, 3]);
});

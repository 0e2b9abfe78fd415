import {
  ADMIN_ONLY_MESSAGE,
  MAX_ROUTE_ENTRIES,
  buildUrl,
  goBack,
  goHome,
  goTo,
  openPage,
  pushRoute,
  recordRoute,
  requireLogin,
  returnAfterLogin,
  routeStack,
} from '@/core/navigation';
import { NAMED_TARGETS, isProtectedPage, isTabPage, normalizePath } from '@/core/routes';
import type { RouteEntry } from '@/core/storage';
import { customerAtom, signIn, signOut } from '@/state/customer';
import { appStore } from '@/state/store';
import Taro from '@tarojs/taro';

const user = { user_id: 1, email: 'ann@example.com', nickname: 'Ann', avatar: '', is_admin: false, token: 'tok' };
const admin = { ...user, user_id: 2, is_admin: true, token: 'tok-admin' };

const entry = (path: string, query: Record<string, string> = {}): RouteEntry => ({ path, query });

/** Taro's page-opening APIs are the boundary: each spy records the call and succeeds unless told to fail. */
const nav = {} as Record<
  'navigateTo' | 'redirectTo' | 'switchTab' | 'reLaunch' | 'navigateBack' | 'showToast',
  jest.SpyInstance
>;

/** The live page stack (WeChat's getCurrentPages), bottom first; empty unless a test opens pages. */
function openPages(...pages: { route: string; options?: Record<string, string> }[]) {
  jest.spyOn(Taro, 'getCurrentPages').mockReturnValue(pages as never);
}

function onScreen(path: string, params: Record<string, string> = {}) {
  jest.spyOn(Taro, 'getCurrentInstance').mockReturnValue({ router: { path, params } } as never);
}

beforeEach(() => {
  Taro.clearStorageSync();
  signOut();
  appStore.set(customerAtom, { toPage: '', toPageParams: {} });
  for (const api of ['navigateTo', 'redirectTo', 'switchTab', 'reLaunch', 'navigateBack', 'showToast'] as const) {
    nav[api] = jest.spyOn(Taro, api).mockImplementation((() => Promise.resolve({ errMsg: `${api}:ok` })) as never);
  }
  openPages();
});

afterEach(() => {
  jest.restoreAllMocks();
});

describe('route stack', () => {
  const a = entry('/pages/a');
  const b = entry('/pages/b', { id: '1' });

  it('adds pages in order', () => {
    expect(pushRoute([a], b, false)).toEqual([a, b]);
  });

  it('does not add a consecutive duplicate', () => {
    expect(pushRoute([a, b], entry('/pages/b', { id: '1' }), false)).toEqual([a, b]);
    expect(pushRoute([a, b], entry('/pages/b', { id: '1' }), true)).toEqual([a, b]);
  });

  it('adds the same page again when something else came between', () => {
    expect(pushRoute([a, b], a, false)).toEqual([a, b, a]);
  });

  it('adds the same page with other params as a new entry when it is not a reload', () => {
    expect(pushRoute([a, b], entry('/pages/b', { id: '2' }), false)).toEqual([a, b, entry('/pages/b', { id: '2' })]);
  });

  it('replaces the last entry when the same page is reloaded', () => {
    expect(pushRoute([a, b], entry('/pages/b', { id: '2' }), true)).toEqual([a, entry('/pages/b', { id: '2' })]);
  });

  it('keeps at most 20 entries: the 21st drops the oldest', () => {
    let stack: RouteEntry[] = [];
    for (let i = 1; i <= 20; i += 1) stack = pushRoute(stack, entry(`/pages/p${i}`), false);
    expect(stack).toHaveLength(MAX_ROUTE_ENTRIES);
    stack = pushRoute(stack, entry('/pages/p21'), false);
    expect(stack).toHaveLength(20);
    expect(stack[0].path).toBe('/pages/p2');
    expect(stack[19].path).toBe('/pages/p21');
  });

  it('is kept in storage; the first page after launch counts as a reload', () => {
    Taro.setStorageSync('routeStack', [a, b]);
    recordRoute(entry('pages/b', { id: '9' }));
    expect(routeStack()).toEqual([a, entry('/pages/b', { id: '9' })]);
    recordRoute(entry('/pages/b', { id: '10' }));
    expect(routeStack()).toEqual([a, entry('/pages/b', { id: '9' }), entry('/pages/b', { id: '10' })]);
    recordRoute(entry('/pages/b', { id: '10' }));
    expect(routeStack()).toHaveLength(3);
  });

  it('does not record the login page, so back never returns to it', () => {
    Taro.setStorageSync('routeStack', [a]);
    recordRoute(entry('/pages/login/login'));
    expect(routeStack()).toEqual([a]);
  });

  it('treats missing or damaged storage as an empty history', () => {
    expect(routeStack()).toEqual([]);
    Taro.setStorageSync('routeStack', 'garbage');
    expect(routeStack()).toEqual([]);
  });
});

describe('routes', () => {
  it("treat '/' as the home page and compare paths with a leading slash and no query", () => {
    expect(normalizePath('/')).toBe('/pages/index/index');
    expect(normalizePath('')).toBe('/pages/index/index');
    expect(normalizePath('pages/mine/index/mine?x=1')).toBe('/pages/mine/index/mine');
  });

  it('know the tab pages and the protected pages', () => {
    expect(isTabPage('/pages/index/index')).toBe(true);
    expect(isTabPage('pages/mine/index/mine')).toBe(true);
    expect(isTabPage('/pages/userReview/index')).toBe(true);
    expect(isTabPage(NAMED_TARGETS.cart)).toBe(false);
    for (const target of ['mine', 'cart', 'orderList', 'orderDetail', 'addressList', 'myPrescriptionList'] as const) {
      expect(isProtectedPage(NAMED_TARGETS[target])).toBe(true);
    }
    expect(isProtectedPage('/pages/index/index')).toBe(false);
    expect(isProtectedPage('/pages/product/product')).toBe(false);
  });

  it('put data in the query string only', () => {
    expect(buildUrl('/pages/product/product', { id: '3', q: 'a b&c' })).toBe('/pages/product/product?id=3&q=a%20b%26c');
    expect(buildUrl('/pages/product/product')).toBe('/pages/product/product');
  });
});

describe('guard', () => {
  it('sends a guest from a protected page to login and remembers the page and its params', async () => {
    await openPage(NAMED_TARGETS.orderDetail, { id: '12' });
    expect(nav.navigateTo).toHaveBeenCalledWith({ url: '/pages/login/login' });
    expect(appStore.get(customerAtom)).toMatchObject({ toPage: NAMED_TARGETS.orderDetail, toPageParams: { id: '12' } });
  });

  it('lets a signed-in user through with the params in the query', async () => {
    signIn(user);
    await openPage(NAMED_TARGETS.orderDetail, { id: '12' });
    expect(nav.navigateTo).toHaveBeenCalledWith({ url: '/pages/order/order-detail/order-detail?id=12' });
  });

  it('opens tab pages by tab switch', async () => {
    signIn(user);
    await goTo('mine');
    expect(nav.switchTab).toHaveBeenCalledWith({ url: '/pages/mine/index/mine' });
    expect(nav.navigateTo).not.toHaveBeenCalled();
  });

  it('does not guard public pages', async () => {
    await openPage('/pages/product/product', { id: '5' });
    expect(nav.navigateTo).toHaveBeenCalledWith({ url: '/pages/product/product?id=5' });
  });

  it('replaces a protected page opened directly without a token by login', () => {
    expect(requireLogin(entry('/pages/order/cart/cart', { from: 'share' }))).toBe(false);
    expect(nav.redirectTo).toHaveBeenCalledWith({ url: '/pages/login/login' });
    expect(appStore.get(customerAtom)).toMatchObject({
      toPage: '/pages/order/cart/cart',
      toPageParams: { from: 'share' },
    });
    signIn(user);
    expect(requireLogin(entry('/pages/order/cart/cart'))).toBe(true);
    expect(nav.redirectTo).toHaveBeenCalledTimes(1);
  });

  it('returns to the remembered page after login, once', async () => {
    await openPage(NAMED_TARGETS.orderDetail, { id: '12' });
    signIn(user);
    await returnAfterLogin();
    expect(nav.redirectTo).toHaveBeenCalledWith({ url: '/pages/order/order-detail/order-detail?id=12' });
    expect(appStore.get(customerAtom)).toMatchObject({ toPage: '', toPageParams: {} });
  });

  it('without a remembered page, returns to where the user was before the pages of signing in', async () => {
    Taro.setStorageSync('routeStack', [
      entry('/pages/index/index'),
      entry('/pages/product/product', { id: '3' }),
      entry('/pages/login/login'),
      entry('/pages/login/findPassword'),
      entry('/pages/login/login'),
    ]);
    onScreen('/pages/login/login');
    signIn(user);
    await returnAfterLogin();
    expect(nav.redirectTo).toHaveBeenCalledWith({ url: '/pages/product/product?id=3' });
    expect(routeStack()).toEqual([entry('/pages/index/index'), entry('/pages/product/product', { id: '3' })]);
  });

  it('without a remembered page or a page before signing in, goes home', async () => {
    Taro.setStorageSync('routeStack', [entry('/pages/regist/regist'), entry('/pages/login/login')]);
    onScreen('/pages/login/login');
    signIn(user);
    await returnAfterLogin();
    expect(nav.reLaunch).toHaveBeenCalledWith({ url: '/pages/index/index' });
  });

  it('returns to a remembered tab page by tab switch', async () => {
    await goTo('mine');
    signIn(user);
    await returnAfterLogin();
    expect(nav.switchTab).toHaveBeenCalledWith({ url: '/pages/mine/index/mine' });
  });
});

describe('admin target', () => {
  it('opens the admin edit list for an admin', async () => {
    signIn(admin);
    await goTo('admin');
    expect(nav.navigateTo).toHaveBeenCalledWith({ url: '/pages/admin/edit-list' });
  });

  it('tells a signed-in non-admin the area is for administrators and opens nothing', async () => {
    signIn(user);
    await goTo('admin');
    expect(nav.showToast).toHaveBeenCalledWith(expect.objectContaining({ title: ADMIN_ONLY_MESSAGE }));
    expect(nav.navigateTo).not.toHaveBeenCalled();
  });

  it('sends a guest to login and remembers the admin list', async () => {
    await goTo('admin');
    expect(nav.navigateTo).toHaveBeenCalledWith({ url: '/pages/login/login' });
    expect(appStore.get(customerAtom).toPage).toBe('/pages/admin/edit-list');
  });
});

describe('back and home', () => {
  it('goes back to the previously recorded page by redirect, dropping the current one', async () => {
    Taro.setStorageSync('routeStack', [
      entry('/pages/index/index'),
      entry('/pages/product/product', { id: '3' }),
      entry('/pages/order/cart/cart'),
    ]);
    onScreen('/pages/order/cart/cart');
    await goBack();
    expect(nav.redirectTo).toHaveBeenCalledWith({ url: '/pages/product/product?id=3' });
    expect(routeStack()).toEqual([entry('/pages/index/index'), entry('/pages/product/product', { id: '3' })]);
  });

  it('reaches a tab page by tab switch', async () => {
    Taro.setStorageSync('routeStack', [entry('/pages/mine/index/mine'), entry('/pages/order/cart/cart')]);
    onScreen('/pages/order/cart/cart');
    await goBack();
    expect(nav.switchTab).toHaveBeenCalledWith({ url: '/pages/mine/index/mine' });
    expect(nav.redirectTo).not.toHaveBeenCalled();
  });

  it('goes home with no history', async () => {
    onScreen('/pages/product/product', { id: '1' });
    await goBack();
    expect(nav.reLaunch).toHaveBeenCalledWith({ url: '/pages/index/index' });
    Taro.setStorageSync('routeStack', [entry('/pages/product/product', { id: '1' })]);
    await goBack();
    expect(nav.reLaunch).toHaveBeenCalledTimes(2);
  });

  it('falls back to a plain navigate and then to a relaunch', async () => {
    Taro.setStorageSync('routeStack', [entry('/pages/product/product', { id: '3' }), entry('/pages/order/cart/cart')]);
    onScreen('/pages/order/cart/cart');
    nav.redirectTo.mockImplementation((() => Promise.reject(new Error('redirectTo:fail'))) as never);
    await goBack();
    expect(nav.navigateTo).toHaveBeenCalledWith({ url: '/pages/product/product?id=3' });
    expect(nav.reLaunch).not.toHaveBeenCalled();
    nav.navigateTo.mockImplementation((() => Promise.reject(new Error('navigateTo:fail'))) as never);
    Taro.setStorageSync('routeStack', [entry('/pages/product/product', { id: '3' }), entry('/pages/order/cart/cart')]);
    await goBack();
    expect(nav.reLaunch).toHaveBeenCalledWith({ url: '/pages/product/product?id=3' });
  });

  it('go-home relaunches the index page', async () => {
    await goHome();
    expect(nav.reLaunch).toHaveBeenCalledWith({ url: '/pages/index/index' });
  });

  it('goes back through the open pages to a recorded page that is still open, instead of opening it again', async () => {
    Taro.setStorageSync('routeStack', [
      entry('/pages/order/place-order/place-order'),
      entry('/pages/order/address/address-list', { select: '1' }),
    ]);
    onScreen('/pages/order/address/address-list', { select: '1' });
    openPages(
      { route: 'pages/index/index' },
      { route: 'pages/order/place-order/place-order', options: { $taroTimestamp: '1' } },
      { route: 'pages/order/address/address-list', options: { select: '1' } },
    );
    await goBack();
    expect(nav.navigateBack).toHaveBeenCalledWith({ delta: 1 });
    expect(nav.redirectTo).not.toHaveBeenCalled();
  });

  it('after login goes back to the remembered page when it is open under the login page', async () => {
    onScreen('/pages/product/product', { id: '3' });
    await openPage(NAMED_TARGETS.orderDetail, { id: '12' });
    openPages(
      { route: 'pages/order/order-list/order-list-main' },
      { route: 'pages/order/order-detail/order-detail', options: { id: '12' } },
      { route: 'pages/login/login' },
    );
    signIn(user);
    await returnAfterLogin();
    expect(nav.navigateBack).toHaveBeenCalledWith({ delta: 1 });
    expect(nav.redirectTo).not.toHaveBeenCalled();
  });

  it('after login without a remembered page goes back to where the user came from', async () => {
    Taro.setStorageSync('routeStack', [entry('/pages/product/product', { id: '3' }), entry('/pages/login/login')]);
    onScreen('/pages/login/login');
    signIn(user);
    await returnAfterLogin();
    expect(nav.redirectTo).toHaveBeenCalledWith({ url: '/pages/product/product?id=3' });
  });
});

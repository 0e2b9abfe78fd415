import { readStorage, removeStorage, writeStorage } from '@/core/storage';
import type * as CustomerModule from '@/state/customer';
import type * as GoodsModule from '@/state/goods';
import type * as LensModule from '@/state/lens';
import type * as ShopModule from '@/state/shop';
import type * as StoreModule from '@/state/store';
import Taro from '@tarojs/taro';

interface Modules {
  customer: typeof CustomerModule;
  lens: typeof LensModule;
  goods: typeof GoodsModule;
  shop: typeof ShopModule;
  store: typeof StoreModule;
  taro: typeof Taro;
}

/** Loads the state modules as a fresh app start would: persisted atoms read storage when they are created. */
function startApp(): Modules {
  let modules: Modules | undefined;
  jest.isolateModules(() => {
    modules = {
      customer: require('@/state/customer'),
      lens: require('@/state/lens'),
      goods: require('@/state/goods'),
      shop: require('@/state/shop'),
      store: require('@/state/store'),
      taro: require('@tarojs/taro').default,
    };
  });
  if (!modules) throw new Error('state modules did not load');
  return modules;
}

const user = { user_id: 1, email: 'ann@example.com', nickname: 'Ann', avatar: '', is_admin: true, token: 'tok' };

beforeEach(() => {
  Taro.clearStorageSync();
});

afterEach(() => {
  jest.restoreAllMocks();
});

describe('typed storage', () => {
  it('reads back what was written and undefined for a key never written', () => {
    expect(readStorage('logo')).toBeUndefined();
    writeStorage('logo', 'https://cdn.example.com/logo.png');
    writeStorage('unreadTotal', 3);
    writeStorage('imgPublish', true);
    expect(readStorage('logo')).toBe('https://cdn.example.com/logo.png');
    expect(readStorage('unreadTotal')).toBe(3);
    expect(readStorage('imgPublish')).toBe(true);
    removeStorage('unreadTotal');
    expect(readStorage('unreadTotal')).toBeUndefined();
  });
});

describe('client state', () => {
  it('starts as a guest with empty customer, lens and goods state', () => {
    const { customer, lens, goods, store } = startApp();
    expect(store.appStore.get(customer.customerAtom)).toEqual({
      photo: '',
      toPage: '',
      toPageParams: {},
      user: null,
      resetPassword: false,
      resetPasswordEmail: '',
    });
    expect(customer.currentToken()).toBe('');
    expect(store.appStore.get(lens.lensAtom)).toEqual({ prescription: null });
    expect(store.appStore.get(goods.goodsAtom)).toEqual({ action: null });
  });

  it('keeps user, prescription and goods action across a reload, and nothing else', () => {
    const first = startApp();
    first.store.appStore.set(first.customer.customerAtom, {
      user,
      photo: 'blob:photo',
      toPage: '/pages/order/cart/cart',
      resetPassword: true,
      resetPasswordEmail: 'ann@example.com',
    });
    first.store.appStore.set(first.lens.lensAtom, { prescription: { od_sph: -1.25, os_sph: -1.5 } });
    first.store.appStore.set(first.goods.goodsAtom, { action: { type: 'addToCart', goods_id: 3 } });

    const reloaded = startApp();
    expect(reloaded.store.appStore.get(reloaded.customer.customerAtom)).toEqual({
      photo: '',
      toPage: '',
      toPageParams: {},
      user,
      resetPassword: false,
      resetPasswordEmail: '',
    });
    expect(reloaded.customer.currentToken()).toBe('tok');
    expect(reloaded.store.appStore.get(reloaded.lens.lensAtom)).toEqual({
      prescription: { od_sph: -1.25, os_sph: -1.5 },
    });
    expect(reloaded.store.appStore.get(reloaded.goods.goodsAtom)).toEqual({
      action: { type: 'addToCart', goods_id: 3 },
    });
  });

  it('forgets the user on sign-out, also after a reload', () => {
    const first = startApp();
    first.customer.signIn(user);
    first.customer.signOut();
    expect(startApp().customer.currentUser()).toBeNull();
  });

  it('hands back the remembered target once', () => {
    const { customer } = startApp();
    customer.rememberTarget('/pages/order/order-detail/order-detail', { id: '4' });
    expect(customer.takeRememberedTarget()).toEqual({
      toPage: '/pages/order/order-detail/order-detail',
      toPageParams: { id: '4' },
    });
    expect(customer.takeRememberedTarget()).toEqual({ toPage: '', toPageParams: {} });
  });

  it('keeps the shop logo under the storage key logo', () => {
    const first = startApp();
    first.store.appStore.set(first.shop.logoAtom, '/uploads/logo.png');
    expect(first.taro.getStorageSync('logo')).toBe('/uploads/logo.png');
    const reloaded = startApp();
    expect(reloaded.store.appStore.get(reloaded.shop.logoAtom)).toBe('/uploads/logo.png');
  });
});

describe('images uploading toast at app start', () => {
  it('is the Chinese text of the spec', () => {
    const { shop } = startApp();
    expect(shop.IMAGES_UPLOADING_TOAST).toBe('图片正在上传中…');
  });

  it('shows when the imgPublish flag is absent', () => {
    const { shop, taro } = startApp();
    const toast = jest.spyOn(taro, 'showToast').mockImplementation((() => Promise.resolve()) as never);
    shop.announcePendingImageUploads();
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: '图片正在上传中…', icon: 'none' }));
  });

  it('does not show when the flag is present', () => {
    const { shop, taro } = startApp();
    taro.setStorageSync('imgPublish', true);
    const toast = jest.spyOn(taro, 'showToast').mockImplementation((() => Promise.resolve()) as never);
    shop.announcePendingImageUploads();
    expect(toast).not.toHaveBeenCalled();
  });
});

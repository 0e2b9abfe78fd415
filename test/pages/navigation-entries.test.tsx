import { CART_BUTTON_LABEL } from '@/features/cart/CartButton';
import { HUB_LINKS } from '@/pages/main/main';
import { signIn } from '@/state/customer';
import Taro from '@tarojs/taro';
import { currentPageElement, fakeApi, mountPages, ok, page, see, tap, waitForPath } from './account/harness';

const ada = { user_id: 2, email: 'ada@lensmate.test', nickname: 'Ada', avatar: '', is_admin: false, token: 'tok-ada' };
const line = (goods_id: number) => ({ goods_id, color_id: 1, quantity: 1, lens: null, prescription_id: null });

beforeAll(async () => {
  Taro.clearStorageSync();
  signIn(ada);
  Taro.setStorageSync('unreadTotal', 3);
  fakeApi({
    '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
    '/api/index/shop_mainpage': ok({ banners: [], categories: [], sections: [], articles: [] }),
    '/api/order/get_cart': ok({ lines: [line(1), line(2)] }),
    '/api/order/get_user_order': ok({ list: [], total: 0, page: 1, page_size: 1 }),
    '/api/user/get_user_address': ok([]),
    '/api/user/get_my_prescription': ok([]),
    '/api/config/get_coupons': ok([]),
  });
  await mountPages('/pages/mine/index/mine');
});

function badgeOf(title: string): string | null {
  const rows = Array.from(currentPageElement().querySelectorAll('.mine__entry'));
  const row = rows.find((element) => element.querySelector('.mine__entry-title')?.textContent === title);
  if (!row) throw new Error(`no entry ${title} on Mine`);
  return row.querySelector('.mine__badge')?.textContent ?? null;
}

async function backToMine(): Promise<void> {
  await Taro.navigateBack();
  await waitForPath('/pages/mine/index/mine');
}

it("shows Mine's ways to the cart, orders, reviews, support, messages and the community", async () => {
  for (const title of ['Cart', 'Orders', 'Reviews', 'Support chat', 'Messages', 'Community', 'Prescriptions']) {
    await see(title);
  }
  for (let i = 0; i < 100 && badgeOf('Cart') !== '2'; i += 1) await new Promise((r) => setTimeout(r, 20));
  expect(badgeOf('Cart')).toBe('2');
  expect(badgeOf('Messages')).toBe('3');
  expect(badgeOf('Community')).toBeNull();
});

it.each([
  ['Cart', '/pages/order/cart/cart'],
  ['Orders', '/pages/order/order-list/order-list-main'],
  ['Support chat', '/pages/chat/chat'],
  ['Messages', '/pages/message/message'],
  ['Community', '/pages/main/main'],
])('opens %s from Mine', async (title, path) => {
  await tap(title);
  await waitForPath(path);
  await backToMine();
});

it('opens the reviews tab from Mine', async () => {
  await tap('Reviews');
  await waitForPath('/pages/userReview/index');
  await Taro.switchTab({ url: '/pages/mine/index/mine' });
  await waitForPath('/pages/mine/index/mine');
});

it('lists every social page on the community hub, each opening its page', async () => {
  await tap('Community');
  await waitForPath('/pages/main/main');
  const labels = Array.from(page().querySelectorAll('*'))
    .map((element) => element.textContent)
    .filter(Boolean);
  for (const [label] of HUB_LINKS) expect(labels).toContain(label);
  const paths = HUB_LINKS.map(([, path]) => path);
  for (const wanted of [
    '/pages/user/albums/albums',
    '/pages/addtag/addtag',
    '/pages/user/collections/collections',
    '/pages/user/allUser/allUser',
    '/pages/user/trends/trends',
    '/pages/history/history',
    '/pages/push/push',
    '/pages/message/message',
    '/pages/group/group',
  ]) {
    expect(paths).toContain(wanted);
  }
  await tap('Collections');
  await waitForPath('/pages/user/collections/collections');
  await Taro.navigateBack();
  await waitForPath('/pages/main/main');
  await tap('People');
  await waitForPath('/pages/user/allUser/allUser');
});

it('draws the cart icon with its line count on home, and opens the cart from it', async () => {
  await Taro.reLaunch({ url: '/pages/index/index' });
  await waitForPath('/pages/index/index');
  let count = '';
  for (let i = 0; i < 150 && count !== '2'; i += 1) {
    count = page().querySelector('.cart-button__count')?.textContent ?? '';
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(count).toBe('2');
  await tap(CART_BUTTON_LABEL);
  await waitForPath('/pages/order/cart/cart');
});

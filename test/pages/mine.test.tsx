import { ADMIN_ONLY_MESSAGE } from '@/core/navigation';
import Taro from '@tarojs/taro';
import TestUtils from '@tarojs/test-utils-react';
import {
  APP_WAIT_MS,
  currentHashPath,
  currentPageElement,
  fakeApi,
  mountApp,
  typeInto,
  waitForPath,
} from '../setup/mount-app';

const tu = new TestUtils();
const ann = { user_id: 3, email: 'ann@example.com', nickname: 'Ann', avatar: '', is_admin: false, token: 'tok-ann' };
let toast: jest.SpyInstance;

beforeAll(async () => {
  toast = jest.spyOn(Taro, 'showToast');
  fakeApi({
    '/api/config/shop_config': { status: 200, msg: 'ok', data: { shop_name: 'Lensmate', shop_logo: '' } },
    '/api/index/shop_mainpage': { status: 200, msg: 'ok', data: { banners: [], categories: [], sections: [] } },
    '/api/auth/login': { status: 200, msg: 'ok', data: ann },
  });
  await mountApp('/pages/mine/index/mine');
});

function page() {
  const element = currentPageElement();
  tu.queries.setContainer(element);
  return element;
}

it('sends a guest who opens Mine to login', async () => {
  await waitForPath('/pages/login/login');
  expect(Taro.getStorageSync('user')).toBe('');
});

it('comes back to Mine after login and shows the user with their entries, without the admin entry', async () => {
  const element = page();
  await typeInto(element, 'email', 'ann@example.com');
  await typeInto(element, 'password', 'right-pass-1');
  tu.fireEvent.click(tu.queries.queryByText('Sign in', 'taro-button-core'));
  await waitForPath('/pages/mine/index/mine');
  page();
  await tu.queries.waitForQueryByText('ann@example.com', '*', { timeout: APP_WAIT_MS });
  expect(tu.queries.queryByText('Ann')).not.toBeNull();
  for (const entry of ['My orders', 'Addresses', 'Prescriptions', 'Profile', 'Log out']) {
    expect(tu.queries.queryByText(entry)).not.toBeNull();
  }
  expect(tu.queries.queryByText('Edit glasses and articles')).toBeNull();
  expect(currentPageElement().querySelector('.tab-bar__item--active')?.textContent).toContain('Mine');
});

it("tells a non-admin who taps the tab bar's middle button that the admin area is for administrators", async () => {
  page();
  toast.mockClear();
  tu.fireEvent.click(tu.queries.queryByText('Admin', '.tab-bar__label'));
  expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: ADMIN_ONLY_MESSAGE }));
  expect(currentHashPath()).toBe('/pages/mine/index/mine');
});

it('logs out: forgets the user and relaunches home', async () => {
  page();
  tu.fireEvent.click(tu.queries.queryByText('Log out'));
  await waitForPath('/pages/index/index');
  expect(Taro.getStorageSync('user')).toBe('');
});

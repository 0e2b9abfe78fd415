import Taro from '@tarojs/taro';
import TestUtils from '@tarojs/test-utils-react';
import { APP_WAIT_MS, currentHashPath, currentPageElement, fakeApi, mountApp } from '../setup/mount-app';

const tu = new TestUtils();
const admin = {
  user_id: 1,
  email: 'boss@example.com',
  nickname: '',
  avatar: '/uploads/a.png',
  is_admin: true,
  token: 't',
};

it('shows a signed-in admin their page with the admin entry, which opens the admin edit list', async () => {
  Taro.setStorageSync('user', admin);
  fakeApi({ '/api/config/shop_config': { status: 200, msg: 'ok', data: { shop_name: 'Lensmate', shop_logo: '' } } });
  const navigateTo = jest.spyOn(Taro, 'navigateTo').mockImplementation((() => Promise.resolve()) as never);
  await mountApp('/pages/mine/index/mine');
  const element = currentPageElement();
  tu.queries.setContainer(element);
  await tu.queries.waitForQueryByText('Administrator', '*', { timeout: APP_WAIT_MS });
  expect(tu.queries.queryByText('boss@example.com')).not.toBeNull();
  expect(element.querySelector('.mine__avatar')?.getAttribute('src')).toBe('http://api.test/uploads/a.png');
  tu.fireEvent.click(tu.queries.queryByText('Edit glasses and articles'));
  expect(navigateTo).toHaveBeenCalledWith({ url: '/pages/admin/edit-list' });
  expect(currentHashPath()).toBe('/pages/mine/index/mine');
});

import { currentUser, signIn } from '@/state/customer';
import Taro from '@tarojs/taro';
import { fakeApi, mountPages, ok, see, shows, tap, waitForPath } from './harness';

const ada = { user_id: 2, email: 'ada@lensmate.test', nickname: 'Ada', avatar: '', is_admin: false, token: 'tok-ada' };
let calls: ReturnType<typeof fakeApi>;
let modal: jest.SpyInstance;

beforeAll(async () => {
  Taro.clearStorageSync();
  signIn(ada);
  calls = fakeApi({
    '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
    '/api/index/shop_mainpage': ok({ banners: [], categories: [], sections: [], articles: [] }),
    '/api/user/user_show': ok({ ...ada, bio: 'Reads in the sun', created_at: Date.UTC(2026, 0, 15, 12) }),
    '/api/auth/logout': ok({ logged_out: true }),
  });
  modal = jest.spyOn(Taro, 'showModal');
  await mountPages('/pages/setting/setting');
});

it('lists the profile, the password change and the app version', async () => {
  await see('My profile');
  expect(shows('Change password')).toBe(true);
  expect(shows('1.0.5')).toBe(true);
});

it('shows the profile the server knows', async () => {
  await tap('My profile');
  await waitForPath('/pages/mine/basic/user-basic');
  await see('Reads in the sun');
  expect(shows('ada@lensmate.test')).toBe(true);
  expect(shows('Shopper')).toBe(true);
  expect(shows('Jan 15, 2026')).toBe(true);
  expect(calls.find((call) => call.path === '/api/user/user_show')?.header).toMatchObject({
    'lensmate-token': 'tok-ada',
  });
  Taro.navigateBack();
  await waitForPath('/pages/setting/setting');
});

it('keeps the user signed in when the log-out question is answered with cancel', async () => {
  modal.mockResolvedValueOnce({ confirm: false, cancel: true, errMsg: 'showModal:ok' });
  await tap('Log out');
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(modal).toHaveBeenLastCalledWith(expect.objectContaining({ content: 'Do you want to log out?' }));
  expect(currentUser()?.token).toBe('tok-ada');
});

it('logs out on the server and here, then goes home', async () => {
  modal.mockResolvedValueOnce({ confirm: true, cancel: false, errMsg: 'showModal:ok' });
  await tap('Log out');
  await waitForPath('/pages/index/index');
  expect(currentUser()).toBeNull();
  expect(calls.find((call) => call.path === '/api/auth/logout')?.header).toMatchObject({ 'lensmate-token': 'tok-ada' });
});

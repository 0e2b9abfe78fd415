import { signIn } from '@/state/customer';
import Taro from '@tarojs/taro';
import { fakeApi, mountPages, ok, refused, see } from '../account/harness';

const ada = { user_id: 2, email: 'ada@lensmate.test', nickname: 'Ada', avatar: '', is_admin: false, token: 'tok-ada' };
let calls: ReturnType<typeof fakeApi>;

beforeAll(() => {
  Taro.clearStorageSync();
  signIn(ada);
  calls = fakeApi({
    '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
    '/api/social/profile': refused(404, 'user_id: no such user'),
  });
});

it('explains a chat link without a user id instead of connecting', async () => {
  await mountPages('/pages/message/privateChat/privateChat?to=abc');
  await see('This link names nobody to chat with');
  expect(calls.some((call) => call.path === '/api/messaging/token')).toBe(false);
});

it('explains a chat link to a user who does not exist', async () => {
  Taro.redirectTo({ url: '/pages/message/privateChat/privateChat?to=999' });
  await see('user_id: no such user');
  expect(calls.some((call) => call.path === '/api/messaging/token')).toBe(false);
});

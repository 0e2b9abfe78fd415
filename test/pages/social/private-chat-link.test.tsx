import { signIn } from '@/state/customer';
import Taro from '@tarojs/taro';
import { fakeApi, mountPages, ok, page, refused, see } from '../account/harness';

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

/** Identity proofs asked for: the app's one connection for the signed-in user asks once; a page never does. */
const tokenCalls = () => calls.filter((call) => call.path === '/api/messaging/token').length;
/** The chat's composer: a page that opened a chat has it. */
const composer = () => page().querySelector('input[name="message"]');

it('explains a chat link without a user id instead of opening a chat', async () => {
  await mountPages('/pages/message/privateChat/privateChat?to=abc');
  await see('This link names nobody to chat with');
  expect(composer()).toBeNull();
  expect(calls.some((call) => call.path === '/api/social/profile')).toBe(false);
  expect(tokenCalls()).toBeLessThanOrEqual(1);
});

it('explains a chat link to a user who does not exist', async () => {
  const before = tokenCalls();
  Taro.redirectTo({ url: '/pages/message/privateChat/privateChat?to=999' });
  await see('user_id: no such user');
  expect(composer()).toBeNull();
  // The page connected nothing of its own.
  expect(tokenCalls()).toBe(before);
});

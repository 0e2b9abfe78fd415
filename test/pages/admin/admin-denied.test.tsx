import { ADMIN_ONLY_MESSAGE } from '@/core/navigation';
import { signIn } from '@/state/customer';
import Taro from '@tarojs/taro';
import { fakeApi, mountPages, ok, see, shows } from '../account/harness';

const ada = { user_id: 2, email: 'ada@lensmate.test', nickname: 'Ada', avatar: '', is_admin: false, token: 'tok-ada' };
let calls: ReturnType<typeof fakeApi>;

beforeAll(async () => {
  Taro.clearStorageSync();
  signIn(ada);
  calls = fakeApi({ '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }) });
  await mountPages('/pages/admin/edit-list');
});

it('turns a shopper away from the admin list without asking the server for admin data', async () => {
  await see(ADMIN_ONLY_MESSAGE);
  expect(shows('+ New glasses')).toBe(false);
  // Beside the shop config, only the app's own chat connection for the signed-in user (its identity proof).
  const asked = calls.map((call) => call.path).filter((path) => path !== '/api/messaging/token');
  expect(asked).toEqual(['/api/config/shop_config']);
});

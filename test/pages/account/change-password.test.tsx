import { OLD_PASSWORD_REQUIRED, PASSWORD_TOO_SHORT, SAME_PASSWORD } from '@/features/account/auth';
import { currentUser, signIn } from '@/state/customer';
import Taro from '@tarojs/taro';
import { fakeApi, mountPages, ok, page, refused, see, shows, tap, typeInto } from './harness';

const ada = { user_id: 2, email: 'ada@lensmate.test', nickname: 'Ada', avatar: '', is_admin: false, token: 'tok-old' };
let calls: ReturnType<typeof fakeApi>;

beforeAll(async () => {
  Taro.clearStorageSync();
  signIn(ada);
  calls = fakeApi({
    '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
    '/api/user/change_password': (data: unknown) =>
      (data as { old_password: string }).old_password === 'Shopper#2026a'
        ? ok({ ...ada, token: 'tok-new' })
        : refused(400, 'old_password: the current password is wrong'),
  });
  await mountPages('/pages/mine/basic/change-pwd');
});

const changeCalls = () => calls.filter((call) => call.path === '/api/user/change_password');

it('needs the current password and a new one that is long enough and different', async () => {
  await typeInto(page(), 'password', 'abc1');
  await tap('Change password');
  await see(OLD_PASSWORD_REQUIRED);
  expect(shows(PASSWORD_TOO_SHORT)).toBe(true);
  await typeInto(page(), 'old', 'Shopper#2026a');
  await typeInto(page(), 'password', 'Shopper#2026a');
  await typeInto(page(), 'confirm', 'Shopper#2026a');
  await tap('Change password');
  await see(SAME_PASSWORD);
  expect(changeCalls()).toHaveLength(0);
});

it('shows a wrong current password next to its field', async () => {
  await typeInto(page(), 'old', 'not-my-password1');
  await typeInto(page(), 'password', 'Better#2027');
  await typeInto(page(), 'confirm', 'Better#2027');
  await tap('Change password');
  await see('The current password is wrong');
  expect(currentUser()?.token).toBe('tok-old');
});

it('changes the password and keeps the user signed in with the new token', async () => {
  await typeInto(page(), 'old', 'Shopper#2026a');
  await tap('Change password');
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(changeCalls().at(-1)?.data).toEqual({ old_password: 'Shopper#2026a', new_password: 'Better#2027' });
  expect(changeCalls().at(-1)?.header).toMatchObject({ 'lensmate-token': 'tok-old' });
  expect(currentUser()?.token).toBe('tok-new');
});

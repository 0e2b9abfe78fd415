import { CODE_INVALID, CONFIRM_MISMATCH, EMAIL_INVALID, PASSWORD_RESET_DONE } from '@/features/account/auth';
import { customerAtom } from '@/state/customer';
import { appStore } from '@/state/store';
import Taro from '@tarojs/taro';
import { fakeApi, mountPages, ok, page, refused, see, shows, tap, typeInto, waitForPath } from './harness';

let calls: ReturnType<typeof fakeApi>;
let toasts: string[];

beforeAll(async () => {
  Taro.clearStorageSync();
  calls = fakeApi({
    '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
    '/api/auth/forget_password': (data: unknown) =>
      (data as { email: string }).email === 'ada@lensmate.test'
        ? ok({ sent: true })
        : refused(404, 'email: no account with this e-mail'),
    '/api/user/change_password_with_verification_code': (data: unknown) =>
      (data as { code: string }).code === '123456'
        ? ok({ changed: true })
        : refused(400, 'code: The verification code is wrong or has expired'),
  });
  toasts = [];
  jest.spyOn(Taro, 'showToast').mockImplementation(((options: { title: string }) => {
    toasts.push(options.title);
    return Promise.resolve();
  }) as never);
  await mountPages('/pages/login/findPassword');
});

const sent = (path: string) => calls.filter((call) => call.path === path).map((call) => call.data);

it('checks the email, then names an unknown account next to the field', async () => {
  await typeInto(page(), 'email', 'ada@');
  await tap('Send code');
  await see(EMAIL_INVALID);
  await typeInto(page(), 'email', 'nobody@lensmate.test');
  await tap('Send code');
  await see('No account with this e-mail');
  expect(appStore.get(customerAtom).resetPassword).toBe(false);
});

it('sends the code and remembers which account is being recovered', async () => {
  await typeInto(page(), 'email', 'Ada@Lensmate.test');
  await tap('Send code');
  await see('Set a new password');
  expect(sent('/api/auth/forget_password').at(-1)).toEqual({ email: 'ada@lensmate.test' });
  expect(appStore.get(customerAtom)).toMatchObject({ resetPassword: true, resetPasswordEmail: 'ada@lensmate.test' });
  expect(shows('We sent a code to ada@lensmate.test')).toBe(true);
});

it('validates the code and the new password before sending', async () => {
  await typeInto(page(), 'code', '12');
  await typeInto(page(), 'password', 'NewPass2026');
  await typeInto(page(), 'confirm', 'NewPass2027');
  await tap('Change password');
  await see(CODE_INVALID);
  expect(shows(CONFIRM_MISMATCH)).toBe(true);
  expect(sent('/api/user/change_password_with_verification_code')).toHaveLength(0);
});

it('shows a wrong code next to the code field', async () => {
  await typeInto(page(), 'code', '654321');
  await typeInto(page(), 'confirm', 'NewPass2026');
  await tap('Change password');
  await see('The verification code is wrong or has expired');
});

it('changes the password with the right code, forgets the request and opens login', async () => {
  await typeInto(page(), 'code', '123456');
  await tap('Change password');
  await waitForPath('/pages/login/login');
  expect(sent('/api/user/change_password_with_verification_code').at(-1)).toEqual({
    email: 'ada@lensmate.test',
    code: '123456',
    new_password: 'NewPass2026',
  });
  expect(toasts).toContain(PASSWORD_RESET_DONE);
  expect(appStore.get(customerAtom)).toMatchObject({ resetPassword: false, resetPasswordEmail: '' });
});

import {
  CONFIRM_MISMATCH,
  CONFIRM_REQUIRED,
  EMAIL_INVALID,
  EMAIL_REQUIRED,
  EMAIL_TAKEN,
  PASSWORD_NEEDS_LETTER_AND_DIGIT,
  PASSWORD_REQUIRED,
  PASSWORD_TOO_SHORT,
} from '@/features/account/auth';
import { currentUser } from '@/state/customer';
import Taro from '@tarojs/taro';
import { fakeApi, mountPages, ok, page, see, shows, tap, typeInto, waitForPath } from './harness';

const newUser = {
  user_id: 9,
  email: 'cleo@example.com',
  nickname: 'Cleo',
  avatar: '',
  bio: '',
  is_admin: false,
  token: 'tok-cleo',
};
let calls: ReturnType<typeof fakeApi>;

beforeAll(async () => {
  Taro.clearStorageSync();
  calls = fakeApi({
    '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
    '/api/auth/check_account': (data: unknown) =>
      ok({ exists: (data as { email: string }).email === 'ada@lensmate.test' }),
    '/api/auth/register': (data: unknown) => ok({ ...newUser, email: (data as { email: string }).email }),
  });
  await mountPages('/pages/regist/regist');
});

const registerCalls = () => calls.filter((call) => call.path === '/api/auth/register');

async function fill(values: Record<string, string>) {
  const element = page();
  for (const [name, value] of Object.entries(values)) await typeInto(element, name, value);
}

it('shows a message next to each empty field and sends nothing', async () => {
  await tap('Create account');
  await see(EMAIL_REQUIRED);
  expect(shows(PASSWORD_REQUIRED)).toBe(true);
  expect(shows(CONFIRM_REQUIRED)).toBe(true);
  expect(registerCalls()).toHaveLength(0);
});

it('explains a malformed email, a short password and a confirmation that differs', async () => {
  await fill({ email: 'cleo@example', password: 'short1', confirm: 'short2' });
  await tap('Create account');
  await see(EMAIL_INVALID);
  expect(shows(PASSWORD_TOO_SHORT)).toBe(true);
  expect(shows(CONFIRM_MISMATCH)).toBe(true);
  await fill({ email: 'cleo@example.com', password: 'onlyletters', confirm: 'onlyletters' });
  await tap('Create account');
  await see(PASSWORD_NEEDS_LETTER_AND_DIGIT);
  expect(shows(CONFIRM_MISMATCH)).toBe(false);
  expect(registerCalls()).toHaveLength(0);
});

it('accepts a 64-character password', async () => {
  const long = `${'a'.repeat(63)}1`;
  await fill({ email: 'ada@lensmate.test', password: long, confirm: long });
  await tap('Create account');
  await see(EMAIL_TAKEN);
  expect(shows(PASSWORD_TOO_SHORT)).toBe(false);
  expect(registerCalls()).toHaveLength(0);
});

it('creates the account, signs the user in and opens Mine', async () => {
  await fill({ email: 'cleo@example.com', nickname: 'Cleo', password: 'Glasses2026', confirm: 'Glasses2026' });
  await tap('Create account');
  await waitForPath('/pages/mine/index/mine');
  expect(registerCalls()).toEqual([
    expect.objectContaining({ data: { email: 'cleo@example.com', password: 'Glasses2026', nickname: 'Cleo' } }),
  ]);
  expect(currentUser()?.token).toBe('tok-cleo');
});

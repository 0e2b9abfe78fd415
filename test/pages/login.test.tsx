import { EMAIL_INVALID, EMAIL_REQUIRED, PASSWORD_REQUIRED } from '@/features/account/auth';
import Taro from '@tarojs/taro';
import TestUtils from '@tarojs/test-utils-react';
import { APP_WAIT_MS, currentPageElement, fakeApi, mountApp, typeInto, waitForPath } from '../setup/mount-app';

const tu = new TestUtils();
const ann = { user_id: 3, email: 'ann@example.com', nickname: 'Ann', avatar: '', is_admin: false, token: 'tok-ann' };
let calls: ReturnType<typeof fakeApi>;

beforeAll(async () => {
  calls = fakeApi({
    '/api/config/shop_config': { status: 200, msg: 'ok', data: { shop_name: 'Lensmate', shop_logo: '' } },
    '/api/index/shop_mainpage': { status: 200, msg: 'ok', data: { banners: [], categories: [], sections: [] } },
    '/api/auth/login': (data: unknown) => {
      const { email, password } = data as { email: string; password: string };
      return email === ann.email && password === 'right-pass-1'
        ? { status: 200, msg: 'ok', data: ann }
        : { status: 400, msg: 'Wrong email or password', data: null };
    },
  });
  await mountApp('/pages/login/login');
});

function page() {
  const element = currentPageElement();
  tu.queries.setContainer(element);
  return element;
}

const loginCalls = () => calls.filter((call) => call.path === '/api/auth/login');

it('shows an error under each empty field and sends nothing', async () => {
  page();
  tu.fireEvent.click(tu.queries.queryByText('Sign in', 'taro-button-core'));
  await tu.queries.waitForQueryByText(EMAIL_REQUIRED, '*', { timeout: APP_WAIT_MS });
  expect(tu.queries.queryByText(PASSWORD_REQUIRED)).not.toBeNull();
  expect(loginCalls()).toHaveLength(0);
});

it('rejects a malformed email and clears the password error once a password is typed', async () => {
  const element = page();
  await typeInto(element, 'email', 'ann@example');
  await typeInto(element, 'password', 'x');
  tu.fireEvent.click(tu.queries.queryByText('Sign in', 'taro-button-core'));
  await tu.queries.waitForQueryByText(EMAIL_INVALID, '*', { timeout: APP_WAIT_MS });
  expect(tu.queries.queryByText(PASSWORD_REQUIRED)).toBeNull();
  expect(loginCalls()).toHaveLength(0);
});

it("shows the server's message when the password is wrong, keeping what was typed", async () => {
  const element = page();
  await typeInto(element, 'email', 'ann@example.com');
  await typeInto(element, 'password', 'wrong');
  tu.fireEvent.click(tu.queries.queryByText('Sign in', 'taro-button-core'));
  await tu.queries.waitForQueryByText('Wrong email or password', '*', { timeout: APP_WAIT_MS });
  expect(loginCalls()).toEqual([
    expect.objectContaining({ method: 'POST', data: { email: 'ann@example.com', password: 'wrong' } }),
  ]);
  expect(element.querySelector<HTMLInputElement>('input[name="email"]')?.value).toBe('ann@example.com');
  expect(Taro.getStorageSync('user')).toBe('');
});

it('stores the user with its token and, with nowhere to return to, goes home', async () => {
  const element = page();
  await typeInto(element, 'password', 'right-pass-1');
  tu.fireEvent.click(tu.queries.queryByText('Sign in', 'taro-button-core'));
  await waitForPath('/pages/index/index');
  expect(Taro.getStorageSync('user')).toEqual(ann);
});

import {
  GOOGLE_NOT_CONFIGURED_NOTE,
  GOOGLE_WEB_ONLY_NOTE,
  googleUnavailableReason,
  loginWithGoogle,
} from '@/features/account/google';
import { currentUser, signOut } from '@/state/customer';
import Taro from '@tarojs/taro';
import { fakeApi, mountPages, ok, see, shows, tap, waitForPath } from './harness';

describe('Google sign-in availability', () => {
  it('is hidden with a reason without a client id, and outside the web build', () => {
    expect(googleUnavailableReason('', true)).toBe(GOOGLE_NOT_CONFIGURED_NOTE);
    expect(googleUnavailableReason('123.apps.googleusercontent.com', false)).toBe(GOOGLE_WEB_ONLY_NOTE);
    expect(googleUnavailableReason('123.apps.googleusercontent.com', true)).toBe('');
  });
});

describe('login page extras', () => {
  let calls: ReturnType<typeof fakeApi>;

  beforeAll(async () => {
    Taro.clearStorageSync();
    signOut();
    calls = fakeApi({
      '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
      '/api/google/google_login': (data: unknown) =>
        ok({
          user_id: 5,
          email: 'g@example.com',
          nickname: 'G',
          avatar: '',
          is_admin: false,
          token: `tok-${(data as { id_token: string }).id_token}`,
        }),
    });
    await mountPages('/pages/login/login');
  });

  it('explains why the Google button is missing when no client id is configured', async () => {
    await see(GOOGLE_NOT_CONFIGURED_NOTE);
    expect(document.getElementById('google-sign-in-button')).toBeNull();
  });

  it('exchanges a Google credential for a shop login', async () => {
    await loginWithGoogle('abc');
    expect(calls.find((call) => call.path === '/api/google/google_login')?.data).toEqual({ id_token: 'abc' });
    expect(currentUser()?.token).toBe('tok-abc');
    signOut();
  });

  it('links to password recovery and to registration', async () => {
    await tap('Forgot password?');
    await waitForPath('/pages/login/findPassword');
    await see('Forgot your password?');
    Taro.navigateBack();
    await waitForPath('/pages/login/login');
    await tap('Create account');
    await waitForPath('/pages/regist/regist');
    expect(shows('Create your account')).toBe(true);
  });
});

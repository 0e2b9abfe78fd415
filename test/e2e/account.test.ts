import type { Browser } from 'playwright-core';
import { answerModal, apiPost, fill, lastMailTo, tapText, waitForText } from './support/account-flow';
import { launchChromium, phonePage, screenshot } from './support/browser';
import { type RunningShop, startShop } from './support/server';
import { backToTabs, settled, signInFromMine, tapTab } from './support/taps';

jest.setTimeout(180_000);

describe('accounts in headless Chromium against the real server', () => {
  let shop: RunningShop;
  let browser: Browser;

  beforeAll(async () => {
    shop = await startShop({ H5_DIR: process.env.LENSMATE_E2E_H5_DIR ?? 'dist/h5' });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
  });

  it('registers, logs out and in, changes the password, logs out and logs in with the new password only', async () => {
    const { page, errors } = await phonePage(browser);
    const email = `cleo.${Date.now()}@example.com`;

    await page.goto(`${shop.url}/pages/login/login`, { waitUntil: 'networkidle' });
    await waitForText(page, 'Google sign-in is not set up for this shop yet. Please sign in with your email.');
    await screenshot(page, 'account-01-login');
    await tapText(page, 'Create account');
    await waitForText(page, 'Create your account');
    await fill(page, 'email', 'ada@lensmate.test');
    await page.locator('input[name="nickname"]:visible').click();
    await waitForText(page, 'An account with this email already exists');
    await fill(page, 'password', 'short1');
    await fill(page, 'confirm', 'short2');
    await tapText(page, 'Create account');
    await waitForText(page, 'Use at least 8 characters');
    await waitForText(page, 'The two passwords do not match');
    await screenshot(page, 'account-02-register-errors');

    await fill(page, 'email', email);
    await fill(page, 'nickname', 'Cleo');
    await fill(page, 'password', 'Glasses2026');
    await fill(page, 'confirm', 'Glasses2026');
    await tapText(page, 'Create account');
    await page.waitForURL(/\/pages\/mine\/index\/mine/);
    await waitForText(page, email);
    await waitForText(page, 'To pay');
    await screenshot(page, 'account-03-registered-mine');

    await tapText(page, 'Log out');
    await page.waitForURL(/\/pages\/index\/index|\/$/);
    await signInFromMine(page, email, 'Glasses2026');
    await page.waitForURL(/\/pages\/mine\/index\/mine/);
    await waitForText(page, email);

    await tapText(page, 'Change password');
    await page.waitForURL(/\/pages\/mine\/basic\/change-pwd/);
    await fill(page, 'old', 'wrong-password-1');
    await fill(page, 'password', 'Sunshine2027');
    await fill(page, 'confirm', 'Sunshine2027');
    await tapText(page, 'Change password');
    await waitForText(page, 'The current password is wrong');
    await screenshot(page, 'account-04-change-password-wrong-old');
    await fill(page, 'old', 'Glasses2026');
    await tapText(page, 'Change password');
    await page.waitForURL(/\/pages\/mine\/index\/mine/);
    await screenshot(page, 'account-05-password-changed');

    await tapText(page, 'Settings');
    await page.waitForURL(/\/pages\/setting\/setting/);
    await waitForText(page, '1.0.5');
    await screenshot(page, 'account-06-settings');
    await tapText(page, 'Log out');
    expect(await answerModal(page, 'Log out')).toBe('Do you want to log out?');
    await page.waitForURL(/\/pages\/index\/index|\/$/);

    const old = await apiPost(shop.url, '/api/auth/login', { email, password: 'Glasses2026' });
    expect(old.status).toBe(400);
    await signInFromMine(page, email, 'Sunshine2027');
    await page.waitForURL(/\/pages\/mine\/index\/mine/);
    await waitForText(page, email);
    await screenshot(page, 'account-07-signed-in-with-new-password');
    expect(errors).toEqual([]);
  });

  it('recovers a password with the code mailed to the outbox', async () => {
    const { page, errors } = await phonePage(browser);
    const email = 'ben@lensmate.test';
    // The journey starts where a user who forgot the password is: the login page (its only URL).
    await page.goto(`${shop.url}/pages/login/login`, { waitUntil: 'networkidle' });
    await tapText(page, 'Forgot password?');
    await page.waitForURL(/\/pages\/login\/findPassword/);
    await waitForText(page, 'Send code');
    await settled(page);
    await fill(page, 'email', 'nobody@lensmate.test');
    await tapText(page, 'Send code');
    await waitForText(page, 'No account with this e-mail');
    await screenshot(page, 'account-08a-unknown-email');
    await fill(page, 'email', email);
    await tapText(page, 'Send code');
    await waitForText(page, 'Set a new password');
    await screenshot(page, 'account-08-code-sent');

    const mail = lastMailTo(shop.dataDir, email);
    const code = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const wrong = code === '000000' ? '111111' : '000000';
    await fill(page, 'code', wrong);
    await fill(page, 'password', 'Recovered2026');
    await fill(page, 'confirm', 'Recovered2026');
    await tapText(page, 'Change password');
    await waitForText(page, 'The verification code is wrong or has expired');
    await screenshot(page, 'account-09-wrong-code');
    await fill(page, 'code', code as string);
    await tapText(page, 'Change password');
    await page.waitForURL(/\/pages\/login\/login/);

    // Signed in where the app left the user (the login page), then Mine from the tab bar.
    await waitForText(page, 'Sign in');
    await settled(page);
    await fill(page, 'email', email);
    await fill(page, 'password', 'Recovered2026');
    await page.locator('.taro_page:visible .login__submit').last().click();
    await page.waitForFunction(() => !window.location.pathname.startsWith('/pages/login'), undefined, {
      timeout: 90_000,
    });
    await backToTabs(page);
    await tapTab(page, 'Mine');
    await page.waitForURL(/\/pages\/mine\/index\/mine/);
    await waitForText(page, email);
    await screenshot(page, 'account-10-recovered-signed-in');
    expect((await apiPost(shop.url, '/api/auth/login', { email, password: 'Shopper#2026b' })).status).toBe(400);
    expect(errors).toEqual([]);
  });
});

import type { Browser, Page } from 'playwright-core';
import { apiPost, settledScreenshot as shot, signInAs } from './support/account-flow';
import { launchChromium, phonePage } from './support/browser';
import { type RunningShop, startShop } from './support/server';

jest.setTimeout(180_000);

/** What the page did with the browser's notifications: the permission requests and the notifications shown. */
interface NotificationCalls {
  requested: number;
  shown: Array<{ title: string; body: string }>;
}

/**
 * Replaces the browser's Notification before the app loads with one that records every call; the permission
 * stays "default" (not asked yet) until the page asks for it, and is then granted. What it recorded and the
 * answer survive a reload of the tab (sessionStorage), as the browser's own answer does.
 */
async function recordNotifications(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const saved = sessionStorage.getItem('recorded-notifications');
    const calls: NotificationCalls & { permission: NotificationPermission } = saved
      ? JSON.parse(saved)
      : { requested: 0, shown: [], permission: 'default' };
    const save = () => sessionStorage.setItem('recorded-notifications', JSON.stringify(calls));
    (window as unknown as { notificationCalls: NotificationCalls }).notificationCalls = calls;
    class RecordingNotification {
      static get permission() {
        return calls.permission;
      }
      static requestPermission(): Promise<NotificationPermission> {
        calls.requested += 1;
        calls.permission = 'granted';
        save();
        return Promise.resolve(calls.permission);
      }
      onclick: (() => void) | null = null;
      constructor(title: string, options: NotificationOptions = {}) {
        calls.shown.push({ title, body: options.body ?? '' });
        save();
      }
      close() {}
    }
    Object.defineProperty(window, 'Notification', { value: RecordingNotification, configurable: true, writable: true });
  });
}

const notificationCalls = (page: Page) =>
  page.evaluate(() => {
    const { requested, shown } = (window as unknown as { notificationCalls: NotificationCalls }).notificationCalls;
    return { requested, shown };
  });

describe('the app-wide chat connection in headless Chromium against the real server', () => {
  let shop: RunningShop;
  let browser: Browser;

  beforeAll(async () => {
    shop = await startShop({ AUTH_RATE_LIMIT_MAX: '50' });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
  });

  it('Ben writes while Ada is on home: her badge and notice appear; notifications are asked for at her first chat only', async () => {
    const login = await apiPost<{ user_id: number }>(shop.url, '/api/auth/login', {
      email: 'ada@lensmate.test',
      password: 'Shopper#2026a',
    });
    const adaId = login.data.user_id;
    const ada = await phonePage(browser);
    await recordNotifications(ada.page);
    await signInAs(ada.page, shop.url, 'ada@lensmate.test', 'Shopper#2026a');
    // The app starts on home with the stored session.
    await ada.page.goto(`${shop.url}/`, { waitUntil: 'networkidle' });
    await ada.page.locator('.taro_page .home').waitFor();

    // Ada's app is connected from home: Ben, opening a chat with her, sees her online.
    const ben = await phonePage(browser);
    await signInAs(ben.page, shop.url, 'ben@lensmate.test', 'Shopper#2026b');
    await ben.page.goto(`${shop.url}/pages/message/privateChat/privateChat?to=${adaId}`, { waitUntil: 'networkidle' });
    await ben.page.locator('input[name="message"]').waitFor();
    await ben.page.getByText('Ada is online').waitFor({ timeout: 30_000 });
    await ben.page.locator('input[name="message"]').fill('Your new lenses are ready for pickup');
    await ben.page.locator('.chat__send').click();

    // On home: the tab bar's badge counts the message and an in-app notice shows it (notifications not allowed).
    await ada.page.locator('.tab-bar__badge', { hasText: /^1$/ }).waitFor({ timeout: 30_000 });
    await ada.page
      .locator('.taro__toast')
      .getByText(/Your new lenses are ready/)
      .waitFor();
    await shot(ada.page, 'chat-session-1-home-badge-and-notice');
    expect(await notificationCalls(ada.page)).toEqual({ requested: 0, shown: [] });

    // Mine's Messages entry has the same count.
    await ada.page.locator('.tab-bar__item').last().click();
    await ada.page.waitForURL(/\/pages\/mine\/index\/mine/);
    const messages = ada.page.locator('.mine__entry', { has: ada.page.getByText('Messages', { exact: true }) });
    await messages.locator('.mine__badge', { hasText: /^1$/ }).waitFor();

    // The first chat: the reason is shown, and the browser is asked only when Ada taps "Turn on".
    await messages.click();
    await ada.page.waitForURL(/\/pages\/message\/message/);
    await ada.page.locator('.message__name', { hasText: 'Ben' }).first().click();
    await ada.page.waitForURL(/privateChat/);
    await ada.page.getByText('Your new lenses are ready for pickup').waitFor();
    await ada.page.getByText(/Turn on notifications to hear about new messages/).waitFor();
    expect((await notificationCalls(ada.page)).requested).toBe(0);
    await shot(ada.page, 'chat-session-2-first-chat-reason');
    await ada.page.getByText('Turn on', { exact: true }).click();
    await ada.page.getByText(/Turn on notifications to hear/).waitFor({ state: 'hidden' });
    expect((await notificationCalls(ada.page)).requested).toBe(1);

    // Allowed now: Ada back on home, Ben's next message is a system notification.
    await ada.page.goto(`${shop.url}/`, { waitUntil: 'networkidle' });
    await ada.page.locator('.taro_page .home').waitFor();
    await ben.page.getByText('Ada is online').waitFor({ timeout: 30_000 });
    await ben.page.locator('input[name="message"]').fill('We open at nine');
    await ben.page.locator('.chat__send').click();
    await ada.page.waitForFunction(
      () => (window as unknown as { notificationCalls: NotificationCalls }).notificationCalls.shown.length === 1,
      undefined,
      { timeout: 30_000 },
    );
    // Not asked again on the reload.
    expect(await notificationCalls(ada.page)).toEqual({
      requested: 1,
      shown: [{ title: 'Ben', body: 'We open at nine' }],
    });
    await ada.page.locator('.tab-bar__badge', { hasText: /^1$/ }).waitFor();
    expect(ada.errors).toEqual([]);
  });
});

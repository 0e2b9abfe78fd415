import type { Page } from 'playwright-core';
import { fill } from './account-flow';

/**
 * The ways a user moves through the app by tapping (issue 20: a journey opens its first page by URL, home or
 * the login page, and reaches every other page by taps).
 */

/** The journey's first page: home, the only URL it opens besides the login page. */
export async function openHome(page: Page, base: string): Promise<void> {
  await page.goto(`${base}/`, { waitUntil: 'networkidle' });
  await page.locator('.taro_page:visible .tab-bar__label').first().waitFor();
}

/** Taps a tab of the tab bar (Home, Admin, Mine) on the page on top. */
export async function tapTab(page: Page, label: 'Home' | 'Admin' | 'Mine'): Promise<void> {
  await page.locator('.taro_page:visible .tab-bar__label', { hasText: label }).last().click();
}

/** Taps what the page on top shows as exactly `text` (its last one: the page on top comes last). */
export async function tapOn(page: Page, text: string | RegExp): Promise<void> {
  await page
    .locator('.taro_page:visible')
    .last()
    .getByText(text, { exact: typeof text === 'string' })
    .filter({ visible: true })
    .last()
    .click();
}

/** Mine's entry `label` (Orders, Support chat, Support desk, Messages, Community...) from any tab page. */
export async function openFromMine(page: Page, label: string, url: RegExp): Promise<void> {
  await tapTab(page, 'Mine');
  await page.waitForURL(/\/pages\/mine\/index\/mine/);
  await tapOn(page, label);
  await page.waitForURL(url);
}

/** A frame's page from home: its name found by the search, as a shopper looks for one. */
export async function openFrameFromHome(page: Page, name: string): Promise<void> {
  await tapOn(page, /^Search frames/);
  await page.waitForURL(/\/pages\/index\/search\/search/);
  await fill(page, 'keyword', name);
  await tapOn(page, 'Search');
  await page.waitForURL(/searchList/);
  // The result's tile (the search page under it keeps the same words as a history chip).
  await page.locator('.taro_page:visible').last().locator('.goods-tile__name', { hasText: name }).first().click();
  await page.waitForURL(/\/pages\/product\/product\?/);
}

/** The phone's back gesture (the browser's back on H5) until a page with the tab bar is on top. */
export async function backToTabs(page: Page): Promise<void> {
  const tabBar = page.locator('.taro_page:visible').last().locator('.tab-bar__label').first();
  // Each step waits for the page it went back to before going back again (a loaded machine slides pages in slowly,
  // and going back too soon goes past the tab page).
  const shown = (timeout: number) =>
    tabBar.waitFor({ timeout }).then(
      () => true,
      () => false,
    );
  for (let step = 0; step < 6; step += 1) {
    if (await shown(step === 0 ? 500 : 3_000)) return;
    await page.goBack();
  }
  await tabBar.waitFor({ timeout: 15_000 });
}

/** A guest taps Mine (from a tab page), is led to login, signs in there: the app returns to Mine. */
export async function signInFromMine(page: Page, email: string, password: string): Promise<void> {
  await tapTab(page, 'Mine');
  await page.waitForURL(/\/pages\/login\/login/);
  await page.locator('.taro_page:visible input[name="email"]').last().waitFor();
  await fill(page, 'email', email);
  await fill(page, 'password', password);
  await page.locator('.taro_page:visible .login__submit').last().click();
}

/** Waits for the page transition to end: the page on top sits at the left edge and is the only one shown. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const pages = Array.from(document.querySelectorAll<HTMLElement>('.taro_page')).filter(
      (node) => node.style.display !== 'none' && node.offsetParent !== null,
    );
    const top = pages[pages.length - 1];
    return pages.length === 1 && top !== undefined && Math.abs(top.getBoundingClientRect().left) < 1;
  });
}

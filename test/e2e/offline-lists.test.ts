import type { Browser, Page } from 'playwright-core';
import { launchChromium, phonePage, screenshot, see, shown } from './support/browser';
import { type RunningShop, startShop } from './support/server';

jest.setTimeout(180_000);

/** Frames shown on the list on screen. */
const tiles = (page: Page) => page.locator('.goods-tile__name').locator('visible=true').count();

/**
 * Scrolls to the end of the page, as a thumb does (a screen at a time, never one jump of thousands of pixels), so the
 * list asks for its next page. Taro's reach-bottom fires when a scroll event lands near the end and is armed again
 * only by a scroll event farther from it: a single jump from the last end to the new one arms nothing.
 */
async function scrollToEnd(page: Page): Promise<void> {
  await page.mouse.move(187, 400);
  for (let i = 0; i < 30; i += 1) {
    await page.mouse.wheel(0, 600);
    await page.waitForTimeout(30);
  }
}

async function tilesReach(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    (wanted) =>
      Array.from(document.querySelectorAll<HTMLElement>('.goods-tile__name')).filter(
        (element) => element.offsetParent !== null,
      ).length >= wanted,
    count,
    { timeout: 20_000 },
  );
}

describe('lists and the offline banner in headless Chromium against the real server', () => {
  let shop: RunningShop;
  let browser: Browser;

  beforeAll(async () => {
    shop = await startShop();
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
  });

  it('offline: the banner shows, the next page waits; back online: the banner goes, Try again loads it, scrolling (or a jump to the end) goes on', async () => {
    const { page, errors } = await phonePage(browser);
    const context = page.context();
    await page.goto(`${shop.url}/pages/product/product-list-main`, { waitUntil: 'networkidle' });
    await see(page, /^\d+ frames$/);
    expect(await tiles(page)).toBe(10);
    const banner = page.locator('.offline-banner');
    expect(await banner.count()).toBe(0);

    await context.setOffline(true);
    await banner.waitFor();
    await scrollToEnd(page);
    await see(page, 'Loading more…');
    await screenshot(page, 'offline-1-banner-and-waiting-page');
    // The lost page never settles: no frames arrive and no error is made up.
    await page.waitForTimeout(500);
    expect(await tiles(page)).toBe(10);
    expect(await shown(page, 'Try again').count()).toBe(0);

    await context.setOffline(false);
    await banner.waitFor({ state: 'detached' });
    await see(page, 'The connection was lost.');
    await shown(page, 'Try again').last().click();
    await tilesReach(page, 20);
    expect(await shown(page, 'Try again').count()).toBe(0);
    // Straight to the new end in one jump (a fast flick of a wheel or a trackpad, a drag of the scroll bar), not a
    // screen at a time: the next page comes all the same.
    await page.mouse.wheel(0, 3000);
    await tilesReach(page, 30);
    await scrollToEnd(page);
    await tilesReach(page, 40);
    expect(errors).toEqual([]);
  });
});

import type { Browser } from 'playwright-core';
import { launchChromium, phonePage, screenshot } from './support/browser';
import { type RunningShop, startShop } from './support/server';

jest.setTimeout(120_000);

describe('H5 home page in headless Chromium', () => {
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

  it('serves the home page at / and at /pages/index/index, rendered without page errors', async () => {
    const { page, errors } = await phonePage(browser);
    for (const path of ['/', '/pages/index/index']) {
      const response = await page.goto(`${shop.url}${path}`, { waitUntil: 'networkidle' });
      expect(response?.status()).toBe(200);
      // The seeded shop: its categories and colours, and the tab bar with the admin button.
      await page.getByText('Shop by category').waitFor();
      await page.getByText('Eyeglasses', { exact: true }).first().waitFor();
      await page.getByText('Shop by colour').waitFor();
      for (const tab of ['Home', 'Admin', 'Mine']) await page.getByText(tab, { exact: true }).last().waitFor();
    }
    await screenshot(page, 'home');
    expect(errors).toEqual([]);
  });
});

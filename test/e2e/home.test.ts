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
      await page.getByText('Lensmate').first().waitFor();
    }
    await screenshot(page, 'home');
    expect(errors).toEqual([]);
  });
});

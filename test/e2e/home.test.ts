import type { Browser } from 'playwright-core';
import { PNG } from 'pngjs';
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

  it('fills each banner with its picture, cropped to the banner and not letterboxed, its caption written once', async () => {
    const { page, errors } = await phonePage(browser);
    await page.goto(`${shop.url}/`, { waitUntil: 'networkidle' });
    const banners = page.locator('.home__banners');
    await banners.locator('img').first().waitFor();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.home__banners img')].every((img) => (img as HTMLImageElement).complete),
    );
    // The seeded banners are 750 x 420 pictures in a wider banner: shown whole in height they would leave the
    // sides empty (the page shows through), and stretched they would be distorted.
    const png = PNG.sync.read(await banners.screenshot({ animations: 'disabled' }));
    const pixel = (x: number, y: number) => {
      const at = (png.width * y + x) * 4;
      return [png.data[at], png.data[at + 1], png.data[at + 2]];
    };
    const background = await page.evaluate(() => getComputedStyle(document.querySelector('.home')!).backgroundColor);
    const [r, g, b] = background.match(/\d+/g)!.map(Number);
    for (const x of [4, png.width - 5]) {
      const [pr, pg, pb] = pixel(x, Math.floor(png.height / 2));
      expect(Math.abs(pr - r) + Math.abs(pg - g) + Math.abs(pb - b)).toBeGreaterThan(60);
    }
    // The page writes each banner's caption over it; the seeded picture does not write it a second time.
    const src = await banners.locator('img').first().getAttribute('src');
    const svg = await (await fetch(new URL(src!, shop.url))).text();
    expect(svg).toContain('<svg');
    expect(svg).not.toContain('<text');
    expect(errors).toEqual([]);
  });
});

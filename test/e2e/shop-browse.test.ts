import type { Browser, Page } from 'playwright-core';
import { expectFieldCentred, launchChromium, phonePage, quietScreenshot, see, shown, tap } from './support/browser';
import { type RunningShop, startShop } from './support/server';

jest.setTimeout(240_000);

const SHOPPER = { email: 'ben@lensmate.test', password: 'Shopper#2026b' };

describe('a visitor browses, signs in at add-to-cart and builds glasses in headless Chromium', () => {
  let shop: RunningShop;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    shop = await startShop();
    browser = await launchChromium();
    ({ page, errors } = await phonePage(browser));
  });

  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
  });

  it('filters the list by colour and shape', async () => {
    await page.goto(`${shop.url}/pages/index/index`);
    await see(page, 'Shop by colour');
    await quietScreenshot(page, 'browse-01-home');
    await tap(page, 'All frames');
    await page.waitForURL(/\/pages\/product\/product-list-main/);
    await see(page, /^\d+ frames$/);
    const all = Number(
      (
        await shown(page, /^\d+ frames$/)
          .first()
          .textContent()
      )?.split(' ')[0],
    );
    await quietScreenshot(page, 'browse-02-list');

    await tap(page, 'Black');
    await tap(page, 'Filters');
    await see(page, 'Shape');
    await tap(page, 'Round');
    await see(page, 'Round ×');
    await page.waitForFunction(
      (before) => {
        const counts = Array.from(document.querySelectorAll<HTMLElement>('.product-list__count'));
        const count = counts.find((element) => element.offsetParent !== null)?.textContent ?? '';
        const frames = Number(count.split(' ')[0]);
        return frames > 0 && frames < before;
      },
      all,
      { timeout: 20_000 },
    );
    await tap(page, 'Hide filters');
    const names = await page.locator('.goods-tile__name').locator('visible=true').allTextContents();
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(name).toContain('Round');
    await quietScreenshot(page, 'browse-03-black-round');
  });

  it('opens a frame, and add-to-cart sends the visitor to login and back to this frame', async () => {
    await page.locator('.goods-tile').locator('visible=true').first().click();
    await page.waitForURL(/\/pages\/product\/product\?/);
    await see(page, 'Frame size');
    await see(page, /^Colour: /);
    const frameUrl = page.url();
    await quietScreenshot(page, 'browse-04-product');

    await tap(page, 'Add to cart');
    await page.waitForURL(/\/pages\/login\/login/);
    await page.locator('input[name="email"]').fill(SHOPPER.email);
    await page.locator('input[name="password"]').fill(SHOPPER.password);
    await quietScreenshot(page, 'browse-05-login');
    await tap(page, 'Sign in');
    await page.waitForURL(/\/pages\/product\/product\?/);
    expect(new URL(page.url()).searchParams.get('id')).toBe(new URL(frameUrl).searchParams.get('id'));
    await see(page, 'Frame size');
    await quietScreenshot(page, 'browse-06-back-on-product');
  });

  it('enters a prescription, seeing the server check, then chooses lens type and lenses into the cart', async () => {
    await tap(page, 'Add to cart');
    await page.waitForURL(/\/pages\/product\/lens-type\/lens-type/);
    await see(page, 'Progressive');
    await quietScreenshot(page, 'browse-07-lens-type');
    await tap(page, 'Single Vision');
    await page.waitForURL(/\/pages\/product\/prescription\/prescription/);
    await see(page, 'Right eye (OD)');
    await expectFieldCentred(page, 'od.sph');
    await expectFieldCentred(page, 'pd');
    await page.locator('input[name="od.sph"]').fill('-25');
    await page.locator('input[name="os.sph"]').fill('-2.00');
    await page.locator('input[name="pd"]').fill('63');
    await tap(page, 'Save and continue');
    await see(page, 'SPH must be from -20 to +20');
    await quietScreenshot(page, 'browse-08-prescription-error');

    await page.locator('input[name="od.sph"]').fill('-3.75');
    await page.locator('input[name="od.cyl"]').fill('-0.50');
    await page.locator('input[name="od.axis"]').fill('90');
    await tap(page, 'Save and continue');
    await page.waitForURL(/\/pages\/product\/lens\/lens/);
    await see(page, /^Your strongest power is -4\.25: we recommend index 1\.61 or higher\./);
    const total = page.locator('[data-testid="lens-total"]');
    const before = await total.textContent();
    await tap(page, 'Premium Digital');
    await page.waitForFunction(
      (previous) => document.querySelector('[data-testid="lens-total"]')?.textContent !== previous,
      before,
    );
    await quietScreenshot(page, 'browse-09-lens');
    await tap(page, 'Add to cart');
    await page.waitForURL(/\/pages\/order\/cart\/cart/);
    await page
      .locator('.cart-line__meta', { hasText: 'Premium Digital' })
      .locator('visible=true')
      .first()
      .waitFor({ timeout: 20_000 });
    await quietScreenshot(page, 'browse-10-cart');
    expect(errors).toEqual([]);
  });
});

import type { Browser, Page } from 'playwright-core';
import { type ProviderFakes, startProviderFakes } from '../../server/sandbox';
import type {
  ApiBody,
  Cart,
  Goods,
  LensType,
  Page as ListPage,
  LoginResult,
  Order,
  Prescription,
} from '../../types/api';
import { launchChromium, phonePage, quietScreenshot, see, tap } from './support/browser';
import { type RunningShop, startShop } from './support/server';
import { openHome, tapOn } from './support/taps';

jest.setTimeout(240_000);

const SHOPPER = { email: 'ada@lensmate.test', password: 'Shopper#2026a' };
const ADMIN = { email: 'admin@lensmate.test', password: 'Admin#2026pass' };

describe('the shopper orders, pays and tracks in headless Chromium', () => {
  let shop: RunningShop;
  let fakes: ProviderFakes;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  async function api<T>(path: string, body: unknown, token?: string): Promise<T> {
    const response = await fetch(`${shop.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { 'lensmate-token': token } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json()) as ApiBody<T>;
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.msg}`);
    return answer.data;
  }

  beforeAll(async () => {
    // The card is paid through Stripe's Payment Element: its stand-in and Stripe's API are the local fake's.
    fakes = await startProviderFakes();
    shop = await startShop(fakes.env);
    fakes.connect(shop.url);
    browser = await launchChromium();
    ({ page, errors } = await phonePage(browser));
  });

  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
    await fakes?.close();
  });

  it('sends a visitor who opens the cart to login and brings them back after signing in', async () => {
    // The only URL of the journey: home; every other page is reached by taps.
    await openHome(page, shop.url);
    await tapOn(page, 'Cart');
    await page.waitForURL(/\/pages\/login\/login/);
    await page.locator('input[name="email"]').fill(SHOPPER.email);
    await page.locator('input[name="password"]').fill(SHOPPER.password);
    await quietScreenshot(page, 'order-01-login-for-cart');
    await tap(page, 'Sign in');
    await page.waitForURL(/\/pages\/order\/cart\/cart/);
    await see(page, 'Your cart is empty', { whole: false });
    await quietScreenshot(page, 'order-02-empty-cart');
  });

  it('shows a frame with its lens and prescription put in the cart through the API', async () => {
    const { token } = await api<LoginResult>('/api/auth/login', SHOPPER);
    const goods = await api<ListPage<Goods>>('/api/goods/get_goods_page', { page: 1, page_size: 20 });
    const frame = goods.list.find((item) => item.color_arr.some((color) => color.stock === null || color.stock > 2));
    if (!frame) throw new Error('the demo data has no frame in stock');
    const color = frame.color_arr.find((item) => item.stock === null || item.stock > 2) ?? frame.color_arr[0];
    const lensTypes = await api<LensType[]>('/api/goods/get_lens_type', {});
    const singleVision = lensTypes.find((type) => type.needs_prescription && !type.needs_add && type.lenses.length > 1);
    if (!singleVision) throw new Error('the demo data has no single-vision lens type');
    const prescription = await api<Prescription>(
      '/api/order/submit_my_prescription',
      {
        name: 'Distance 2026',
        od: { sph: -2.25, cyl: -0.5, axis: 90, add: null, prism: null, base: null },
        os: { sph: -2, cyl: null, axis: null, add: null, prism: null, base: null },
        pd: { kind: 'single', value: 63 },
      },
      token,
    );
    const lines = [
      {
        goods_id: frame.goods_id,
        color_id: color.color_id,
        quantity: 1,
        lens: { lens_type_id: singleVision.lens_type_id, lens_id: singleVision.lenses[1].lens_id },
        prescription_id: prescription.prescription_id,
      },
    ];
    const cart = await api<Cart>('/api/order/upload_cart', { content: JSON.stringify({ lines }) }, token);
    expect(cart.lines).toHaveLength(1);

    // Reloaded where it stands (the API changed the cart behind the page): no other page is opened.
    await page.reload();
    await see(page, frame.goods_name, { whole: false });
    await see(page, 'Prescription: Distance 2026', { whole: false });
    await see(page, `Lenses: ${singleVision.name} · ${singleVision.lenses[1].name}`, { whole: false });
    await quietScreenshot(page, 'order-03-cart-with-lens');
    await page.locator('.cart-qty__button:visible').nth(1).click();
    await see(page, '2 items · subtotal', { whole: false });
    await quietScreenshot(page, 'order-04-cart-quantity-two');
  });

  it('adds an address, chooses a shipping method and a recommended coupon on the place-order page', async () => {
    await tap(page, 'Checkout');
    await page.waitForURL(/place-order/);
    await see(page, 'Add a delivery address', { whole: false });
    await quietScreenshot(page, 'order-05-place-order-no-address');
    await tap(page, 'Add a delivery address');
    await page.waitForURL(/address-list/);
    await tap(page, 'Add a new address');
    await tap(page, 'Save address');
    await see(page, 'Enter the first name', { whole: false });
    await quietScreenshot(page, 'order-06-address-required-fields');
    await page.locator('input[name="first_name"]').fill('Ada');
    await page.locator('input[name="last_name"]').fill('Lovelace');
    await page.locator('input[name="phone"]').fill('+1 415 555 0100');
    await page.locator('input[name="street"]').fill('1 Market Street');
    await page.locator('input[name="city"]').fill('San Francisco');
    await page.locator('input[name="province"]').fill('CA');
    await page.locator('input[name="zip"]').fill('94105');
    await tap(page, 'Save address');
    await see(page, 'Tap an address to deliver there.', { whole: false });
    await quietScreenshot(page, 'order-07-address-list');
    await tap(page, 'Ada Lovelace');
    await page.waitForURL(/place-order/);
    await see(page, 'Ada Lovelace · +1 415 555 0100', { whole: false });

    await page.locator('.place-order__shipping:visible').click();
    await page.waitForURL(/shipment/);
    await see(page, 'Express', { whole: false });
    await quietScreenshot(page, 'order-08-shipment');
    await tap(page, 'Express');
    await page.waitForURL(/place-order/);
    await see(page, /Express · 3–5 days/, { whole: false });

    await page.locator('.place-order__coupon:visible').first().click();
    await see(page, 'Applied', { whole: false });
    await see(page, /^Coupon [A-Z0-9]+$/, { whole: false });
    await quietScreenshot(page, 'order-09-place-order-ready');
  });

  it('shows the decline of 4000 0000 0000 0002, then pays with 4242 4242 4242 4242', async () => {
    await tap(page, 'Place order');
    await page.waitForURL(/\/pages\/order\/payment\/payment\?order_id=\d+/);
    await see(page, 'Amount to pay', { whole: false });
    // The card fields are Stripe's (the Payment Element's frame), not the shop's.
    const element = page.frameLocator('iframe[title="Secure payment input frame"]');
    const number = element.locator('#number');
    await number.pressSequentially('4000000000000002');
    await element.locator('#expiry').pressSequentially('1230');
    await element.locator('#cvc').pressSequentially('123');
    expect(await number.inputValue()).toBe('4000 0000 0000 0002');
    expect(await element.locator('#expiry').inputValue()).toBe('12 / 30');
    await page.locator('.payment__card .payment__pay').click();
    await see(page, 'Your card was declined.', { whole: false });
    await quietScreenshot(page, 'order-10-card-declined');

    await number.fill('');
    await number.pressSequentially('4242424242424242');
    expect(await number.inputValue()).toBe('4242 4242 4242 4242');
    await page.locator('.payment__card .payment__pay').click();
    await page.waitForURL(/order-detail\?order_id=\d+/);
    await see(page, 'Paid on', { whole: false });
    await quietScreenshot(page, 'order-11-order-paid');
  });

  it('finds the order as paid in the order list and follows its parcel once it is dispatched', async () => {
    const orderId = Number(new URL(page.url()).searchParams.get('order_id'));
    await tap(page, 'All my orders ›');
    await page.waitForURL(/\/pages\/order\/order-list\/order-list-main/);
    await see(page, 'All', { whole: false });
    await page.locator('.order-tabs__tab:visible', { hasText: 'Paid' }).click();
    await page.locator('.order-card:visible').first().waitFor();
    await see(page, 'Paid', { whole: false });
    await quietScreenshot(page, 'order-12-order-list-paid');

    // The warehouse dispatches the parcel: an admin ships the order with the carrier's tracking number.
    const { token: admin } = await api<LoginResult>('/api/auth/login', ADMIN);
    const shipped = await api<Order>(
      '/api/order/update_order_status',
      { order_id: orderId, status: 'shipped', tracking_no: 'LMTRACK0001', carrier: 'Lensmate Post' },
      admin,
    );
    expect([shipped.status, shipped.tracking_no]).toEqual(['shipped', 'LMTRACK0001']);
    await page.locator('.order-tabs__tab:visible', { hasText: 'Shipped' }).click();
    await page.locator('.order-card:visible').first().waitFor();
    await see(page, 'Shipped', { whole: false });
    await page.locator('.order-card:visible').first().click();
    await page.waitForURL(/order-detail/);
    await see(page, 'Shipping label created', { whole: false });
    expect(await page.locator('.track__event:visible').count()).toBeGreaterThan(0);
    await page.locator('.track:visible').scrollIntoViewIfNeeded();
    await quietScreenshot(page, 'order-13-order-tracking');
    expect(errors).toEqual([]);
  });
});

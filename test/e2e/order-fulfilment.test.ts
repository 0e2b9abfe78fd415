import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type ProviderFakes, startProviderFakes } from '../../server/sandbox';
import type { Order } from '../../types/api';
import { answerModal, apiLogin, apiPost, lastMailTo, signInAs } from './support/account-flow';
import { launchChromium, quietScreenshot, see } from './support/browser';
import { type RunningShop, startShop } from './support/server';
import { openFromMine, tapOn, tapTab } from './support/taps';

jest.setTimeout(300_000);

const SHOPPER = { email: 'ada@lensmate.test', password: 'Shopper#2026a' };
const OWNER = { email: 'admin@lensmate.test', password: 'Admin#2026pass' };

/**
 * The order's life on H5 in Chromium, with two people: the shopper pays by card (Stripe.js against the local fake),
 * the owner finds the order in the admin area and ships it with a tracking number after the confirmation, and the
 * shopper's order then shows "Shipped" with the parcel's timeline and the order's history.
 */
describe('a paid order is shipped from the admin screen and the shopper follows it', () => {
  let fakes: ProviderFakes;
  let shop: RunningShop;
  let browser: Browser;
  let shopperContext: BrowserContext;
  let ownerContext: BrowserContext;
  let shopper: Page;
  let owner: Page;
  let token: string;
  let order: Order;
  const errors: string[] = [];

  beforeAll(async () => {
    fakes = await startProviderFakes();
    shop = await startShop(fakes.env);
    fakes.connect(shop.url);
    browser = await launchChromium();
    const phone = { viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true };
    shopperContext = await browser.newContext(phone);
    ownerContext = await browser.newContext(phone);
    shopper = await shopperContext.newPage();
    owner = await ownerContext.newPage();
    for (const page of [shopper, owner]) page.on('pageerror', (error) => errors.push(error.message));
    token = await apiLogin(shop.url, SHOPPER.email, SHOPPER.password);
    await signInAs(shopper, shop.url, SHOPPER.email, SHOPPER.password);
    await signInAs(owner, shop.url, OWNER.email, OWNER.password);
  });

  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
    await fakes?.close();
  });

  it('the shopper orders and pays by card', async () => {
    const goods = await apiPost<{
      list: { goods_id: number; color_arr: { color_id: number; stock: number | null }[] }[];
    }>(shop.url, '/api/goods/get_goods_page', { page: 1, page_size: 20 });
    const frame = goods.data.list.find((item) => item.color_arr[0].stock === null) ?? goods.data.list[0];
    const address = await apiPost<{ address_id: number }>(
      shop.url,
      '/api/user/set_user_address',
      {
        first_name: 'Ada',
        last_name: 'Lovelace',
        phone: '+1 415 555 0100',
        country_code: 'US',
        province: 'CA',
        city: 'San Francisco',
        street: '1 Market Street',
        zip: '94105',
      },
      token,
    );
    const placed = await apiPost<Order>(
      shop.url,
      '/api/order/submit_order',
      {
        client_key: `e2e-fulfil-${Date.now()}`,
        address_id: address.data.address_id,
        shipping_method_id: 1,
        lines: [{ goods_id: frame.goods_id, color_id: frame.color_arr[0].color_id, quantity: 1 }],
      },
      token,
    );
    if (placed.status !== 200) throw new Error(`submit_order: ${placed.msg}`);
    order = placed.data;
    await openFromMine(shopper, 'Orders', /\/pages\/order\/order-list\/order-list-main/);
    const card = shopper.locator('.order-card:visible', { hasText: order.order_sn });
    await card.getByText('Pay now', { exact: true }).click();
    await shopper.waitForURL(/\/pages\/order\/payment\/payment/);
    const element = shopper.frameLocator('iframe[title="Secure payment input frame"]');
    await element.locator('#number').pressSequentially('4242424242424242');
    await element.locator('#expiry').pressSequentially('1230');
    await element.locator('#cvc').pressSequentially('123');
    await shopper.locator('.payment__card .payment__pay').click();
    await shopper.waitForURL(new RegExp(`order-detail\\?order_id=${order.order_id}`), { timeout: 60_000 });
    await see(shopper, 'Paid on', { whole: false });
  });

  it('the owner finds it in the admin area and ships it after the confirmation', async () => {
    await tapTab(owner, 'Admin');
    await owner.waitForURL(/\/pages\/admin\/edit-list/);
    await owner.getByText('Orders', { exact: true }).filter({ visible: true }).first().click();
    await owner.waitForURL(/\/pages\/admin\/orders/);
    await owner.locator('.admin-tabs__tab:visible', { hasText: 'To ship' }).click();
    await owner.locator('.admin-list__item:visible', { hasText: order.order_sn }).click();
    await owner.waitForURL(new RegExp(`/pages/admin/order-detail\\?id=${order.order_id}`));
    await see(owner, `Order ${order.order_sn}`);
    await see(owner, 'Paid by the payment provider');
    await owner.locator('input[name="carrier"]:visible').fill('Lensmate Post');
    await owner.locator('input[name="tracking_no"]:visible').fill('LMTRACK0042');
    await owner.getByText('Ship order', { exact: true }).filter({ visible: true }).click();
    expect(await answerModal(owner, 'Yes')).toBe(
      `Ship order ${order.order_sn} with Lensmate Post, tracking number LMTRACK0042？`,
    );
    await see(owner, 'Mark delivered');
    await see(owner, 'Shipped by staff admin@lensmate.test');
    await quietScreenshot(owner, 'fulfilment-01-owner-shipped');
  });

  it('the shopper sees the order shipped, with the parcel’s timeline and the order’s history', async () => {
    // From the paid order the shopper left open: every order, the Shipped tab, this order.
    await tapOn(shopper, 'All my orders ›');
    await shopper.waitForURL(/\/pages\/order\/order-list\/order-list-main/);
    await shopper.locator('.order-tabs__tab:visible', { hasText: 'Shipped' }).click();
    await shopper.locator('.order-card:visible', { hasText: order.order_sn }).click();
    await shopper.waitForURL(new RegExp(`order-detail\\?order_id=${order.order_id}`));
    await see(shopper, 'Shipped');
    await see(shopper, 'Shipping label created', { whole: false });
    await see(shopper, 'Lensmate Post · LMTRACK0042', { whole: false });
    await see(shopper, 'Payment received');
    expect(await shopper.locator('.track__event:visible').count()).toBeGreaterThanOrEqual(4);
    await shopper.locator('.track-history:visible').scrollIntoViewIfNeeded();
    await quietScreenshot(shopper, 'fulfilment-02-shopper-shipped');
    expect(lastMailTo(shop.dataDir, SHOPPER.email)?.subject).toBe(`Your Lensmate order ${order.order_sn} has shipped`);
  });

  it('ran with no page error', () => {
    expect(errors).toEqual([]);
  });
});

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { type ProviderFakes, startProviderFakes } from '../../server/sandbox';
import type { Order } from '../../types/api';
import { apiLogin, apiPost, signInAs } from './support/account-flow';
import { launchChromium, quietScreenshot, see } from './support/browser';
import { type RunningShop, startShop } from './support/server';
import { openFromMine, tapOn } from './support/taps';

jest.setTimeout(300_000);

const SHOPPER = { email: 'ada@lensmate.test', password: 'Shopper#2026a' };

/**
 * Paying on H5 in Chromium through the providers' client SDKs: the shop's configuration points Stripe.js, the PayPal
 * JS SDK and Braintree's drop-in at the local fakes' stand-ins (same API surface, cards in the providers' frames),
 * and the server's SDKs at the fakes' APIs. Each payment ends on the order, paid.
 */
describe('the shopper pays by card, PayPal and Braintree on H5 through the providers’ SDKs', () => {
  let fakes: ProviderFakes;
  let shop: RunningShop;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  const errors: string[] = [];
  const policyViolations: string[] = [];
  /** Every request the shop's own origin received, with its body: the card must never be among them. */
  const shopRequests: string[] = [];

  beforeAll(async () => {
    fakes = await startProviderFakes();
    shop = await startShop(fakes.env);
    fakes.connect(shop.url);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true });
    page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) policyViolations.push(message.text());
    });
    context.on('request', (request) => {
      if (request.url().startsWith(shop.url)) shopRequests.push(`${request.url()} ${request.postData() ?? ''}`);
    });
    token = await apiLogin(shop.url, SHOPPER.email, SHOPPER.password);
    await signInAs(page, shop.url, SHOPPER.email, SHOPPER.password);
  });

  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
    await fakes?.close();
  });

  /** An order placed through the API; the shopper then goes from the order list to its payment page by taps. */
  async function orderToPay(key: string): Promise<Order> {
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
    const order = await apiPost<Order>(
      shop.url,
      '/api/order/submit_order',
      {
        client_key: key,
        address_id: address.data.address_id,
        shipping_method_id: 1,
        lines: [{ goods_id: frame.goods_id, color_id: frame.color_arr[0].color_id, quantity: 1 }],
      },
      token,
    );
    if (order.status !== 200) throw new Error(`submit_order: ${order.msg}`);
    // By taps: Mine's Orders from home (where signing in ends), or the paid order's "All my orders".
    if (/order-detail/.test(page.url())) {
      await tapOn(page, 'All my orders ›');
      await page.waitForURL(/\/pages\/order\/order-list\/order-list-main/);
    } else {
      await openFromMine(page, 'Orders', /\/pages\/order\/order-list\/order-list-main/);
    }
    const card = page.locator('.order-card:visible', { hasText: order.data.order_sn });
    await card.getByText('Pay now', { exact: true }).click();
    await page.waitForURL(new RegExp(`/pages/order/payment/payment\\?order_id=${order.data.order_id}`));
    await see(page, 'Amount to pay', { whole: false });
    await see(page, 'Test mode: no money moves');
    return order.data;
  }

  async function expectPaid(order: Order): Promise<void> {
    await page.waitForURL(new RegExp(`order-detail\\?order_id=${order.order_id}`), { timeout: 60_000 });
    await see(page, 'Paid on', { whole: false });
    const status = await apiPost<{ list: Order[] }>(
      shop.url,
      '/api/order/get_user_order',
      { order_id: order.order_id },
      token,
    );
    expect(status.data.list[0].status).toBe('paid');
  }

  it('pays by card in the Payment Element: a decline, then a card that asks for 3-D Secure', async () => {
    const order = await orderToPay(`e2e-card-${Date.now()}`);
    const element = page.frameLocator('iframe[title="Secure payment input frame"]');
    await element.locator('#number').pressSequentially('4000000000000002');
    await element.locator('#expiry').pressSequentially('1230');
    await element.locator('#cvc').pressSequentially('123');
    expect(await element.locator('#number').inputValue()).toBe('4000 0000 0000 0002');
    await quietScreenshot(page, 'payment-01-card-element');
    await page.locator('.payment__card .payment__pay').click();
    await see(page, 'Your card was declined.', { whole: false });
    expect(
      (await apiPost<{ list: Order[] }>(shop.url, '/api/order/get_user_order', { order_id: order.order_id }, token))
        .data.list[0].status,
    ).toBe('created');

    await element.locator('#number').fill('');
    await element.locator('#number').pressSequentially('4000002500003155');
    await page.locator('.payment__card .payment__pay').click();
    const challenge = page.frameLocator('iframe[title="3D Secure authentication"]');
    await challenge.getByText('Complete authentication').click();
    await expectPaid(order);
    await quietScreenshot(page, 'payment-02-card-paid');
    const leaked = shopRequests.filter((request) =>
      /4000\D?0000\D?0000\D?0002|4000\D?0025\D?0000\D?3155/.test(request),
    );
    expect(leaked).toEqual([]);
  });

  it('pays with the PayPal buttons: a declined funding source, then PayPal again in the same window flow', async () => {
    const order = await orderToPay(`e2e-paypal-${Date.now()}`);
    const button = page.frameLocator('iframe[title="PayPal"]').getByRole('button', { name: 'PayPal' });
    const firstPopup = context.waitForEvent('page');
    await button.click();
    const approval = await firstPopup;
    await approval.waitForLoadState();
    await approval.getByText('Pay with a card the bank declines').click();
    // The capture is refused; the buttons restart and PayPal's window opens again for another way to pay.
    const again = await context.waitForEvent('page');
    await again.waitForLoadState();
    await again.getByText('Pay now', { exact: true }).click();
    await expectPaid(order);
    expect(fakes.paypal.orders.size).toBeGreaterThan(0);
  });

  it('pays with Braintree’s drop-in, through a 3-D Secure challenge', async () => {
    const order = await orderToPay(`e2e-braintree-${Date.now()}`);
    const card = page.frameLocator('iframe[title="Secure Credit Card Frame"]');
    await card.locator('#credit-card-number').pressSequentially('4000000000001091');
    await card.locator('#expiration').pressSequentially('1230');
    await card.locator('#cvv').pressSequentially('123');
    await page.locator('.payment__braintree .payment__pay').click();
    await page.frameLocator('iframe[title="3-D Secure authentication"]').getByText('Submit', { exact: true }).click();
    await expectPaid(order);
  });

  it('ran with no page error and nothing the site’s policy blocked', () => {
    expect(errors).toEqual([]);
    expect(policyViolations).toEqual([]);
  });
});

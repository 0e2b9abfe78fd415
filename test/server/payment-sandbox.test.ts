import { type RunningShop, startShop } from '../e2e/support/server';

jest.setTimeout(240_000);

/**
 * `npm start`'s demo: PAYMENT_SANDBOX=1 starts the providers' fakes inside server/main.ts and points the
 * unconfigured providers at them; a card payment then goes through the whole production code path.
 */
describe('the demo’s payment sandbox (PAYMENT_SANDBOX=1 in server/main.ts)', () => {
  let shop: RunningShop;

  beforeAll(async () => {
    shop = await startShop({ PAYMENT_SANDBOX: '1', H5_DIR: '/nonexistent' });
  });
  afterAll(async () => {
    await shop?.stop();
  });

  async function call(path: string, body?: unknown, token = ''): Promise<any> {
    const response = await fetch(`${shop.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { 'lensmate-token': token } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { headers: response.headers, body: await response.json() };
  }

  test('offers every provider in test mode, allows exactly their origins in the CSP, and takes a card payment', async () => {
    const methods = (await call('/api/payment/methods')).body.data;
    expect(methods.test_mode).toBe(true);
    expect(methods.methods.map((method: { id: string }) => method.id)).toEqual([
      'card',
      'paypal',
      'braintree',
      'wechat',
    ]);
    const token = (await call('/api/auth/login', { email: 'ada@lensmate.test', password: 'Shopper#2026a' })).body.data
      .token;
    const goods = (await call('/api/goods/get_goods_page', { page_size: 20 })).body.data.list;
    const frame = goods.find((item: any) => item.color_arr[0].stock === null);
    const address = (
      await call(
        '/api/user/set_user_address',
        {
          first_name: 'Ada',
          last_name: 'L',
          phone: '+44 20 7946 0000',
          country_code: 'gb',
          city: 'London',
          street: '1 A St',
          zip: 'NW1 6XE',
        },
        token,
      )
    ).body.data.address_id;
    const order = (
      await call(
        '/api/order/submit_order',
        {
          client_key: 'sandbox-demo-0001',
          address_id: address,
          shipping_method_id: 1,
          lines: [{ goods_id: frame.goods_id, color_id: frame.color_arr[0].color_id, quantity: 1 }],
        },
        token,
      )
    ).body.data;
    const secret = await call('/api/payment/get_secret_for_stripe', { order_id: order.order_id }, token);
    const stripeOrigin = new URL(secret.body.data.js_url).origin;
    const policy = String(secret.headers.get('content-security-policy'));
    expect(policy).toMatch(new RegExp(`script-src [^;]*${stripeOrigin.replace(/\./g, '\\.')}`));
    expect(policy).toMatch(new RegExp(`frame-src [^;]*${stripeOrigin.replace(/\./g, '\\.')}`));
    expect((await fetch(secret.body.data.js_url)).status).toBe(200);
    // What the Payment Element stand-in sends from its frame, to the fake Stripe.
    const id = secret.body.data.client_secret.split('_secret_')[0];
    const confirmed = await fetch(`${stripeOrigin}/v1/payment_intents/${id}/confirm`, {
      method: 'POST',
      body: new URLSearchParams({
        key: secret.body.data.publishable_key,
        client_secret: secret.body.data.client_secret,
        'payment_method_data[card][number]': '4242424242424242',
        'payment_method_data[card][exp_month]': '12',
        'payment_method_data[card][exp_year]': '34',
        'payment_method_data[card][cvc]': '123',
      }),
    });
    expect(confirmed.status).toBe(200);
    expect((await call('/api/payment/confirm_stripe', { order_id: order.order_id }, token)).body.data.status).toBe(
      'paid',
    );
  });
});

import { type ProviderFakes, startProviderFakes } from '../../server/sandbox';
import type { LoginResult, Order } from '../../types/api';
import { stripeConfirm } from '../server/payment-fakes';
import type { Phone } from './runner/phone';
import { ADMIN, type RunningShop, SHOPPER, api, openPhone, signIn, startShop } from './support';

jest.setTimeout(120_000);

/**
 * The owner's order screens on the built mini-program (the admin subpackage): a shopper's order, paid by card
 * through the API, is found in the list and shipped from its detail after WeChat's confirmation dialog.
 */
describe('the mini-program: the owner ships a paid order from the admin area', () => {
  let fakes: ProviderFakes;
  let shop: RunningShop;
  let phone: Phone;
  let order: Order;

  beforeAll(async () => {
    fakes = await startProviderFakes();
    shop = await startShop(fakes.env);
    fakes.connect(shop.url);
    const { token } = await api<LoginResult>(shop, '/api/auth/login', SHOPPER);
    const goods = await api<{ list: { goods_id: number; color_arr: { color_id: number; stock: number | null }[] }[] }>(
      shop,
      '/api/goods/get_goods_page',
      { page: 1, page_size: 20 },
    );
    const frame = goods.list.find((item) => item.color_arr[0].stock === null) ?? goods.list[0];
    const address = await api<{ address_id: number }>(
      shop,
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
    order = await api<Order>(
      shop,
      '/api/order/submit_order',
      {
        client_key: `weapp-admin-${Date.now()}`,
        address_id: address.address_id,
        shipping_method_id: 1,
        lines: [{ goods_id: frame.goods_id, color_id: frame.color_arr[0].color_id, quantity: 1 }],
      },
      token,
    );
    const secret = await api<{ client_secret: string }>(
      shop,
      '/api/payment/get_secret_for_stripe',
      { order_id: order.order_id },
      token,
    );
    await stripeConfirm(fakes, secret.client_secret, '4242424242424242', '12/34');
    await api<Order>(shop, '/api/payment/confirm_stripe', { order_id: order.order_id }, token);
  });

  afterAll(async () => {
    phone?.close();
    await shop?.stop();
    await fakes?.close();
  });

  it('lists the paid order under To ship and opens it', async () => {
    phone = await openPhone(shop, { path: 'pages/admin/orders' });
    await signIn(phone, ADMIN);
    await phone.waitForPage('pages/admin/orders');
    await phone.tap('To ship');
    await phone.see(order.order_sn);
    await phone.tap(order.order_sn);
    await phone.waitForPage('pages/admin/order-detail', { id: String(order.order_id) });
    await phone.see(`Order ${order.order_sn}`);
    await phone.see('Paid by the payment provider');
  });

  it('ships it after the confirmation; the history shows who did', async () => {
    await phone.type('Carrier', 'Lensmate Post');
    await phone.type('Tracking number', 'LMTRACK0077');
    await phone.tap('Ship order');
    await phone.answerModal(true, `Ship order ${order.order_sn}`);
    await phone.see('Mark delivered');
    await phone.see('Shipped by staff admin@lensmate.test');
    const { token } = await api<LoginResult>(shop, '/api/auth/login', SHOPPER);
    const mine = await api<{ list: Order[] }>(shop, '/api/order/get_user_order', { order_id: order.order_id }, token);
    expect([mine.list[0].status, mine.list[0].tracking_no]).toEqual(['shipped', 'LMTRACK0077']);
  });
});

import { type ProviderFakes, startProviderFakes } from '../../server/sandbox';
import { ADA, BEN, type TestServer, engines, startServer } from './helpers';
import { braintreeNonce, paypalApprove, stripeConfirm } from './payment-fakes';

const ADDRESS = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  phone: '+44 20 7946 0000',
  country_code: 'gb',
  city: 'London',
  street: '12 Baker St',
  zip: 'NW1 6XE',
};
const RX = {
  name: 'Ada 2026',
  od: { sph: -2.25, cyl: -0.5, axis: 90, add: null, prism: 1, base: 'BI' },
  os: { sph: -2, cyl: null, axis: null, add: null, prism: null, base: null },
  pd: { kind: 'single', value: 63 },
};

jest.setTimeout(120_000);

describe.each(engines)('addresses, prescriptions, cart, orders and payments on %s', (engine) => {
  let s: TestServer;
  let fakes: ProviderFakes;
  let ada: string;
  let ben: string;
  let goods: any;
  let stocked: any;
  let lensTypes: any[];
  beforeAll(async () => {
    fakes = await startProviderFakes();
    s = await startServer(engine, fakes.env);
    fakes.connect(s.base);
    [ada, ben] = await Promise.all([s.login(ADA.email, ADA.password), s.login(BEN.email, BEN.password)]);
    const page = (await s.call('POST', '/api/goods/get_goods_page', { page_size: 100 })).body.data.list;
    goods = page.find((g: any) => g.discount < 100 && g.color_arr[0].stock === null);
    stocked = page.find((g: any) => g.color_arr[0].stock !== null);
    lensTypes = (await s.call('POST', '/api/goods/get_lens_type', {})).body.data;
  });
  afterAll(async () => {
    await fakes.close();
    await s.close();
  });

  async function address(token: string): Promise<number> {
    return (await s.call('POST', '/api/user/set_user_address', ADDRESS, token)).body.data.address_id;
  }

  test('addresses: saved, listed and deleted by their owner only', async () => {
    const saved = await s.call('POST', '/api/user/set_user_address', ADDRESS, ada);
    expect(saved.body.data).toMatchObject({ country_code: 'GB', is_default: true });
    expect((await s.call('POST', '/api/user/set_user_address', { ...ADDRESS, zip: '' }, ada)).body.msg).toBe(
      'zip: must be a postal code',
    );
    expect((await s.call('POST', '/api/user/set_user_address', { ...ADDRESS, country_code: 'ZZ' }, ada)).body.msg).toBe(
      'country_code: we do not ship to this country',
    );
    expect((await s.call('POST', '/api/user/get_user_address', {}, ben)).body.data).toEqual([]);
    const stolen = await s.call(
      'POST',
      '/api/user/set_user_address',
      { ...ADDRESS, address_id: saved.body.data.address_id, city: 'Paris' },
      ben,
    );
    expect(stolen.body.status).toBe(404);
    expect(
      (await s.call('POST', '/api/user/delete_user_address', { address_id: saved.body.data.address_id }, ben)).body
        .status,
    ).toBe(404);
    expect((await s.call('POST', '/api/user/get_user_address', {}, ada)).body.data[0].city).toBe('London');
    expect(
      (await s.call('POST', '/api/user/delete_user_address', { address_id: saved.body.data.address_id }, ada)).body
        .status,
    ).toBe(200);
  });

  test('prescriptions are checked for optical plausibility and private to their owner', async () => {
    const noAxis = { ...RX, od: { ...RX.od, axis: null } };
    expect((await s.call('POST', '/api/order/submit_my_prescription', noAxis, ada)).body.msg).toBe(
      'od.axis: is required when CYL is set',
    );
    expect(
      (await s.call('POST', '/api/order/submit_my_prescription', { ...RX, os: { ...RX.os, sph: -2.1 } }, ada)).body.msg,
    ).toBe('os.sph: must be in steps of 0.25');
    expect(
      (await s.call('POST', '/api/order/submit_my_prescription', { ...RX, od: { ...RX.od, sph: -25 } }, ada)).body.msg,
    ).toBe('od.sph: must be from -20 to +20');
    expect(
      (await s.call('POST', '/api/order/submit_my_prescription', { ...RX, od: { ...RX.od, base: null } }, ada)).body
        .msg,
    ).toBe('od.base: is required when a prism is set');
    expect(
      (
        await s.call(
          'POST',
          '/api/order/submit_my_prescription',
          { ...RX, pd: { kind: 'dual', right: 31, left: 50 } },
          ada,
        )
      ).body.msg,
    ).toBe('pd.left: must be from 25 to 40 mm');
    const saved = (await s.call('POST', '/api/order/submit_my_prescription', RX, ada)).body.data;
    expect(saved).toMatchObject({ name: 'Ada 2026', od: { axis: 90 }, pd: { kind: 'single', value: 63 } });
    expect((await s.call('GET', '/api/user/get_my_prescription', undefined, ben)).body.data).toEqual([]);
    expect(
      (await s.call('POST', '/api/user/delete_my_prescription', { prescription_id: saved.prescription_id }, ben)).body
        .status,
    ).toBe(404);
    expect((await s.call('GET', '/api/user/get_my_prescription', undefined, ada)).body.data.length).toBe(1);
  });

  test('cart: content is a validated JSON string, priced by the server, private', async () => {
    const line = { goods_id: goods.goods_id, color_id: goods.color_arr[0].color_id, quantity: 2 };
    expect((await s.call('POST', '/api/order/upload_cart', { content: '{lines:' }, ada)).body.msg).toBe(
      'content: must be a JSON string of {lines: [...]}',
    );
    expect(
      (
        await s.call(
          'POST',
          '/api/order/upload_cart',
          { content: JSON.stringify({ lines: [{ ...line, quantity: 0 }] }) },
          ada,
        )
      ).body.msg,
    ).toBe('lines.0.quantity: must be from 1 to 20');
    expect(
      (
        await s.call(
          'POST',
          '/api/order/upload_cart',
          { content: JSON.stringify({ lines: [{ ...line, color_id: 9999 }] }) },
          ada,
        )
      ).body.msg,
    ).toBe('lines.0.color_id: these glasses do not come in this colour');
    const cart = (
      await s.call(
        'POST',
        '/api/order/upload_cart',
        { content: JSON.stringify({ lines: [{ ...line, unit_price: 0.01 }] }) },
        ada,
      )
    ).body.data;
    expect(cart.subtotal).toBeCloseTo(goods.final_price * 2, 2);
    expect((await s.call('GET', '/api/order/get_cart', undefined, ada)).body.data.item_count).toBe(2);
    expect((await s.call('GET', '/api/order/get_cart', undefined, ben)).body.data.lines).toEqual([]);
    expect((await s.call('GET', '/api/order/get_cart')).body.status).toBe(403);
  });

  test('submit_order: totals from the catalogue with lens options, prism, coupon and shipping; idempotent per key', async () => {
    const addressId = await address(ada);
    const rx = (await s.call('GET', '/api/user/get_my_prescription', undefined, ada)).body.data[0];
    const single = lensTypes.find((t) => t.name === 'Single Vision');
    const thickness = (await s.call('POST', '/api/goods/get_lens_thickness', {})).body.data[2];
    const coatings = (await s.call('GET', '/api/goods/lens_coating')).body.data;
    const shipping = (await s.call('POST', '/api/config/get_shipping_method', {})).body.data.find(
      (m: any) => m.name === 'Express',
    );
    const lens = {
      lens_type_id: single.lens_type_id,
      lens_id: single.lenses[1].lens_id,
      thickness_id: thickness.thickness_id,
      coating_ids: [coatings[1].coating_id],
    };
    const lines = [
      {
        goods_id: goods.goods_id,
        color_id: goods.color_arr[0].color_id,
        quantity: 1,
        lens,
        prescription_id: rx.prescription_id,
      },
    ];
    const noRx = await s.call(
      'POST',
      '/api/order/submit_order',
      {
        client_key: 'key-no-rx-0001',
        address_id: addressId,
        shipping_method_id: shipping.shipping_method_id,
        lines: [{ ...lines[0], prescription_id: null }],
      },
      ada,
    );
    expect(noRx.body.msg).toBe('lines.0.prescription_id: Single Vision lenses need a prescription');
    const request = {
      client_key: 'checkout-0001',
      address_id: addressId,
      shipping_method_id: shipping.shipping_method_id,
      coupon_code: 'freeship5',
      lines,
    };
    const first = await s.call('POST', '/api/order/submit_order', request, ada);
    expect(first.body.status).toBe(200);
    const order = first.body.data;
    const lensTotal = single.lenses[1].price + thickness.price + coatings[1].price + 15;
    expect(order.lines[0].lens_detail.total).toBeCloseTo(lensTotal, 2);
    expect(order.subtotal).toBeCloseTo(goods.final_price + lensTotal, 2);
    expect(order.coupon_discount).toBe(5);
    expect(order.shipping_fee).toBe(shipping.price);
    expect(order.total).toBeCloseTo(order.subtotal - 5 + shipping.price, 2);
    expect(order.status).toBe('created');
    expect(order.lines[0].prescription.od.axis).toBe(90);
    const retry = await s.call('POST', '/api/order/submit_order', request, ada);
    expect(retry.body.data.order_id).toBe(order.order_id);
    expect((await s.call('POST', '/api/order/get_user_order', {}, ada)).body.data.total).toBe(1);
    const reuse = await s.call('POST', '/api/order/submit_order', { ...request, client_key: 'checkout-0002' }, ada);
    expect(reuse.body.msg).toBe('coupon_code: you have already used this coupon');
    expect((await s.call('POST', '/api/order/get_user_order', {}, ben)).body.data.total).toBe(0);
    const bens = { ...request, client_key: 'ben-00001', coupon_code: undefined };
    expect((await s.call('POST', '/api/order/submit_order', bens, ben)).body.msg).toBe(
      'lines.0.prescription_id: no such prescription',
    );
    const frameOnly = [{ goods_id: goods.goods_id, color_id: goods.color_arr[0].color_id, quantity: 1 }];
    expect((await s.call('POST', '/api/order/submit_order', { ...bens, lines: frameOnly }, ben)).body.msg).toBe(
      'address_id: no such address',
    );
  });

  test('stock cannot be sold twice', async () => {
    const addressId = await address(ben);
    const stock = stocked.color_arr[0].stock as number;
    const line = { goods_id: stocked.goods_id, color_id: stocked.color_arr[0].color_id, quantity: Math.min(stock, 20) };
    const base = { address_id: addressId, shipping_method_id: 1 };
    let left = stock;
    let n = 0;
    while (left >= line.quantity) {
      const { body } = await s.call(
        'POST',
        '/api/order/submit_order',
        { ...base, client_key: `stock-${n++}-xxxx`, lines: [line] },
        ben,
      );
      expect(body.status).toBe(200);
      left -= line.quantity;
    }
    const over = await s.call(
      'POST',
      '/api/order/submit_order',
      { ...base, client_key: 'stock-over-xxxx', lines: [{ ...line, quantity: left + 1 }] },
      ben,
    );
    expect(over.body.status).toBe(409);
    expect(over.body.msg).toMatch(/^lines\.0: .* is not available in this quantity$/);
  });

  async function newOrder(key: string): Promise<any> {
    const addressId = (await s.call('POST', '/api/user/get_user_address', {}, ada)).body.data[0].address_id;
    const lines = [{ goods_id: goods.goods_id, color_id: goods.color_arr[0].color_id, quantity: 1 }];
    return (
      await s.call(
        'POST',
        '/api/order/submit_order',
        { client_key: key, address_id: addressId, shipping_method_id: 1, lines },
        ada,
      )
    ).body.data;
  }

  test('card payment: a declined card leaves the order unpaid; 4242 pays it; a Luhn failure is refused', async () => {
    const order = await newOrder('pay-card-0001');
    const intent = (await s.call('POST', '/api/payment/get_secret_for_stripe', { order_id: order.order_id }, ada)).body
      .data;
    expect(intent).toMatchObject({ test_mode: true, amount: order.total, currency: 'USD' });
    expect(
      (await s.call('POST', '/api/payment/get_secret_for_stripe', { order_id: order.order_id }, ben)).body.status,
    ).toBe(404);
    // The card goes to Stripe (here its fake) from the Payment Element, never to our server.
    expect((await stripeConfirm(fakes, intent.client_secret, '4242 4242 4242 4241')).body.error.message).toBe(
      'Your card number is incorrect.',
    );
    expect((await s.call('POST', '/api/payment/confirm_stripe', { order_id: order.order_id }, ada)).body.msg).toBe(
      'order_id: Your card number is incorrect.',
    );
    const declined = await stripeConfirm(fakes, intent.client_secret, '4000 0000 0000 0002');
    expect(declined.body.error.message).toBe('Your card was declined.');
    expect((await s.call('POST', '/api/payment/confirm_stripe', { order_id: order.order_id }, ada)).body).toMatchObject(
      {
        status: 400,
        msg: 'order_id: Your card was declined.',
      },
    );
    expect(
      (await s.call('POST', '/api/order/get_user_order', { order_id: order.order_id }, ada)).body.data.list[0].status,
    ).toBe('created');
    const retry = (await s.call('POST', '/api/payment/get_secret_for_stripe', { order_id: order.order_id }, ada)).body
      .data;
    expect((await stripeConfirm(fakes, retry.client_secret, '4242424242424242')).body.status).toBe('succeeded');
    const paid = (await s.call('POST', '/api/payment/confirm_stripe', { order_id: order.order_id }, ada)).body.data;
    expect(paid.status).toBe('paid');
    expect(paid.paid_at).toEqual(expect.any(Number));
    expect(
      (await s.call('POST', '/api/payment/get_secret_for_stripe', { order_id: order.order_id }, ada)).body.status,
    ).toBe(409);
    expect((await s.call('POST', '/api/order/delete_order', { order_id: order.order_id }, ada)).body.status).toBe(409);
  });

  test('the status machine: an admin ships and delivers a paid order; paid only through a provider; shoppers refused', async () => {
    const admin = await s.login('admin@lensmate.test', 'Admin#2026pass');
    const order = await newOrder('status-machine-01');
    const move = (status: string, token: string, extra: object = {}) =>
      s.call('POST', '/api/order/update_order_status', { order_id: order.order_id, status, ...extra }, token);
    expect((await move('shipped', ada, { tracking_no: 'LM0000000001' })).body).toMatchObject({
      status: 403,
      msg: 'Admin only',
    });
    expect((await move('paid', admin)).body.msg).toBe(
      'status: an order becomes paid only when the payment provider confirms',
    );
    expect((await move('shipped', admin, { tracking_no: 'LM0000000001' })).body.msg).toBe(
      'status: an order that is created cannot become shipped',
    );
    const intent = (await s.call('POST', '/api/payment/get_secret_for_stripe', { order_id: order.order_id }, ada)).body
      .data;
    await stripeConfirm(fakes, intent.client_secret, '4242424242424242', '01/90');
    expect(
      (await s.call('POST', '/api/payment/confirm_stripe', { order_id: order.order_id }, ada)).body.data.status,
    ).toBe('paid');
    expect((await move('shipped', admin)).body.msg).toBe('tracking_no: is required to ship');
    const shipped = (await move('shipped', admin, { tracking_no: 'lm0000000001', carrier: 'Lensmate Post' })).body.data;
    expect(shipped).toMatchObject({ status: 'shipped', tracking_no: 'LM0000000001', carrier: 'Lensmate Post' });
    const track = (await s.call('POST', '/api/track/one_seven_track_data', { tracking_no: shipped.tracking_no }, ada))
      .body.data;
    expect(track.events[0].description).toBe('Shipping label created');
    expect((await move('delivered', admin)).body.data.status).toBe('delivered');
    expect((await move('cancelled', admin)).body.status).toBe(409);
    expect((await move('refunded', admin)).body.data.status).toBe('refunded');
  });

  test('PayPal: capture before approval is refused; approve then capture pays', async () => {
    const order = await newOrder('pay-paypal-0001');
    const created = (await s.call('POST', '/api/paypal/create_order', { order_id: order.order_id }, ada)).body.data;
    expect(created.test_mode).toBe(true);
    const early = await s.call(
      'POST',
      '/api/paypal/capture_order',
      { order_id: order.order_id, paypal_order_id: created.paypal_order_id },
      ada,
    );
    expect(early.body).toMatchObject({
      status: 409,
      msg: 'paypal_order_id: the buyer has not approved the payment yet',
    });
    fakes.paypal.webhooks.hold();
    expect(await paypalApprove(fakes, created.paypal_order_id)).toBe(200);
    const paid = await s.call(
      'POST',
      '/api/paypal/capture_order',
      { order_id: order.order_id, paypal_order_id: created.paypal_order_id },
      ada,
    );
    expect(paid.body.data.status).toBe('paid');
    await fakes.paypal.webhooks.release();
  });

  test('Braintree: a declined card leaves the order unpaid, a valid one pays it', async () => {
    const order = await newOrder('pay-braintree-01');
    const token = (await s.call('GET', '/api/payment/get_paypal_braintree_accesstoken', undefined, ada)).body.data;
    expect(token.test_mode).toBe(true);
    const declined = await s.call(
      'POST',
      '/api/payment/paypal_braintree_checkout',
      { order_id: order.order_id, payment_method_nonce: await braintreeNonce(token.client_token, '4000111111111115') },
      ada,
    );
    expect(declined.body.status).toBe(400);
    const paid = await s.call(
      'POST',
      '/api/payment/paypal_braintree_checkout',
      { order_id: order.order_id, payment_method_nonce: await braintreeNonce(token.client_token, '4111111111111111') },
      ada,
    );
    expect(paid.body.data.status).toBe('paid');
  });

  test('an unpaid order can be deleted: it is cancelled and hidden', async () => {
    const order = await newOrder('delete-me-0001');
    expect((await s.call('POST', '/api/order/delete_order', { order_id: order.order_id }, ben)).body.status).toBe(404);
    expect((await s.call('POST', '/api/order/delete_order', { order_id: order.order_id }, ada)).body.status).toBe(200);
    expect((await s.call('POST', '/api/order/get_user_order', { order_id: order.order_id }, ada)).body.data.total).toBe(
      0,
    );
  });

  test('tracking: offline events are deterministic per number and advance in time order', async () => {
    const admin = await s.login('admin@lensmate.test', 'Admin#2026pass');
    // A number no order of the shopper's was shipped with is not theirs to read; staff may look any up.
    expect((await s.call('POST', '/api/track/track_no_register', { tracking_no: 'LM123456789CN' }, ada)).body).toEqual({
      status: 404,
      msg: 'tracking_no: no order of yours was shipped with this tracking number',
      data: null,
    });
    expect(
      (await s.call('POST', '/api/track/one_seven_track_data', { tracking_no: 'LM123456789CN' }, ada)).body.status,
    ).toBe(404);
    expect(
      (await s.call('POST', '/api/track/track_no_register', { tracking_no: 'LM123456789CN' }, admin)).body.data,
    ).toEqual({ registered: true, tracking_no: 'LM123456789CN' });
    const first = (await s.call('POST', '/api/track/one_seven_track_data', { tracking_no: 'LM123456789CN' }, admin))
      .body.data;
    const again = (await s.call('POST', '/api/track/one_seven_track_data', { tracking_no: 'lm123456789cn' }, admin))
      .body.data;
    expect(again).toEqual(first);
    expect(first.events.length).toBeGreaterThan(0);
    const times = first.events.map((e: any) => e.time);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(first.status).toBe(first.events[0].status);
    expect((await s.call('POST', '/api/track/one_seven_track_data', { tracking_no: '!' }, ada)).body.msg).toBe(
      'tracking_no: must be 6 to 40 letters, digits or dashes',
    );
  });
});

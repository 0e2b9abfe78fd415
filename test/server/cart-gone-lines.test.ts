import { PRESCRIPTION_GONE } from '../../server/services/cart';
import { BEN, type TestServer, engines, startServer } from './helpers';

jest.setTimeout(120_000);

const RX = {
  name: 'Distance',
  od: { sph: -6, cyl: null, axis: null, add: null, prism: null, base: null },
  os: { sph: -5.5, cyl: null, axis: null, add: null, prism: null, base: null },
  pd: { kind: 'single', value: 64 },
};

describe.each(engines)('a cart line whose prescription or frame is gone, on %s', (engine) => {
  let s: TestServer;
  let ben: string;
  let frame: { goods_id: number; color_arr: { color_id: number }[] };
  let single: { lens_type_id: number; lenses: { lens_id: number }[] };

  beforeAll(async () => {
    s = await startServer(engine);
    ben = await s.login(BEN.email, BEN.password);
    const page = (await s.call('POST', '/api/goods/get_goods_page', { page_size: 100 })).body.data.list;
    frame = page[0];
    single = (await s.call('POST', '/api/goods/get_lens_type', {})).body.data.find(
      (type: { name: string }) => type.name === 'Single Vision',
    );
  });
  afterAll(async () => {
    await s.close();
  });

  it('keeps the line in the cart with what to do, lets the other lines change, and refuses checkout', async () => {
    const rx = (await s.call('POST', '/api/order/submit_my_prescription', RX, ben)).body.data;
    const withRx = {
      goods_id: frame.goods_id,
      color_id: frame.color_arr[0].color_id,
      quantity: 1,
      lens: { lens_type_id: single.lens_type_id, lens_id: single.lenses[0].lens_id },
      prescription_id: rx.prescription_id,
    };
    const frameOnly = { goods_id: frame.goods_id, color_id: frame.color_arr[0].color_id, quantity: 1 };
    const upload = (lines: unknown[]) =>
      s.call('POST', '/api/order/upload_cart', { content: JSON.stringify({ lines }) }, ben);
    expect((await upload([withRx, frameOnly])).body.status).toBe(200);
    await s.call('POST', '/api/user/delete_my_prescription', { prescription_id: rx.prescription_id }, ben);

    const cart = (await s.call('GET', '/api/order/get_cart', undefined, ben)).body.data;
    expect(cart.lines).toHaveLength(2);
    expect(cart.lines[0]).toMatchObject({
      prescription_id: rx.prescription_id,
      available: false,
      problem: PRESCRIPTION_GONE,
      line_total: 0,
    });
    expect(cart.lines[0].goods_name).not.toBe('');
    expect(cart.lines[1].available).toBe(true);
    expect(cart.lines[1].problem).toBeUndefined();

    // The other line changes with the broken one kept as saved; a new line must still price.
    const changed = await upload([withRx, { ...frameOnly, quantity: 3 }]);
    expect(changed.body.status).toBe(200);
    expect(changed.body.data.lines[1].quantity).toBe(3);
    expect(changed.body.data.lines[0].problem).toBe(PRESCRIPTION_GONE);
    expect((await upload([{ ...withRx, prescription_id: 99_999 }])).body.msg).toBe(
      'lines.0.prescription_id: no such prescription',
    );

    const address = (
      await s.call(
        'POST',
        '/api/user/set_user_address',
        {
          first_name: 'Ben',
          last_name: 'B',
          phone: '+44 20 7946 0001',
          country_code: 'gb',
          city: 'London',
          street: '1 Baker St',
          zip: 'NW1 6XE',
        },
        ben,
      )
    ).body.data.address_id;
    const checkout = await s.call(
      'POST',
      '/api/order/submit_order',
      { client_key: 'gone-line-1', address_id: address, shipping_method_id: 1 },
      ben,
    );
    expect(checkout.body.msg).toBe('lines.0.prescription_id: no such prescription');

    expect((await upload([{ ...frameOnly, quantity: 3 }])).body.data.lines).toHaveLength(1);
  });
});

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startProviderFakes } from '../../server/sandbox';
import { SeventeenTrackFake, seventeenSign } from '../../server/sandbox/seventeen-track';
import { ADA, ADMIN, BEN, engines, startServer } from './helpers';
import { stripeConfirm } from './payment-fakes';

const ADDRESS = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  phone: '+44 20 7946 0000',
  country_code: 'gb',
  city: 'London',
  street: '12 Baker St',
  zip: 'NW1 6XE',
};

jest.setTimeout(120_000);

/** A shop with 17track (its local fake) and the payment fakes; the tests' own clock. */
async function shop(engine: 'sqlite' | 'postgres', env: Record<string, string>, now?: () => number) {
  const fakes = await startProviderFakes();
  const tracking = new SeventeenTrackFake();
  await tracking.start();
  const s = await startServer(
    engine,
    { ...fakes.env, ...tracking.env, ORDER_JOB_SECONDS: '0', ...env },
    now ? { now } : {},
  );
  fakes.connect(s.base);
  const [ada, ben, admin] = await Promise.all([
    s.login(ADA.email, ADA.password),
    s.login(BEN.email, BEN.password),
    s.login(ADMIN.email, ADMIN.password),
  ]);
  const addressId = (await s.call('POST', '/api/user/set_user_address', ADDRESS, ada)).body.data.address_id;
  const page = (await s.call('POST', '/api/goods/get_goods_page', { page_size: 100 })).body.data.list;
  const goods = page.find((g: any) => g.color_arr[0].stock === null);
  let n = 0;
  async function paidOrder(): Promise<any> {
    const placed = await s.call(
      'POST',
      '/api/order/submit_order',
      {
        client_key: `tracking-${engine}-${n++}-key`,
        address_id: addressId,
        shipping_method_id: 1,
        lines: [{ goods_id: goods.goods_id, color_id: goods.color_arr[0].color_id, quantity: 1 }],
      },
      ada,
    );
    const orderId = placed.body.data.order_id;
    const intent = (await s.call('POST', '/api/payment/get_secret_for_stripe', { order_id: orderId }, ada)).body.data;
    await stripeConfirm(fakes, intent.client_secret, '4242424242424242', '01/90');
    const paid = await s.call('POST', '/api/payment/confirm_stripe', { order_id: orderId }, ada);
    expect(paid.body.data?.status).toBe('paid');
    return paid.body.data;
  }
  const ship = (orderId: number, trackingNo: string) =>
    s.call(
      'POST',
      '/api/admin/order/ship',
      { order_id: orderId, carrier: 'Lensmate Post', tracking_no: trackingNo },
      admin,
    );
  const statusOf = async (orderId: number) =>
    (await s.call('POST', '/api/admin/order/detail', { order_id: orderId }, admin)).body.data.order.status;
  return {
    s,
    fakes,
    tracking,
    ada,
    ben,
    admin,
    paidOrder,
    ship,
    statusOf,
    async close() {
      await tracking.close();
      await fakes.close();
      await s.close();
    },
  };
}

describe.each(engines)('17track, bound to the order, on %s', (engine) => {
  test('webhook: registered at shipping, signed notifications move the order to delivered, forgeries refused', async () => {
    const t = await shop(engine, { SEVENTEEN_TRACK_WEBHOOK: '1' });
    try {
      t.tracking.webhooks.endpoint = `${t.s.base}/api/track/webhook/17track`;
      const order = await t.paidOrder();
      expect((await t.ship(order.order_id, 'RR123456785CN')).body.data.order.status).toBe('shipped');
      expect(t.tracking.calls).toEqual([{ path: 'register', numbers: ['RR123456785CN'] }]);
      expect(t.tracking.parcels.has('RR123456785CN')).toBe(true);

      // The owner reads the parcel through 17track's gettrackinfo; another shopper cannot.
      const before = await t.s.call('POST', '/api/order/get_order_tracking', { order_id: order.order_id }, t.ada);
      expect(before.body.data).toEqual({
        tracking_no: 'RR123456785CN',
        carrier: 'Lensmate Post (fake)',
        status: 'registered',
        events: [],
      });
      expect(t.tracking.calls.at(-1)).toEqual({ path: 'gettrackinfo', numbers: ['RR123456785CN'] });
      expect(
        (await t.s.call('POST', '/api/order/get_order_tracking', { order_id: order.order_id }, t.ben)).body.status,
      ).toBe(404);

      t.tracking.advance('RR123456785CN', {
        stage: 'InTransit',
        description: 'Departed the export hub',
        location: 'Hong Kong, HK',
      });
      await t.tracking.webhooks.settled();
      expect(t.tracking.webhooks.sent[0].answers).toEqual([200]);
      expect(await t.statusOf(order.order_id)).toBe('shipped');

      t.tracking.advance('RR123456785CN', { stage: 'Delivered', description: 'Delivered', location: 'London, GB' });
      await t.tracking.webhooks.settled();
      expect(await t.statusOf(order.order_id)).toBe('delivered');
      const detail = (await t.s.call('POST', '/api/admin/order/detail', { order_id: order.order_id }, t.admin)).body
        .data;
      expect(detail.history.at(-1)).toMatchObject({
        kind: 'delivered',
        actor: 'carrier',
        note: 'Delivered, London, GB',
      });
      const timeline = (await t.s.call('POST', '/api/order/get_order_tracking', { order_id: order.order_id }, t.ada))
        .body.data;
      expect(timeline.status).toBe('delivered');
      expect(timeline.events.map((e: any) => e.description)).toEqual(['Delivered', 'Departed the export hub']);

      // The same notification again changes nothing; a forged or altered one is refused.
      const delivered = t.tracking.webhooks.sent[1];
      const post = (body: string, sign: string) =>
        t.s.app.inject({
          method: 'POST',
          url: '/api/track/webhook/17track',
          headers: { 'content-type': 'application/json', sign },
          payload: body,
        });
      const replay = await post(delivered.body, delivered.headers.sign);
      expect(replay.json()).toEqual({ status: 200, msg: 'ok', data: { received: true, delivered: false } });
      const altered = delivered.body.replace('RR123456785CN', 'RR999999990CN');
      expect((await post(altered, delivered.headers.sign)).json()).toEqual({
        status: 401,
        msg: 'sign: does not match the body',
        data: null,
      });
      expect((await post(altered, seventeenSign(altered, 'not-the-key'))).statusCode).toBe(401);
      expect((await post(delivered.body, '')).statusCode).toBe(401);
      // Signed right, but for a number of no order: acknowledged, nothing moves.
      expect((await post(altered, seventeenSign(altered, t.tracking.key))).json().data).toEqual({
        received: true,
        delivered: false,
      });

      // Outbox: shipped, then delivered.
      const dir = t.s.config.outboxDir;
      const subjects = existsSync(dir)
        ? readdirSync(dir)
            .sort()
            .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')).subject)
        : [];
      expect(subjects).toEqual([
        `Your Lensmate order ${order.order_sn} has shipped`,
        `Your Lensmate order ${order.order_sn} was delivered`,
      ]);
    } finally {
      await t.close();
    }
  });

  test('polling without the webhook: the order job asks 17track and delivers; 17track down leaves the order paid', async () => {
    let clock = Date.UTC(2026, 10, 28, 9);
    const t = await shop(engine, { TRACKING_POLL_MINUTES: '30' }, () => clock);
    try {
      const order = await t.paidOrder();
      t.tracking.failWith = 503;
      expect((await t.ship(order.order_id, 'RR000000011CN')).body).toEqual({
        status: 503,
        msg: 'The tracking service is not reachable, try again later',
        data: null,
      });
      expect(await t.statusOf(order.order_id)).toBe('paid');
      t.tracking.failWith = null;
      expect((await t.ship(order.order_id, 'RR000000011CN')).body.data.order.status).toBe('shipped');

      t.tracking.advance('RR000000011CN', { stage: 'Delivered', description: 'Delivered', location: 'Paris, FR' });
      clock += 10 * 60_000;
      expect((await t.s.app.orderJobs.runOnce()).delivered).toEqual([]);
      clock += 25 * 60_000;
      expect((await t.s.app.orderJobs.runOnce()).delivered).toEqual([order.order_id]);
      expect(await t.statusOf(order.order_id)).toBe('delivered');
      expect((await t.s.app.orderJobs.runOnce()).delivered).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

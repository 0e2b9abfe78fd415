import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { openDb } from '../../server/db/connection';
import type { Database } from '../../server/db/schema';
import { ADA, ADMIN, BEN, type TestServer, engines, startServer } from './helpers';

const ADDRESS = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  phone: '+44 20 7946 0000',
  country_code: 'gb',
  city: 'London',
  street: '12 Baker St',
  zip: 'NW1 6XE',
};
const MINUTE = 60_000;

jest.setTimeout(120_000);

describe.each(engines)('unpaid orders expire on %s', (engine) => {
  let s: TestServer;
  /** The server's clock, moved by the tests. */
  let clock = Date.UTC(2026, 10, 28, 9);
  const now = () => clock;
  let ada: string;
  let ben: string;
  let admin: string;
  let adaAddress: number;
  let benAddress: number;
  let colour: { goods_id: number; color_id: number };
  let n = 0;

  beforeAll(async () => {
    s = await startServer(engine, { ORDER_JOB_SECONDS: '0' }, { now });
    [ada, ben, admin] = await Promise.all([
      s.login(ADA.email, ADA.password),
      s.login(BEN.email, BEN.password),
      s.login(ADMIN.email, ADMIN.password),
    ]);
    adaAddress = (await s.call('POST', '/api/user/set_user_address', ADDRESS, ada)).body.data.address_id;
    benAddress = (await s.call('POST', '/api/user/set_user_address', ADDRESS, ben)).body.data.address_id;
    const page = (await s.call('POST', '/api/goods/get_goods_page', { page_size: 100 })).body.data.list;
    const goods = page.find((g: any) => g.color_arr[0].stock !== null);
    colour = { goods_id: goods.goods_id, color_id: goods.color_arr[0].color_id };
  });
  afterAll(async () => {
    await s.close();
  });

  const setStock = (stock: number) =>
    s.handle.db
      .updateTable('goods_colors')
      .set({ stock })
      .where('goods_id', '=', colour.goods_id)
      .where('color_id', '=', colour.color_id)
      .execute();
  const stockNow = async () =>
    (
      await s.handle.db
        .selectFrom('goods_colors')
        .select('stock')
        .where('goods_id', '=', colour.goods_id)
        .where('color_id', '=', colour.color_id)
        .executeTakeFirstOrThrow()
    ).stock;
  const order = (token: string, addressId: number, quantity = 1, extra: object = {}) =>
    s.call(
      'POST',
      '/api/order/submit_order',
      {
        client_key: `expiry-${engine}-${n++}-key`,
        address_id: addressId,
        shipping_method_id: 1,
        lines: [{ ...colour, quantity }],
        ...extra,
      },
      token,
    );
  const statusOf = async (orderId: number) =>
    (await s.handle.db.selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow())
      .status;
  const outbox = () =>
    existsSync(s.config.outboxDir)
      ? readdirSync(s.config.outboxDir).map((name) => JSON.parse(readFileSync(join(s.config.outboxDir, name), 'utf8')))
      : [];

  test('after 30 minutes unpaid (by the server clock) an order is cancelled once, its stock and coupon released', async () => {
    await setStock(10);
    const coupons = (await s.call('GET', '/api/config/get_coupons')).body.data;
    const coupon = coupons.find((c: any) => c.threshold === 0) ?? null;
    const placed = await order(ada, adaAddress, 3, coupon ? { coupon_code: coupon.code } : {});
    expect(placed.body.status).toBe(200);
    const id = placed.body.data.order_id;
    expect(await stockNow()).toBe(7);

    clock += 29 * MINUTE;
    expect((await s.app.orderJobs.runOnce()).expired).toEqual([]);
    expect(await statusOf(id)).toBe('created');

    clock += 1 * MINUTE;
    expect((await s.app.orderJobs.runOnce()).expired).toEqual([id]);
    expect(await statusOf(id)).toBe('cancelled');
    expect(await stockNow()).toBe(10);
    expect(await s.handle.db.selectFrom('coupon_uses').selectAll().where('order_id', '=', id).execute()).toEqual([]);
    // Once: a second run releases nothing more.
    expect((await s.app.orderJobs.runOnce()).expired).toEqual([]);
    expect(await stockNow()).toBe(10);

    const history = (await s.call('POST', '/api/admin/order/detail', { order_id: id }, admin)).body.data.history;
    expect(history).toEqual([
      expect.objectContaining({
        kind: 'expired',
        from_status: 'created',
        to_status: 'cancelled',
        actor: 'system',
        note: 'not paid within 30 minutes',
        created_at: clock,
      }),
    ]);
    const mail = outbox().find((m) => m.subject === `Your Lensmate order ${placed.body.data.order_sn} was cancelled`);
    expect(mail).toMatchObject({ to: ADA.email });
    const mine = (await s.call('POST', '/api/order/get_user_order', { order_id: id }, ada)).body.data.list;
    expect(mine.map((o: any) => o.status)).toEqual(['cancelled']);
  });

  test('a payment started within the payment time holds the order that much longer from its start', async () => {
    await setStock(10);
    const placed = await order(ada, adaAddress, 1);
    const id = placed.body.data.order_id;
    clock += 25 * MINUTE;
    // The shopper opens the card form: the provider's payment is pending (as get_secret_for_stripe records it).
    await s.handle.db
      .insertInto('payments')
      .values({
        order_id: id,
        provider: 'stripe',
        reference: `pi_expiry_${engine}`,
        status: 'pending',
        amount_cents: Math.round(placed.body.data.total * 100),
        currency: 'USD',
        failure: '',
        created_at: clock,
        updated_at: clock,
      })
      .execute();
    clock += 10 * MINUTE;
    expect((await s.app.orderJobs.runOnce()).expired).not.toContain(id);
    expect(await statusOf(id)).toBe('created');
    clock += 21 * MINUTE;
    expect((await s.app.orderJobs.runOnce()).expired).toContain(id);
    expect(await stockNow()).toBe(10);
  });

  test('the last unit: two shoppers race, exactly one gets it; it comes back when that order expires', async () => {
    await setStock(1);
    const [a, b] = await Promise.all([order(ada, adaAddress), order(ben, benAddress)]);
    const answers = [a.body.status, b.body.status].sort();
    expect(answers).toEqual([200, 409]);
    expect(await stockNow()).toBe(0);
    const winner = a.body.status === 200 ? a.body.data : b.body.data;
    const loserToken = a.body.status === 200 ? ben : ada;
    const loserAddress = a.body.status === 200 ? benAddress : adaAddress;
    expect((await order(loserToken, loserAddress)).body.status).toBe(409);

    clock += 31 * MINUTE;
    expect((await s.app.orderJobs.runOnce()).expired).toEqual([winner.order_id]);
    expect(await stockNow()).toBe(1);
    expect((await order(loserToken, loserAddress)).body.status).toBe(200);
    expect(await stockNow()).toBe(0);
  });

  if (engine === 'postgres') {
    test('two server processes on PostgreSQL expire the same orders once each, without double release', async () => {
      clock += 31 * MINUTE;
      await s.app.orderJobs.runOnce();
      await setStock(100);
      const ids: number[] = [];
      for (let i = 0; i < 24; i++)
        ids.push((await order(i % 2 ? ada : ben, i % 2 ? adaAddress : benAddress)).body.data.order_id);
      expect(await stockNow()).toBe(76);
      const other = openDb<Database>(s.config.databaseUrl);
      const second = await buildApp(s.config, { db: other.db, dialect: other.dialect, now });
      try {
        clock += 31 * MINUTE;
        const runs = await Promise.all([s.app.orderJobs.runOnce(), second.orderJobs.runOnce()]);
        const expired = runs.flatMap((run) => run.expired);
        expect([...expired].sort((x, y) => x - y)).toEqual(ids);
        expect(new Set(expired).size).toBe(expired.length);
        expect(await stockNow()).toBe(100);
        const events = await s.handle.db
          .selectFrom('order_events')
          .select((eb) => ['order_id', eb.fn.countAll<number>().as('n')])
          .where('order_id', 'in', ids)
          .groupBy('order_id')
          .execute();
        expect(events.map((e) => Number(e.n))).toEqual(ids.map(() => 1));
      } finally {
        await second.close();
        await other.close();
      }
    });
  }

  // Last: it stops the suite's server.
  test('the job survives a restart: orders that expired while the server was down are released when it starts', async () => {
    // What earlier tests left unpaid goes first.
    clock += 31 * MINUTE;
    await s.app.orderJobs.runOnce();
    await setStock(5);
    const placed = await order(ada, adaAddress, 2);
    const id = placed.body.data.order_id;
    await s.app.close();
    clock += 45 * MINUTE;
    // A new process on the same database, its job on a timer (ORDER_JOB_SECONDS), ORDER_PAYMENT_MINUTES configured.
    const config = loadConfig(
      {
        DATA_DIR: s.dir,
        DATABASE_URL: s.config.databaseUrl,
        LOG_LEVEL: 'silent',
        H5_DIR: join(s.dir, 'no-site'),
        ORDER_JOB_SECONDS: '3600',
        ORDER_PAYMENT_MINUTES: '40',
      },
      { messaging: false },
    );
    const handle = openDb<Database>(config.databaseUrl);
    const restarted = await buildApp(config, { db: handle.db, dialect: handle.dialect, now });
    try {
      await restarted.ready();
      for (let i = 0; i < 100 && (await statusOf(id)) === 'created'; i++) await new Promise((r) => setTimeout(r, 20));
      expect(await statusOf(id)).toBe('cancelled');
      expect(await stockNow()).toBe(5);
      // (Joins the start's run if its notices are still going out.)
      await restarted.orderJobs.runOnce();
      // 40 minutes now: an order 35 minutes old stays.
      const fresh = await restarted.inject({
        method: 'POST',
        url: '/api/order/submit_order',
        headers: { 'lensmate-token': ada },
        payload: {
          client_key: `expiry-${engine}-restarted`,
          address_id: adaAddress,
          shipping_method_id: 1,
          lines: [{ ...colour, quantity: 1 }],
        },
      });
      clock += 35 * MINUTE;
      expect((await restarted.orderJobs.runOnce()).expired).toEqual([]);
      expect(await statusOf(fresh.json().data.order_id)).toBe('created');
      clock += 5 * MINUTE;
      expect((await restarted.orderJobs.runOnce()).expired).toEqual([fresh.json().data.order_id]);
    } finally {
      await restarted.close();
      await handle.close();
    }
  });
});

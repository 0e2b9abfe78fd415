import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MessagingControl, type SystemMessage } from '../../server/messaging/control';
import { type ProviderFakes, startProviderFakes } from '../../server/sandbox';
import { ADA, ADMIN, BEN, type TestServer, engines, startServer } from './helpers';
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

describe.each(engines)('the order lifecycle on %s', (engine) => {
  let s: TestServer;
  let fakes: ProviderFakes;
  let ada: string;
  let ben: string;
  let admin: string;
  let stocked: any;
  let addressId: number;
  let n = 0;
  /** The system messages the shop sent (a messaging server would deliver them to the shopper's chat). */
  const notices: SystemMessage[] = [];

  beforeAll(async () => {
    fakes = await startProviderFakes();
    const messaging = new MessagingControl(null as never);
    messaging.attachSystemSender(async (message) => {
      notices.push(message);
      return [];
    });
    s = await startServer(engine, { ...fakes.env, ORDER_JOB_SECONDS: '0' }, { messaging });
    fakes.connect(s.base);
    [ada, ben, admin] = await Promise.all([
      s.login(ADA.email, ADA.password),
      s.login(BEN.email, BEN.password),
      s.login(ADMIN.email, ADMIN.password),
    ]);
    const page = (await s.call('POST', '/api/goods/get_goods_page', { page_size: 100 })).body.data.list;
    stocked = page.find((g: any) => g.color_arr[0].stock !== null && g.color_arr[0].stock >= 10);
    addressId = (await s.call('POST', '/api/user/set_user_address', ADDRESS, ada)).body.data.address_id;
  });
  afterAll(async () => {
    await fakes.close();
    await s.close();
  });

  const stockNow = async () =>
    (
      await s.handle.db
        .selectFrom('goods_colors')
        .select('stock')
        .where('goods_id', '=', stocked.goods_id)
        .where('color_id', '=', stocked.color_arr[0].color_id)
        .executeTakeFirstOrThrow()
    ).stock as number;

  async function newOrder(extra: object = {}): Promise<any> {
    const { body } = await s.call(
      'POST',
      '/api/order/submit_order',
      {
        client_key: `lifecycle-${engine}-${n++}`,
        address_id: addressId,
        shipping_method_id: 1,
        lines: [{ goods_id: stocked.goods_id, color_id: stocked.color_arr[0].color_id, quantity: 2 }],
        ...extra,
      },
      ada,
    );
    expect(body.status).toBe(200);
    return body.data;
  }

  async function paidOrder(extra: object = {}): Promise<any> {
    const order = await newOrder(extra);
    const intent = (await s.call('POST', '/api/payment/get_secret_for_stripe', { order_id: order.order_id }, ada)).body
      .data;
    const confirmed = await stripeConfirm(fakes, intent.client_secret, '4242424242424242', '01/90');
    expect([confirmed.http, confirmed.body.status, intent.amount]).toEqual([200, 'succeeded', order.total]);
    const paid = await s.call('POST', '/api/payment/confirm_stripe', { order_id: order.order_id }, ada);
    expect([paid.body.msg, paid.body.data?.status]).toEqual(['ok', 'paid']);
    return paid.body.data;
  }

  const act = (step: string, body: object, token = admin) => s.call('POST', `/api/admin/order/${step}`, body, token);

  test('ship, deliver, refund: each checked, idempotent and in the history with who and when', async () => {
    const unpaid = await newOrder();
    // Ship an unpaid order: refused, and nothing recorded.
    expect(
      (await act('ship', { order_id: unpaid.order_id, carrier: 'DHL', tracking_no: 'LC1000000001' })).body,
    ).toEqual({ status: 409, msg: 'order_id: the order is not paid yet, it cannot be shipped', data: null });
    expect((await act('deliver', { order_id: unpaid.order_id })).body.msg).toBe(
      'order_id: the order is created, only a shipped order can be delivered',
    );
    expect((await act('refund', { order_id: unpaid.order_id, client_key: 'refund-unpaid-1' })).body.msg).toBe(
      'order_id: the order is not paid, there is nothing to refund',
    );

    const order = await paidOrder();
    expect((await act('ship', { order_id: order.order_id, tracking_no: 'LC1000000002' })).body.msg).toBe(
      'carrier: is required',
    );
    const shipped = await act('ship', { order_id: order.order_id, carrier: 'DHL', tracking_no: 'lc1000000002' });
    expect(shipped.body.data.order).toMatchObject({
      status: 'shipped',
      tracking_no: 'LC1000000002',
      carrier: 'DHL',
      user_email: ADA.email,
    });
    expect(shipped.body.data.order.shipped_at).toEqual(expect.any(Number));
    // The same shipment again: the same answer, one step in the history.
    const again = await act('ship', { order_id: order.order_id, carrier: 'DHL', tracking_no: 'LC1000000002' });
    expect(again.body.status).toBe(200);
    expect(
      (await act('ship', { order_id: order.order_id, carrier: 'DHL', tracking_no: 'LC1000000003' })).body.msg,
    ).toBe('order_id: the order is already shipped with tracking number LC1000000002');
    // Another order cannot take the same parcel.
    const other = await paidOrder();
    expect(
      (await act('ship', { order_id: other.order_id, carrier: 'DHL', tracking_no: 'LC1000000002' })).body.msg,
    ).toBe('tracking_no: this tracking number belongs to another order');
    // Cancel a shipped order: refused.
    expect((await act('cancel', { order_id: order.order_id })).body).toEqual({
      status: 409,
      msg: 'order_id: the order is shipped, it cannot be cancelled: refund it instead',
      data: null,
    });

    expect((await act('deliver', { order_id: order.order_id })).body.data.order.status).toBe('delivered');
    expect((await act('deliver', { order_id: order.order_id })).body.data.order.status).toBe('delivered');

    // A partial refund keeps the status; the same key again refunds nothing more; more than is left is refused.
    const part = await act('refund', { order_id: order.order_id, amount: 10, client_key: 'refund-part-01' });
    expect(part.body.data.order).toMatchObject({ status: 'delivered', refunded: 10 });
    const retried = await act('refund', { order_id: order.order_id, amount: 10, client_key: 'refund-part-01' });
    expect(retried.body.data.order.refunded).toBe(10);
    expect(
      (await act('refund', { order_id: order.order_id, amount: order.total, client_key: 'refund-too-much' })).body.msg,
    ).toBe(`amount: at most ${(order.total - 10).toFixed(2)} is left to refund`);
    const rest = await act('refund', { order_id: order.order_id, client_key: 'refund-rest-01' });
    expect(rest.body.data.order).toMatchObject({ status: 'refunded', refunded: order.total });
    // Refund twice: refused.
    expect((await act('refund', { order_id: order.order_id, client_key: 'refund-again-1' })).body).toEqual({
      status: 409,
      msg: 'order_id: the order is already refunded',
      data: null,
    });
    expect((await act('cancel', { order_id: order.order_id })).body.msg).toBe(
      'order_id: the order is refunded, it cannot be cancelled',
    );
    // The provider gave back exactly the total, in two refunds.
    const refunds = await s.handle.db
      .selectFrom('refunds')
      .select(['amount_cents', 'status'])
      .where('order_id', '=', order.order_id)
      .orderBy('id')
      .execute();
    expect(refunds).toEqual([
      { amount_cents: 1000, status: 'succeeded' },
      { amount_cents: Math.round(order.total * 100) - 1000, status: 'succeeded' },
    ]);

    const history = (await act('detail', { order_id: order.order_id })).body.data.history;
    expect(history.map((e: any) => [e.kind, e.from_status, e.to_status, e.actor, e.actor_name])).toEqual([
      ['paid', 'created', 'paid', 'provider', ''],
      ['shipped', 'paid', 'shipped', 'staff', ADMIN.email],
      ['delivered', 'shipped', 'delivered', 'staff', ADMIN.email],
      ['partially_refunded', 'delivered', 'delivered', 'staff', ADMIN.email],
      ['refunded', 'delivered', 'refunded', 'staff', ADMIN.email],
    ]);
    expect(history[1].note).toBe('DHL LC1000000002');
    expect(history[3].amount).toBe(10);
    for (const event of history) expect(event.created_at).toBeGreaterThanOrEqual(order.created_at);

    // The shopper heard of each step by mail and in chat.
    const dir = s.config.outboxDir;
    const subjects = existsSync(dir)
      ? readdirSync(dir).map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')))
      : [];
    const sn = order.order_sn;
    for (const subject of [
      `Your Lensmate order ${sn} has shipped`,
      `Your Lensmate order ${sn} was delivered`,
      `We refunded 10.00 USD on your Lensmate order ${sn}`,
      `We refunded ${(order.total - 10).toFixed(2)} USD on your Lensmate order ${sn}`,
    ]) {
      expect(subjects.filter((mail) => mail.subject === subject)).toEqual([
        expect.objectContaining({ to: ADA.email, subject }),
      ]);
    }
    expect(
      notices
        .filter((notice) => (notice.payload as { orderId: number }).orderId === order.order_id)
        .map((notice) => [notice.to, notice.senderId, notice.type]),
    ).toEqual([
      [String(shipped.body.data.order.user_id), 'orders', 'order_shipped'],
      [String(shipped.body.data.order.user_id), 'orders', 'order_delivered'],
      [String(shipped.body.data.order.user_id), 'orders', 'order_partially_refunded'],
      [String(shipped.body.data.order.user_id), 'orders', 'order_refunded'],
    ]);

    // The shopper sees the same steps, without the staff member's address.
    const mine = (await s.call('POST', '/api/order/get_order_history', { order_id: order.order_id }, ada)).body.data;
    expect(mine.map((e: any) => e.kind)).toEqual(history.map((e: any) => e.kind));
    expect(mine.every((e: any) => e.actor_name === '')).toBe(true);
  });

  test('cancel: an unpaid order gives back its stock and coupon; a paid one is refunded in full; twice is once', async () => {
    const coupon = (await s.call('GET', '/api/config/get_coupons')).body.data.find(
      (c: any) => c.threshold <= stocked.final_price * 2,
    );
    const before = await stockNow();
    const order = await newOrder(coupon ? { coupon_code: coupon.code } : {});
    expect(await stockNow()).toBe(before - 2);
    const cancelled = await act('cancel', { order_id: order.order_id, note: 'asked by phone' });
    expect(cancelled.body.data.order.status).toBe('cancelled');
    expect(await stockNow()).toBe(before);
    expect((await act('cancel', { order_id: order.order_id })).body.data.order.status).toBe('cancelled');
    expect(await stockNow()).toBe(before);
    if (coupon) {
      const uses = await s.handle.db
        .selectFrom('coupon_uses')
        .selectAll()
        .where('order_id', '=', order.order_id)
        .execute();
      expect(uses).toEqual([]);
    }
    expect(
      (await act('ship', { order_id: order.order_id, carrier: 'DHL', tracking_no: 'LC2000000001' })).body.msg,
    ).toBe('order_id: the order is cancelled, it cannot be shipped');
    expect((await act('refund', { order_id: order.order_id, client_key: 'refund-cancel-1' })).body.msg).toBe(
      'order_id: the order is cancelled, there is nothing to refund',
    );
    const history = (await act('detail', { order_id: order.order_id })).body.data.history;
    expect(history).toEqual([expect.objectContaining({ kind: 'cancelled', actor: 'staff', note: 'asked by phone' })]);

    const paid = await paidOrder();
    const stockPaid = await stockNow();
    const back = await act('cancel', { order_id: paid.order_id });
    expect(back.body.data.order).toMatchObject({ status: 'cancelled', refunded: paid.total });
    expect(back.body.data.history.map((e: any) => e.kind)).toEqual(['paid', 'refunded', 'cancelled']);
    expect(await stockNow()).toBe(stockPaid + 2);
  });

  test('the old status route goes through the same steps', async () => {
    const paid = await paidOrder();
    const move = (status: string, extra: object = {}) =>
      s.call('POST', '/api/order/update_order_status', { order_id: paid.order_id, status, ...extra }, admin);
    expect((await move('delivered')).body.msg).toBe('status: an order that is paid cannot become delivered');
    expect((await move('shipped', { tracking_no: 'LC3000000001', carrier: 'UPS' })).body.data.status).toBe('shipped');
    expect((await move('shipped', { tracking_no: 'LC3000000001', carrier: 'UPS' })).body.data.status).toBe('shipped');
    const history = (await act('detail', { order_id: paid.order_id })).body.data.history;
    expect(history.map((e: any) => e.kind)).toEqual(['paid', 'shipped']);
  });

  test('wrong users: shoppers cannot make steps or read others’ orders', async () => {
    const paid = await paidOrder();
    for (const [step, body] of [
      ['list', {}],
      ['detail', { order_id: paid.order_id }],
      ['ship', { order_id: paid.order_id, carrier: 'DHL', tracking_no: 'LC4000000001' }],
      ['deliver', { order_id: paid.order_id }],
      ['cancel', { order_id: paid.order_id }],
      ['refund', { order_id: paid.order_id, client_key: 'refund-by-ada' }],
    ] as const) {
      expect((await act(step, body, ada)).body).toEqual({ status: 403, msg: 'Admin only', data: null });
      expect((await act(step, body, '')).body).toEqual({ status: 403, msg: 'Invalid token', data: null });
    }
    expect((await s.call('POST', '/api/order/get_order_history', { order_id: paid.order_id }, ben)).body).toEqual({
      status: 404,
      msg: 'order_id: no such order',
      data: null,
    });
    expect((await act('detail', { order_id: 999999 })).body.msg).toBe('order_id: no such order');
    // Nothing moved.
    expect((await act('detail', { order_id: paid.order_id })).body.data.order.status).toBe('paid');
  });

  test('tracking is bound to the order: its owner and staff read it, others get 404', async () => {
    const paid = await paidOrder();
    expect((await s.call('POST', '/api/order/get_order_tracking', { order_id: paid.order_id }, ada)).body.msg).toBe(
      'order_id: the order has not shipped yet',
    );
    await act('ship', { order_id: paid.order_id, carrier: 'Lensmate Post', tracking_no: 'LC5000000001' });
    const mine = await s.call('POST', '/api/order/get_order_tracking', { order_id: paid.order_id }, ada);
    expect(mine.body.data).toMatchObject({ tracking_no: 'LC5000000001', status: 'registered' });
    expect(mine.body.data.events[0].description).toBe('Shipping label created');
    expect(
      (await s.call('POST', '/api/order/get_order_tracking', { order_id: paid.order_id }, admin)).body.status,
    ).toBe(200);
    expect((await s.call('POST', '/api/order/get_order_tracking', { order_id: paid.order_id }, ben)).body.status).toBe(
      404,
    );
    expect(
      (await s.call('POST', '/api/track/one_seven_track_data', { tracking_no: 'LC5000000001' }, ben)).body.msg,
    ).toBe('tracking_no: no order of yours was shipped with this tracking number');
    expect(
      (await s.call('POST', '/api/track/one_seven_track_data', { tracking_no: 'LC5000000001' }, ada)).body.data
        .tracking_no,
    ).toBe('LC5000000001');
  });

  test('the admin list: filters by status and date, finds by order number and e-mail, pages', async () => {
    const first = await newOrder();
    const list = (body: object) => act('list', { page_size: 100, ...body });
    const all = (await list({})).body.data;
    expect(all.total).toBeGreaterThanOrEqual(1);
    expect(all.list[0].created_at).toBeGreaterThanOrEqual(all.list[all.list.length - 1].created_at);
    const created = (await list({ status: 'created' })).body.data.list;
    expect(created.length).toBeGreaterThan(0);
    expect(created.every((o: any) => o.status === 'created')).toBe(true);
    expect((await list({ status: 'lost' })).body.msg).toMatch(/^status: must be one of created, paid/);
    const bySn = (await list({ q: first.order_sn.toLowerCase() })).body.data;
    expect(bySn.list.map((o: any) => o.order_id)).toEqual([first.order_id]);
    const byEmail = (await list({ q: 'ADA@lensmate' })).body.data.list;
    expect(byEmail.length).toBeGreaterThan(0);
    expect(byEmail.every((o: any) => o.user_email === ADA.email)).toBe(true);
    expect((await list({ q: 'nobody-here@x' })).body.data.total).toBe(0);
    expect(
      (await list({ from: first.created_at + 1 })).body.data.list.some((o: any) => o.order_id === first.order_id),
    ).toBe(false);
    expect(
      (await list({ from: first.created_at, to: first.created_at + 1 })).body.data.list.map((o: any) => o.order_id),
    ).toContain(first.order_id);
    const paged = (await act('list', { page: 2, page_size: 1 })).body.data;
    expect(paged).toMatchObject({ page: 2, page_size: 1, total: all.total });
    expect(paged.list).toHaveLength(1);
    expect(paged.list[0].order_id).toBe(all.list[1].order_id);
  });
});

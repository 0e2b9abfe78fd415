import { WeChatFake, newWeChatKeys } from '../../server/sandbox/wechat';
import { WechatPayFake, newWechatPayKeys } from '../../server/sandbox/wechatpay';
import { createPaymentProviders } from '../../server/services/payments';
import { RefundRefused } from '../../server/services/refund-gateway';
import { PAYMENT_MESSAGES } from '../../types/constants';
import { ADA, BEN, type TestServer, startServer } from './helpers';

jest.setTimeout(120_000);

const ADDRESS = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  phone: '+44 20 7946 0000',
  country_code: 'gb',
  city: 'London',
  street: '12 Baker St',
  zip: 'NW1 6XE',
};

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A signature with its first character changed (always changed: a base64 signature may start with any of them). */
const tampered = (sign: string) => `${sign.startsWith('A') ? 'B' : 'A'}${sign.slice(1)}`;

describe('WeChat Pay (API v3, mini-program JSAPI) through wechatpay-axios-plugin against a local fake', () => {
  const weappKeys = newWeChatKeys();
  const wechat = new WeChatFake(weappKeys);
  const pay = new WechatPayFake(newWechatPayKeys(weappKeys.appid));
  const payer = { appid: weappKeys.appid, openid: WeChatFake.newOpenid() };
  let s: TestServer;
  let ada: string;
  let ben: string;
  let goods: any;
  let addressId: number;
  let orders = 0;

  beforeAll(async () => {
    await Promise.all([wechat.start(), pay.start()]);
    // The notify URL is known once the shop listens: the fake is told it below, before any payment.
    s = await startServer('sqlite', {
      WEAPP_APPID: weappKeys.appid,
      WEAPP_SECRET: weappKeys.secret,
      WEAPP_API_BASE: wechat.origin,
      ...pay.env('http://127.0.0.1:1/api/payment/webhook/wechat'),
    });
    pay.webhooks.endpoint = `${s.base}/api/payment/webhook/wechat`;
    [ada, ben] = await Promise.all([s.login(ADA.email, ADA.password), s.login(BEN.email, BEN.password)]);
    const page = (await s.call('POST', '/api/goods/get_goods_page', { page_size: 100 })).body.data.list;
    goods = page.find((g: any) => g.color_arr[0].stock === null);
    addressId = (await s.call('POST', '/api/user/set_user_address', ADDRESS, ada)).body.data.address_id;
  });
  afterAll(async () => {
    await pay.webhooks.settled();
    await s?.close();
    await Promise.all([wechat.close(), pay.close()]);
  });

  afterEach(async () => {
    await pay.webhooks.release();
    await pay.webhooks.settled();
  });

  async function newOrder(): Promise<any> {
    orders += 1;
    const lines = [{ goods_id: goods.goods_id, color_id: goods.color_arr[0].color_id, quantity: 1 }];
    const { body } = await s.call(
      'POST',
      '/api/order/submit_order',
      { client_key: `wx-${orders}-${Date.now()}`, address_id: addressId, shipping_method_id: 1, lines },
      ada,
    );
    expect(body.status).toBe(200);
    return body.data;
  }

  const prepay = (orderId: number, token = ada, code = wechat.issueCode(payer)) =>
    s.call('POST', '/api/payment/wechat/prepay', { order_id: orderId, code }, token);
  const sheetOf = (data: any) => ({
    timeStamp: data.time_stamp,
    nonceStr: data.nonce_str,
    package: data.package,
    signType: data.sign_type,
    paySign: data.pay_sign,
  });
  const orderStatus = async (id: number) =>
    (await s.handle.db.selectFrom('orders').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  test('WeChat Pay is offered, in test mode against the fake', async () => {
    const { body } = await s.call('GET', '/api/payment/methods');
    expect(body.data.methods).toContainEqual({
      id: 'wechat',
      provider: 'wechat',
      test_mode: true,
      client_id: '',
      sdk_url: '',
    });
  });

  test('prepay for the payer of the code, the sheet signed by the merchant; paid, the notification marks the order paid once', async () => {
    const order = await newOrder();
    pay.webhooks.hold();
    const { body } = await prepay(order.order_id);
    expect(body.status).toBe(200);
    expect(body.data).toMatchObject({ sign_type: 'RSA', amount: order.total, currency: 'USD', test_mode: true });
    expect(body.data.package).toMatch(/^prepay_id=wx/);
    const transaction = [...pay.transactions.values()].find((t) => `prepay_id=${t.prepayId}` === body.data.package);
    expect(transaction).toMatchObject({ openid: payer.openid, total: Math.round(order.total * 100), currency: 'USD' });

    // Before paying, the server does not take the sheet's word: not paid.
    const early = await s.call('POST', '/api/payment/wechat/confirm', { order_id: order.order_id }, ada);
    expect(early.body).toEqual({ status: 409, msg: PAYMENT_MESSAGES.wechatNotPaid, data: null });

    // Another WeChat user cannot pay someone else's sheet; a tampered sign is refused by the sheet.
    expect(pay.pay(sheetOf(body.data), { ...payer, openid: WeChatFake.newOpenid() })).toBe('fail');
    expect(pay.pay({ ...sheetOf(body.data), paySign: tampered(sheetOf(body.data).paySign) }, payer)).toBe('fail');
    expect(pay.pay(sheetOf(body.data), payer)).toBe('paid');
    const [notification] = pay.webhooks.drop();
    expect(await orderStatus(order.order_id)).toBe('created');

    // The notification alone (the page closed) pays the order; a replay changes nothing.
    expect(await pay.webhooks.deliver(notification)).toBe(200);
    expect(await orderStatus(order.order_id)).toBe('paid');
    expect(await pay.webhooks.deliver(notification)).toBe(200);
    const events = await s.handle.db
      .selectFrom('payment_events')
      .selectAll()
      .where('provider', '=', 'wechat')
      .execute();
    expect(events.filter((event) => event.event_id === notification.id)).toHaveLength(1);
    const confirmed = await s.call('POST', '/api/payment/wechat/confirm', { order_id: order.order_id }, ada);
    expect(confirmed.body.data.status).toBe('paid');
  });

  test('the page confirms by reading the transaction back, when the notification has not come yet', async () => {
    const order = await newOrder();
    pay.webhooks.hold();
    const { body } = await prepay(order.order_id);
    expect(pay.pay(sheetOf(body.data), payer)).toBe('paid');
    const confirmed = await s.call('POST', '/api/payment/wechat/confirm', { order_id: order.order_id }, ada);
    expect(confirmed.body.data.status).toBe('paid');
    await pay.webhooks.release();
    await pay.webhooks.settled();
    expect(await orderStatus(order.order_id)).toBe('paid');
  });

  test('forged and altered notifications are refused with nothing changed', async () => {
    const order = await newOrder();
    pay.webhooks.hold();
    const { body } = await prepay(order.order_id);
    expect(pay.pay(sheetOf(body.data), payer)).toBe('paid');
    const [real] = pay.webhooks.drop();
    const altered = { ...real, body: real.body.replace('"TRANSACTION.SUCCESS"', '"TRANSACTION.SUCCESS" ') };
    expect(await pay.webhooks.deliver({ ...altered, answers: [] })).toBe(400);
    const wrongKey = { ...real, headers: { ...real.headers, 'Wechatpay-Serial': 'PUB_KEY_ID_OTHER' }, answers: [] };
    expect(await pay.webhooks.deliver(wrongKey)).toBe(400);
    const stale = { ...real, headers: { ...real.headers, 'Wechatpay-Timestamp': '1600000000' }, answers: [] };
    expect(await pay.webhooks.deliver(stale)).toBe(400);
    const unsigned = await fetch(`${s.base}/api/payment/webhook/wechat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: real.body,
    });
    expect(unsigned.status).toBe(400);
    expect(await orderStatus(order.order_id)).toBe('created');
    expect(await pay.webhooks.deliver({ ...real, answers: [] })).toBe(200);
    expect(await orderStatus(order.order_id)).toBe('paid');
  });

  test('refusals: a made-up code, another shopper’s order, a paid order, and WeChat Pay unconfigured', async () => {
    const order = await newOrder();
    expect((await prepay(order.order_id, ada, 'madeUpCode1')).body.msg).toBe(
      'code: the WeChat login has expired, please try again',
    );
    expect((await prepay(order.order_id, ben)).body).toEqual({
      status: 404,
      msg: 'order_id: no such order',
      data: null,
    });
    expect(
      (await s.call('POST', '/api/payment/wechat/prepay', { order_id: order.order_id, code: '../x' }, ada)).body.msg,
    ).toBe('code: is not a wx.login code');
    pay.webhooks.hold();
    const { body } = await prepay(order.order_id);
    pay.pay(sheetOf(body.data), payer);
    await s.call('POST', '/api/payment/wechat/confirm', { order_id: order.order_id }, ada);
    expect((await prepay(order.order_id)).body.status).toBe(409);
    pay.webhooks.drop();

    const plain = await startServer('sqlite');
    try {
      const token = await plain.login(ADA.email, ADA.password);
      const answer = await plain.call('POST', '/api/payment/wechat/prepay', { order_id: 1, code: 'abc' }, token);
      expect(answer.body).toEqual({ status: 404, msg: 'WeChat Pay is not configured on this server', data: null });
      const methods = (await plain.call('GET', '/api/payment/methods')).body.data.methods;
      expect(methods.map((method: any) => method.id)).not.toContain('wechat');
    } finally {
      await plain.close();
    }
  });

  test('refunds through the RefundGateway: part, then the rest, settled by WeChat Pay’s REFUND.SUCCESS; never more than paid', async () => {
    const order = await newOrder();
    const { body } = await prepay(order.order_id);
    pay.pay(sheetOf(body.data), payer);
    await until('the order paid', async () => (await orderStatus(order.order_id)) === 'paid');
    const payment = await s.handle.db
      .selectFrom('payments')
      .selectAll()
      .where('order_id', '=', order.order_id)
      .where('status', '=', 'succeeded')
      .executeTakeFirstOrThrow();
    const gateway = createPaymentProviders(s.config, s.handle.db, Date.now).refunds;
    const total = payment.amount_cents;
    const base = {
      orderId: order.order_id,
      orderSn: order.order_sn,
      provider: 'wechat' as const,
      providerRef: payment.reference,
      paymentAmountCents: total,
      currency: 'USD',
    };
    const first = await gateway.refund({ ...base, amountCents: 500, idempotencyKey: `wx-1-${order.order_id}` });
    expect(first.status).toBe('pending');
    expect(await gateway.refund({ ...base, amountCents: 500, idempotencyKey: `wx-1-${order.order_id}` })).toEqual(
      first,
    );
    await gateway.refund({ ...base, amountCents: total - 500, idempotencyKey: `wx-2-${order.order_id}` });
    await expect(gateway.refund({ ...base, amountCents: 1, idempotencyKey: `wx-3-${order.order_id}` })).rejects.toThrow(
      RefundRefused,
    );
    const refunds = () =>
      s.handle.db
        .selectFrom('refunds')
        .select(['amount_cents', 'status'])
        .where('order_id', '=', order.order_id)
        .execute();
    await until('both refunds settled', async () => (await refunds()).every((refund) => refund.status === 'succeeded'));
    expect((await refunds()).map((refund) => refund.amount_cents)).toEqual([500, total - 500]);
    const transaction = pay.transactions.get(payment.reference);
    expect(transaction?.refunded).toBe(total);
    expect(pay.refusedSignatures).toEqual([]);
  });
});

import { type ProviderFakes, startProviderFakes } from '../../server/sandbox';
import { AUTHENTICATION_FAILED } from '../../server/sandbox/stripe';
import { createPaymentProviders } from '../../server/services/payments';
import { RefundRefused } from '../../server/services/refund-gateway';
import { PAYMENT_MESSAGES } from '../../types/constants';
import { ADA, BEN, type TestServer, engines, startServer } from './helpers';
import { braintreeNonce, paypalApprove, stripeChallenge, stripeConfirm, until } from './payment-fakes';

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

describe.each(engines)('payments through the providers’ SDKs against their local fakes, on %s', (engine) => {
  let s: TestServer;
  let fakes: ProviderFakes;
  let ada: string;
  let ben: string;
  let goods: any;
  let addressId: number;
  let orders = 0;

  beforeAll(async () => {
    fakes = await startProviderFakes();
    s = await startServer(engine, fakes.env);
    fakes.connect(s.base);
    [ada, ben] = await Promise.all([s.login(ADA.email, ADA.password), s.login(BEN.email, BEN.password)]);
    const page = (await s.call('POST', '/api/goods/get_goods_page', { page_size: 100 })).body.data.list;
    goods = page.find((g: any) => g.color_arr[0].stock === null);
    addressId = (await s.call('POST', '/api/user/set_user_address', ADDRESS, ada)).body.data.address_id;
  });
  afterAll(async () => {
    await fakes?.close();
    await s?.close();
  });
  afterEach(async () => {
    await fakes.stripe.webhooks.release();
    await fakes.paypal.webhooks.release();
    await fakes.braintree.webhooks.release();
    fakes.braintree.settleOnSale = false;
    await Promise.all([
      fakes.stripe.webhooks.settled(),
      fakes.paypal.webhooks.settled(),
      fakes.braintree.webhooks.settled(),
    ]);
  });

  async function newOrder(): Promise<any> {
    orders += 1;
    const lines = [{ goods_id: goods.goods_id, color_id: goods.color_arr[0].color_id, quantity: 1 }];
    const { body } = await s.call(
      'POST',
      '/api/order/submit_order',
      { client_key: `pay-${engine}-${orders}-${Date.now()}`, address_id: addressId, shipping_method_id: 1, lines },
      ada,
    );
    expect(body.status).toBe(200);
    return body.data;
  }

  const orderRow = (id: number) =>
    s.handle.db.selectFrom('orders').select(['status', 'paid_at']).where('id', '=', id).executeTakeFirstOrThrow();
  const paymentRows = (id: number) =>
    s.handle.db.selectFrom('payments').selectAll().where('order_id', '=', id).orderBy('id').execute();
  const cents = (amount: number) => Math.round(amount * 100);

  test('the methods offered are the configured providers, in test mode', async () => {
    const { body } = await s.call('GET', '/api/payment/methods');
    expect(body.data).toEqual({
      methods: [
        { id: 'card', provider: 'stripe', test_mode: true, client_id: '', sdk_url: '' },
        {
          id: 'paypal',
          provider: 'paypal',
          test_mode: true,
          client_id: fakes.paypal.keys.clientId,
          sdk_url: fakes.env.PAYPAL_SDK_URL,
        },
        { id: 'braintree', provider: 'braintree', test_mode: true, client_id: '', sdk_url: '' },
        // The mini-program's (the payment page shows each method on the platforms that can host it).
        { id: 'wechat', provider: 'wechat', test_mode: true, client_id: '', sdk_url: '' },
      ],
      test_mode: true,
    });
  });

  test('the site’s CSP allows exactly the configured SDKs’ origins, and none without them', async () => {
    const policy = String(
      (await s.app.inject({ method: 'GET', url: '/api/payment/methods' })).headers['content-security-policy'],
    );
    const directive = (name: string) => policy.split(/;\s*/).find((part) => part.startsWith(`${name} `)) ?? '';
    for (const origin of [fakes.stripe.origin, fakes.paypal.origin, fakes.braintree.origin]) {
      for (const name of ['script-src', 'frame-src', 'connect-src'])
        expect(directive(name).split(' ')).toContain(origin);
    }
    expect(policy).not.toMatch(/unsafe-eval|\*\.|https:\/\/js\.stripe\.com/);
    const bare = await startServer(engine);
    try {
      const plain = String(
        (await bare.app.inject({ method: 'GET', url: '/api/payment/methods' })).headers['content-security-policy'],
      );
      expect(plain).not.toContain('127.0.0.1');
      const live = await startServer(engine, {
        STRIPE_SECRET_KEY: 'sk_live_1',
        STRIPE_PUBLISHABLE_KEY: 'pk_live_1',
      });
      try {
        const withStripe = String(
          (await live.app.inject({ method: 'GET', url: '/api/payment/methods' })).headers['content-security-policy'],
        );
        expect(withStripe).toContain('script-src');
        expect(withStripe).toMatch(/script-src [^;]*https:\/\/js\.stripe\.com/);
        expect(withStripe).toMatch(/connect-src [^;]*https:\/\/api\.stripe\.com/);
        expect(withStripe).not.toContain('paypal');
      } finally {
        await live.close();
      }
    } finally {
      await bare.close();
    }
  });

  describe('card (Stripe PaymentIntents, Payment Element)', () => {
    test('success, the webhook arriving before the shopper’s browser returns', async () => {
      const order = await newOrder();
      const secret = (await s.call('POST', '/api/payment/get_secret_for_stripe', { order_id: order.order_id }, ada))
        .body.data;
      expect(secret).toMatchObject({
        amount: order.total,
        currency: 'USD',
        publishable_key: fakes.stripe.keys.publishableKey,
        js_url: fakes.env.STRIPE_JS_URL,
        test_mode: true,
      });
      const intent = fakes.stripe.intents.get(secret.payment_intent_id);
      expect(intent).toMatchObject({ amount: cents(order.total), currency: 'usd' });
      expect(intent?.metadata.order_id).toBe(String(order.order_id));
      expect((await stripeConfirm(fakes, secret.client_secret, '4242424242424242')).body.status).toBe('succeeded');
      await fakes.stripe.webhooks.settled();
      expect((await orderRow(order.order_id)).status).toBe('paid');
      const answer = await s.call('POST', '/api/payment/confirm_stripe', { order_id: order.order_id }, ada);
      expect(answer.body.data).toMatchObject({ status: 'paid', paid_at: expect.any(Number) });
    });

    test('success, the webhook arriving after the browser returned: applied once, nothing changes', async () => {
      const order = await newOrder();
      fakes.stripe.webhooks.hold();
      const secret = (await s.call('POST', '/api/payment/get_secret_for_stripe', { order_id: order.order_id }, ada))
        .body.data;
      await stripeConfirm(fakes, secret.client_secret, '5555555555554444');
      const paid = (await s.call('POST', '/api/payment/confirm_stripe', { order_id: order.order_id }, ada)).body.data;
      expect(paid.status).toBe('paid');
      const before = await orderRow(order.order_id);
      await fakes.stripe.webhooks.release();
      expect(await orderRow(order.order_id)).toEqual(before);
      expect((await paymentRows(order.order_id)).map((row) => row.status)).toEqual(['succeeded']);
    });

    test('a decline leaves the order unpaid with the bank’s reason; the same intent then pays with another card', async () => {
      const order = await newOrder();
      const secret = (await s.call('POST', '/api/payment/get_secret_for_stripe', { order_id: order.order_id }, ada))
        .body.data;
      const declined = await stripeConfirm(fakes, secret.client_secret, '4000000000000002');
      expect(declined).toMatchObject({
        http: 402,
        body: { error: { code: 'card_declined', message: 'Your card was declined.' } },
      });
      const answer = await s.call('POST', '/api/payment/confirm_stripe', { order_id: order.order_id }, ada);
      expect(answer.body).toMatchObject({ status: 400, msg: 'order_id: Your card was declined.' });
      expect((await orderRow(order.order_id)).status).toBe('created');
      const again = (await s.call('POST', '/api/payment/get_secret_for_stripe', { order_id: order.order_id }, ada)).body
        .data;
      expect(again.payment_intent_id).toBe(secret.payment_intent_id);
      await stripeConfirm(fakes, again.client_secret, '4242424242424242');
      expect(
        (await s.call('POST', '/api/payment/confirm_stripe', { order_id: order.order_id }, ada)).body.data.status,
      ).toBe('paid');
    });

    test('authentication required: unpaid until the 3-D Secure challenge completes; a failed one declines', async () => {
      const order = await newOrder();
      const secret = (await s.call('POST', '/api/payment/get_secret_for_stripe', { order_id: order.order_id }, ada))
        .body.data;
      const confirmed = await stripeConfirm(fakes, secret.client_secret, '4000002500003155');
      expect(confirmed.body).toMatchObject({ status: 'requires_action', next_action: { type: 'use_stripe_sdk' } });
      expect(
        (await s.call('POST', '/api/payment/confirm_stripe', { order_id: order.order_id }, ada)).body,
      ).toMatchObject({
        status: 409,
        msg: PAYMENT_MESSAGES.cardNeedsAuthentication,
      });
      await stripeChallenge(fakes, secret.payment_intent_id, 'fail');
      expect((await s.call('POST', '/api/payment/confirm_stripe', { order_id: order.order_id }, ada)).body.msg).toBe(
        `order_id: ${AUTHENTICATION_FAILED}`,
      );
      await stripeConfirm(fakes, secret.client_secret, '4000002760003184');
      await stripeChallenge(fakes, secret.payment_intent_id, 'complete');
      expect(
        (await s.call('POST', '/api/payment/confirm_stripe', { order_id: order.order_id }, ada)).body.data.status,
      ).toBe('paid');
    });

    test('the browser never returns: the webhook alone marks the order paid', async () => {
      const order = await newOrder();
      const secret = (await s.call('POST', '/api/payment/get_secret_for_stripe', { order_id: order.order_id }, ada))
        .body.data;
      await stripeConfirm(fakes, secret.client_secret, '4242424242424242');
      await until(
        () => orderRow(order.order_id),
        (row) => row.status === 'paid',
      );
    });

    test('a replayed webhook changes nothing; a forged or tampered one is refused with nothing changed', async () => {
      const order = await newOrder();
      fakes.stripe.webhooks.hold();
      const secret = (await s.call('POST', '/api/payment/get_secret_for_stripe', { order_id: order.order_id }, ada))
        .body.data;
      await stripeConfirm(fakes, secret.client_secret, '4242424242424242');
      const succeeded = fakes.stripe.webhooks.drop().find((hook) => hook.type === 'payment_intent.succeeded');
      if (!succeeded) throw new Error('no payment_intent.succeeded event');

      // Forged: the right event, signed with another secret; then a genuine signature over other bytes.
      const forged = {
        ...succeeded,
        headers: {
          ...succeeded.headers,
          'stripe-signature': fakes.stripe.sign(succeeded.body, undefined, 'whsec_attacker'),
        },
        answers: [],
      };
      expect(await fakes.stripe.webhooks.deliver(forged)).toBe(400);
      const tampered = {
        ...succeeded,
        body: succeeded.body.replace('"livemode":false', '"livemode":true'),
        answers: [],
      };
      expect(await fakes.stripe.webhooks.deliver(tampered)).toBe(400);
      const unsigned = { ...succeeded, headers: { 'content-type': 'application/json' }, answers: [] };
      expect(await fakes.stripe.webhooks.deliver(unsigned)).toBe(400);
      expect((await orderRow(order.order_id)).status).toBe('created');
      expect(
        await s.handle.db.selectFrom('payment_events').selectAll().where('event_id', '=', succeeded.id).execute(),
      ).toEqual([]);

      expect(await fakes.stripe.webhooks.deliver(succeeded)).toBe(200);
      const paid = await orderRow(order.order_id);
      expect(paid.status).toBe('paid');
      expect(await fakes.stripe.webhooks.deliver(succeeded)).toBe(200);
      const replay = await s.call('POST', '/api/payment/webhook/stripe', undefined);
      expect(replay.http).toBe(400);
      expect(await orderRow(order.order_id)).toEqual(paid);
      expect((await paymentRows(order.order_id)).length).toBe(1);
    });

    test('an amount tampered on the client: the intent is the order’s total, and a cheaper payment never pays it', async () => {
      const order = await newOrder();
      const secret = (
        await s.call('POST', '/api/payment/get_secret_for_stripe', { order_id: order.order_id, amount: 0.5 }, ada)
      ).body.data;
      expect(secret.amount).toBe(order.total);
      // A PaymentIntent for $1 carrying this order's id (as if the amount were changed on its way): paid at Stripe…
      const cheap = await fakes.stripe.server;
      expect(cheap).toBeDefined();
      const response = await fetch(`${fakes.stripe.origin}/v1/payment_intents`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fakes.stripe.keys.secretKey}` },
        body: new URLSearchParams({ amount: '100', currency: 'usd', 'metadata[order_id]': String(order.order_id) }),
      });
      const intent = (await response.json()) as any;
      await stripeConfirm(fakes, intent.client_secret, '4242424242424242');
      await fakes.stripe.webhooks.settled();
      // …recorded, and the order stays unpaid.
      expect((await orderRow(order.order_id)).status).toBe('created');
      expect((await paymentRows(order.order_id)).find((row) => row.reference === intent.id)).toMatchObject({
        status: 'succeeded',
        amount_cents: 100,
      });
      expect(
        (await s.call('POST', '/api/payment/get_secret_for_stripe', { order_id: order.order_id }, ben)).body.status,
      ).toBe(404);
    });
  });

  describe('PayPal (Orders v2, JS SDK buttons)', () => {
    async function created(order: any) {
      const { body } = await s.call('POST', '/api/paypal/create_order', { order_id: order.order_id }, ada);
      expect(body.status).toBe(200);
      return body.data;
    }
    const capture = (order: any, paypalOrderId: string, token = ada) =>
      s.call('POST', '/api/paypal/capture_order', { order_id: order.order_id, paypal_order_id: paypalOrderId }, token);

    test('success, the buyer’s approval reaching the server by webhook before the buttons capture', async () => {
      const order = await newOrder();
      const paypal = await created(order);
      expect(paypal).toMatchObject({
        client_id: fakes.paypal.keys.clientId,
        sdk_url: fakes.env.PAYPAL_SDK_URL,
        currency: 'USD',
        test_mode: true,
      });
      expect(fakes.paypal.orders.get(paypal.paypal_order_id)?.purchase_units[0].amount.value).toBe(
        order.total.toFixed(2),
      );
      expect(await paypalApprove(fakes, paypal.paypal_order_id)).toBe(200);
      await until(
        () => orderRow(order.order_id),
        (row) => row.status === 'paid',
      );
      expect((await capture(order, paypal.paypal_order_id)).body.data.status).toBe('paid');
      expect(fakes.paypal.verifications).toContain('SUCCESS');
    });

    test('success, the webhooks arriving after the capture: applied once, nothing changes', async () => {
      const order = await newOrder();
      fakes.paypal.webhooks.hold();
      const paypal = await created(order);
      expect((await capture(order, paypal.paypal_order_id)).body).toMatchObject({
        status: 409,
        msg: PAYMENT_MESSAGES.paypalNotApproved,
      });
      await paypalApprove(fakes, paypal.paypal_order_id);
      expect((await capture(order, paypal.paypal_order_id)).body.data.status).toBe('paid');
      const before = await orderRow(order.order_id);
      await fakes.paypal.webhooks.release();
      expect(await orderRow(order.order_id)).toEqual(before);
      expect([...fakes.paypal.captures.values()].filter((c) => c.orderId === paypal.paypal_order_id)).toHaveLength(1);
    });

    test('a declined funding source and a verification: unpaid until the buyer approves again', async () => {
      fakes.paypal.webhooks.hold();
      const order = await newOrder();
      const paypal = await created(order);
      await paypalApprove(fakes, paypal.paypal_order_id, 'declined_card');
      expect((await capture(order, paypal.paypal_order_id)).body).toMatchObject({
        status: 400,
        msg: PAYMENT_MESSAGES.paypalDeclined,
      });
      expect((await orderRow(order.order_id)).status).toBe('created');
      await paypalApprove(fakes, paypal.paypal_order_id, 'verification_card');
      expect((await capture(order, paypal.paypal_order_id)).body).toMatchObject({
        status: 409,
        msg: PAYMENT_MESSAGES.paypalVerify,
      });
      expect((await orderRow(order.order_id)).status).toBe('created');
      await paypalApprove(fakes, paypal.paypal_order_id, 'verified');
      expect((await capture(order, paypal.paypal_order_id)).body.data.status).toBe('paid');
    });

    test('the buttons never capture: PayPal’s approval webhook has the server capture and the order is paid', async () => {
      const order = await newOrder();
      const paypal = await created(order);
      await paypalApprove(fakes, paypal.paypal_order_id);
      await until(
        () => orderRow(order.order_id),
        (row) => row.status === 'paid',
      );
      expect(fakes.paypal.orders.get(paypal.paypal_order_id)?.status).toBe('COMPLETED');
    });

    test('a replayed event changes nothing; a forged one is refused with nothing changed', async () => {
      const order = await newOrder();
      fakes.paypal.webhooks.hold();
      const paypal = await created(order);
      await paypalApprove(fakes, paypal.paypal_order_id);
      const approved = fakes.paypal.webhooks.drop().find((hook) => hook.type === 'CHECKOUT.ORDER.APPROVED');
      if (!approved) throw new Error('no approval event');
      const forgedHeaders = { ...approved.headers, ...fakes.paypal.signatureHeaders(approved.body, 'WH-ANOTHER-HOOK') };
      expect(await fakes.paypal.webhooks.deliver({ ...approved, headers: forgedHeaders, answers: [] })).toBe(400);
      const tampered = approved.body.replace('"event_version":"1.0"', '"event_version":"1.1"');
      expect(tampered).not.toBe(approved.body);
      expect(await fakes.paypal.webhooks.deliver({ ...approved, body: tampered, answers: [] })).toBe(400);
      expect(
        await fakes.paypal.webhooks.deliver({
          ...approved,
          headers: { 'content-type': 'application/json' },
          answers: [],
        }),
      ).toBe(400);
      expect((await orderRow(order.order_id)).status).toBe('created');
      expect(fakes.paypal.orders.get(paypal.paypal_order_id)?.status).toBe('APPROVED');

      expect(await fakes.paypal.webhooks.deliver(approved)).toBe(200);
      const paid = await orderRow(order.order_id);
      expect(paid.status).toBe('paid');
      expect(await fakes.paypal.webhooks.deliver(approved)).toBe(200);
      expect(await orderRow(order.order_id)).toEqual(paid);
    });

    test('an amount tampered on the client: a cheaper PayPal order is not this order’s and never pays it', async () => {
      const order = await newOrder();
      const cheap = fakes.paypal.createOrderDirect({
        reference_id: order.order_sn,
        custom_id: String(order.order_id),
        amount: { currency_code: 'USD', value: '1.00' },
      });
      await paypalApprove(fakes, cheap.id);
      expect((await capture(order, cheap.id)).body).toMatchObject({
        status: 404,
        msg: 'paypal_order_id: not a PayPal order of this order',
      });
      // PayPal completes it anyway (captured by whoever made it): its webhook is recorded, the order stays unpaid.
      const token = await fetch(`${fakes.paypal.origin}/v1/oauth2/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${fakes.paypal.keys.clientId}:${fakes.paypal.keys.clientSecret}`).toString('base64')}`,
        },
        body: 'grant_type=client_credentials',
      }).then((r) => r.json() as Promise<any>);
      await fetch(`${fakes.paypal.origin}/v2/checkout/orders/${cheap.id}/capture`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      await fakes.paypal.webhooks.settled();
      expect((await orderRow(order.order_id)).status).toBe('created');
      expect((await paymentRows(order.order_id)).find((row) => row.reference === cheap.id)).toMatchObject({
        amount_cents: 100,
      });
      expect((await s.call('POST', '/api/paypal/create_order', { order_id: order.order_id }, ben)).body.status).toBe(
        404,
      );
    });
  });

  describe('Braintree (drop-in nonce, gateway sale)', () => {
    const token = async () =>
      (await s.call('GET', '/api/payment/get_paypal_braintree_accesstoken', undefined, ada)).body.data;
    const checkout = (order: any, nonce: string, extra: object = {}) =>
      s.call(
        'POST',
        '/api/payment/paypal_braintree_checkout',
        { order_id: order.order_id, payment_method_nonce: nonce, ...extra },
        ada,
      );

    test('success, the settlement webhook arriving before the sale answers', async () => {
      const order = await newOrder();
      const bt = await token();
      expect(bt).toMatchObject({ dropin_url: fakes.env.BRAINTREE_DROPIN_URL, test_mode: true });
      fakes.braintree.settleOnSale = true;
      const answer = await checkout(order, await braintreeNonce(bt.client_token, '4111111111111111'));
      expect(answer.body.data.status).toBe('paid');
      const [row] = await paymentRows(order.order_id);
      expect(fakes.braintree.transactions.get(row.reference)).toMatchObject({
        status: 'settled',
        amount: order.total.toFixed(2),
        orderId: order.order_sn,
      });
      expect(fakes.braintree.webhooks.sent.map((hook) => hook.answers)).toContainEqual([200]);
    });

    test('success, then the settlement webhook later: nothing changes; a replay neither', async () => {
      const order = await newOrder();
      const answer = await checkout(order, await braintreeNonce((await token()).client_token, '4111111111111111'));
      expect(answer.body.data.status).toBe('paid');
      const before = await orderRow(order.order_id);
      const [row] = await paymentRows(order.order_id);
      fakes.braintree.settle(row.reference);
      await fakes.braintree.webhooks.settled();
      const settled = fakes.braintree.webhooks.sent.at(-1);
      if (!settled) throw new Error('no notification');
      expect(settled.answers).toEqual([200]);
      expect(await fakes.braintree.webhooks.deliver(settled)).toBe(200);
      expect(await orderRow(order.order_id)).toEqual(before);
      expect((await paymentRows(order.order_id)).length).toBe(1);
    });

    test('a processor decline, and 3-D Secure required: unpaid until an authenticated card', async () => {
      const order = await newOrder();
      const declined = await checkout(order, await braintreeNonce((await token()).client_token, '4000111111111115'));
      expect(declined.body).toMatchObject({
        status: 400,
        msg: 'payment_method_nonce: the card was declined (Do Not Honor)',
      });
      const unauthenticated = await checkout(
        order,
        await braintreeNonce((await token()).client_token, '4000000000001091', 'skip'),
      );
      expect(unauthenticated.body).toMatchObject({ status: 400, msg: PAYMENT_MESSAGES.braintreeNeedsAuthentication });
      const plain = await checkout(order, 'fake-valid-nonce');
      expect(plain.body.msg).toBe(PAYMENT_MESSAGES.braintreeNeedsAuthentication);
      expect((await orderRow(order.order_id)).status).toBe('created');
      const used = await braintreeNonce((await token()).client_token, '4000000000001091', 'complete');
      expect((await checkout(order, used)).body.data.status).toBe('paid');
      expect((await paymentRows(order.order_id)).map((row) => row.status)).toEqual([
        'declined',
        'declined',
        'declined',
        'succeeded',
      ]);
    });

    test('the browser leaves before the answer: the sale completes and the order is paid; a used nonce is refused', async () => {
      const order = await newOrder();
      const nonce = await braintreeNonce((await token()).client_token, '4111111111111111');
      fakes.braintree.saleDelayMs = 300;
      const asked = fakes.braintree.salesAsked;
      const leaving = new AbortController();
      const request = fetch(`${s.base}/api/payment/paypal_braintree_checkout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'lensmate-token': ada },
        body: JSON.stringify({ order_id: order.order_id, payment_method_nonce: nonce }),
        signal: leaving.signal,
      }).catch(() => null);
      // The shopper closes the page while Braintree is still answering the sale.
      await until(
        async () => fakes.braintree.salesAsked,
        (count) => count > asked,
      );
      leaving.abort();
      await request;
      fakes.braintree.saleDelayMs = 0;
      await until(
        () => orderRow(order.order_id),
        (row) => row.status === 'paid',
      );
      const second = await newOrder();
      expect((await checkout(second, nonce)).body).toMatchObject({
        status: 400,
        msg: 'payment_method_nonce: Cannot use a payment_method_nonce more than once.',
      });
    });

    test('a forged notification is refused with nothing changed', async () => {
      const order = await newOrder();
      fakes.braintree.settleOnSale = false;
      await checkout(order, await braintreeNonce((await token()).client_token, '4111111111111111'));
      const [row] = await paymentRows(order.order_id);
      fakes.braintree.webhooks.hold();
      fakes.braintree.settle(row.reference);
      const [genuine] = fakes.braintree.webhooks.drop();
      const fields = new URLSearchParams(genuine.body);
      const payload = fields.get('bt_payload') as string;
      const forged = new URLSearchParams({
        bt_signature: fakes.braintree.sign(payload, 'not-the-private-key'),
        bt_payload: payload,
      });
      expect(await fakes.braintree.webhooks.deliver({ ...genuine, body: forged.toString(), answers: [] })).toBe(400);
      expect(
        await s.handle.db
          .selectFrom('payment_events')
          .selectAll()
          .where('provider', '=', 'braintree')
          .where('event_id', '=', `transaction_settled:${row.reference}`)
          .execute(),
      ).toEqual([]);
      expect(await fakes.braintree.webhooks.deliver(genuine)).toBe(200);
    });

    test('an amount tampered on the client is ignored: the sale is for the order’s total', async () => {
      const order = await newOrder();
      const nonce = await braintreeNonce((await token()).client_token, '4111111111111111');
      expect((await checkout(order, nonce, { amount: 0.01 })).body.data.status).toBe('paid');
      const [row] = await paymentRows(order.order_id);
      expect(fakes.braintree.transactions.get(row.reference)?.amount).toBe(order.total.toFixed(2));
    });
  });

  describe('refunds through each provider, full and partial, recorded on the order', () => {
    const gateway = () => createPaymentProviders(s.config, s.handle.db, Date.now).refunds;
    const refunds = (orderId: number) =>
      s.handle.db.selectFrom('refunds').selectAll().where('order_id', '=', orderId).orderBy('id').execute();

    test('card: a partial refund, a retry of it, the rest, and more than is left refused', async () => {
      const order = await newOrder();
      const secret = (await s.call('POST', '/api/payment/get_secret_for_stripe', { order_id: order.order_id }, ada))
        .body.data;
      await stripeConfirm(fakes, secret.client_secret, '4242424242424242');
      await s.call('POST', '/api/payment/confirm_stripe', { order_id: order.order_id }, ada);
      const total = cents(order.total);
      const request = {
        orderId: order.order_id,
        orderSn: order.order_sn,
        provider: 'card' as const,
        providerRef: secret.payment_intent_id,
        amountCents: 1000,
        paymentAmountCents: total,
        currency: 'USD',
        idempotencyKey: `card-partial-${order.order_id}`,
      };
      const first = await gateway().refund(request);
      expect(first.status).toBe('succeeded');
      expect(await gateway().refund(request)).toEqual(first);
      await expect(
        gateway().refund({ ...request, amountCents: total, idempotencyKey: `card-too-much-${order.order_id}` }),
      ).rejects.toThrow(RefundRefused);
      await gateway().refund({ ...request, amountCents: total - 1000, idempotencyKey: `card-rest-${order.order_id}` });
      expect((await refunds(order.order_id)).map((r) => [r.amount_cents, r.status])).toEqual([
        [1000, 'succeeded'],
        [total - 1000, 'succeeded'],
      ]);
      const charge = fakes.stripe.charges.get(fakes.stripe.intents.get(secret.payment_intent_id)?.latest_charge ?? '');
      expect(charge?.amount_refunded).toBe(total);
    });

    test('PayPal: a partial refund of the capture, then the rest', async () => {
      const order = await newOrder();
      fakes.paypal.webhooks.hold();
      const paypal = (await s.call('POST', '/api/paypal/create_order', { order_id: order.order_id }, ada)).body.data;
      await paypalApprove(fakes, paypal.paypal_order_id);
      await s.call(
        'POST',
        '/api/paypal/capture_order',
        { order_id: order.order_id, paypal_order_id: paypal.paypal_order_id },
        ada,
      );
      const total = cents(order.total);
      const base = {
        orderId: order.order_id,
        orderSn: order.order_sn,
        provider: 'paypal' as const,
        providerRef: paypal.paypal_order_id,
        paymentAmountCents: total,
        currency: 'USD',
      };
      await gateway().refund({ ...base, amountCents: 500, idempotencyKey: `pp-1-${order.order_id}` });
      await gateway().refund({ ...base, amountCents: total - 500, idempotencyKey: `pp-2-${order.order_id}` });
      await expect(
        gateway().refund({ ...base, amountCents: 1, idempotencyKey: `pp-3-${order.order_id}` }),
      ).rejects.toThrow(RefundRefused);
      const captured = fakes.paypal.orders.get(paypal.paypal_order_id)?.capture;
      expect(captured).toMatchObject({ status: 'REFUNDED', refundedCents: total });
      expect((await refunds(order.order_id)).map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    });

    test('Braintree: before settlement only a whole refund (a void); after it, partial refunds', async () => {
      const total = (order: any) => cents(order.total);
      const pay = async () => {
        const order = await newOrder();
        const bt = (await s.call('GET', '/api/payment/get_paypal_braintree_accesstoken', undefined, ada)).body.data;
        await s.call(
          'POST',
          '/api/payment/paypal_braintree_checkout',
          { order_id: order.order_id, payment_method_nonce: await braintreeNonce(bt.client_token, '4111111111111111') },
          ada,
        );
        const [row] = await paymentRows(order.order_id);
        return { order, reference: row.reference };
      };
      const unsettled = await pay();
      const base = (order: any, reference: string) => ({
        orderId: order.order_id,
        orderSn: order.order_sn,
        provider: 'braintree' as const,
        providerRef: reference,
        paymentAmountCents: total(order),
        currency: 'USD',
      });
      await expect(
        gateway().refund({
          ...base(unsettled.order, unsettled.reference),
          amountCents: 100,
          idempotencyKey: `bt-part-${unsettled.order.order_id}`,
        }),
      ).rejects.toThrow(/has not settled this payment yet/);
      expect(await refunds(unsettled.order.order_id)).toEqual([]);
      await gateway().refund({
        ...base(unsettled.order, unsettled.reference),
        amountCents: total(unsettled.order),
        idempotencyKey: `bt-void-${unsettled.order.order_id}`,
      });
      expect(fakes.braintree.transactions.get(unsettled.reference)?.status).toBe('voided');

      const settled = await pay();
      fakes.braintree.settle(settled.reference);
      await gateway().refund({
        ...base(settled.order, settled.reference),
        amountCents: 250,
        idempotencyKey: `bt-1-${settled.order.order_id}`,
      });
      await gateway().refund({
        ...base(settled.order, settled.reference),
        amountCents: total(settled.order) - 250,
        idempotencyKey: `bt-2-${settled.order.order_id}`,
      });
      expect(fakes.braintree.transactions.get(settled.reference)?.refundIds).toHaveLength(2);
      expect((await refunds(settled.order.order_id)).map((r) => r.amount_cents)).toEqual([
        250,
        total(settled.order) - 250,
      ]);
    });
  });

  test('a provider that is not configured is a clear 404', async () => {
    const bare = await startServer(engine);
    try {
      const token = await bare.login(ADA.email, ADA.password);
      expect(
        (await bare.call('POST', '/api/payment/get_secret_for_stripe', { order_id: 1 }, token)).body,
      ).toMatchObject({
        status: 404,
        msg: 'Card payments are not configured on this server',
      });
      expect((await bare.call('GET', '/api/payment/methods')).body.data).toEqual({ methods: [], test_mode: false });
      expect((await bare.call('POST', '/api/payment/webhook/stripe', { id: 'evt_1', type: 'x' })).body.status).toBe(
        404,
      );
    } finally {
      await bare.close();
    }
  });
});

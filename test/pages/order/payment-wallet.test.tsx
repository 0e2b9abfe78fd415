import { signOut } from '@/state/customer';
import { mountApp, waitForPath } from '../../setup/mount-app';
import { type FakeApi, byText, click, fakeApi, ok, orderOf, signInAda, textOf, waitForText } from './support';

let api: FakeApi;

beforeAll(async () => {
  signOut();
  signInAda();
  api = fakeApi();
  api.on('POST /api/order/get_user_order', (body) => {
    const paid = api.bodiesOf('POST /api/payment/paypal_braintree_checkout').length > 0;
    return ok({
      list: [orderOf(paid ? { status: 'paid', paid_at: 1 } : {}), body].slice(0, 1),
      total: 1,
      page: 1,
      page_size: 1,
    });
  });
  api.on('POST /api/paypal/create_order', () =>
    ok({ paypal_order_id: 'PP-1', approve_url: 'https://paypal.test/approve', mode: 'sandbox' }),
  );
  api.on('POST /api/paypal/sandbox/approve', () => ok({ approved: true }));
  api.on('POST /api/paypal/capture_order', () => ({
    status: 400,
    msg: 'paypal_order_id: PayPal declined the payment',
  }));
  api.on('POST /api/payment/paypal_braintree_checkout', () => ok(orderOf({ status: 'paid', paid_at: 1 })));
  await mountApp('/pages/order/payment/payment?order_id=41');
});

it('creates a PayPal order, approves it in the sandbox, captures it and shows a refusal clearly', async () => {
  await waitForText('Pay with PayPal');
  click(byText('Pay with PayPal'));
  await waitForText('Approve and pay with PayPal');
  expect(api.bodiesOf('POST /api/paypal/create_order')).toEqual([{ order_id: 41 }]);
  click(byText('Approve and pay with PayPal'));
  await waitForText('PayPal declined the payment');
  expect(api.bodiesOf('POST /api/paypal/sandbox/approve')).toEqual([{ paypal_order_id: 'PP-1' }]);
  expect(api.bodiesOf('POST /api/paypal/capture_order')).toEqual([{ order_id: 41, paypal_order_id: 'PP-1' }]);
});

it('pays through the Braintree sandbox and opens the paid order', async () => {
  click(byText('Pay with Braintree (sandbox)'));
  await waitForPath('/pages/order/order-detail/order-detail');
  expect(api.bodiesOf('POST /api/payment/paypal_braintree_checkout')).toEqual([
    { order_id: 41, payment_method_nonce: 'fake-valid-nonce' },
  ]);
  await waitForText('Paid on');
  expect(textOf()).not.toContain('Pay now');
});

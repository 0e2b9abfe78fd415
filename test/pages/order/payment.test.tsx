import { signOut } from '@/state/customer';
import { currentPageElement, mountApp } from '../../setup/mount-app';
import { type FakeApi, fakeApi, ok, orderOf, signInAda, textOf, waitForText } from './support';

/**
 * The payment page in the app project (the H5 files, jsdom). The providers' SDKs themselves run in Chromium
 * (test/e2e/payments.test.ts): here the page's own part, what it offers and what it asks the server.
 */
let api: FakeApi;
let methods: { id: string; provider: string; test_mode: boolean; client_id: string; sdk_url: string }[] = [];
let secretAnswer: () => object = () => ({ status: 404, msg: 'Card payments are not configured on this server' });

const CARD = { id: 'card', provider: 'stripe', test_mode: true, client_id: '', sdk_url: '' };

beforeAll(() => {
  signOut();
  signInAda();
  api = fakeApi();
  api.on('POST /api/order/get_user_order', () => ok({ list: [orderOf({})], total: 1, page: 1, page_size: 1 }));
  api.on('GET /api/payment/methods', () => ok({ methods, test_mode: methods.some((method) => method.test_mode) }));
  api.on('POST /api/payment/get_secret_for_stripe', () => secretAnswer() as never);
});

it('shows the amount of the order, says which methods each platform offers, and offers none unconfigured', async () => {
  methods = [];
  await mountApp('/pages/order/payment/payment?order_id=41');
  await waitForText('Amount to pay');
  expect(textOf()).toContain('$167.04');
  expect(textOf()).toContain('Order LM20261122AB12CD34');
  expect(textOf()).toContain('On the mobile site: Card (Stripe), PayPal, Card through Braintree (Braintree)');
  expect(textOf()).toContain('In the WeChat mini-program:');
  expect(textOf()).toContain('No way to pay is available here for now.');
  expect(textOf()).not.toContain('Test mode');
  expect(api.bodiesOf('POST /api/payment/get_secret_for_stripe')).toHaveLength(0);
});

it('asks the server for the PaymentIntent of the order, has no card field of its own, and says it is test mode', async () => {
  methods = [CARD];
  secretAnswer = () => ({ status: 404, msg: 'Card payments are not configured on this server' });
  await mountApp('/pages/order/payment/payment?order_id=41');
  await waitForText('Test mode: no money moves');
  await waitForText('Card payments are not configured on this server');
  expect(api.bodiesOf('POST /api/payment/get_secret_for_stripe')).toEqual([{ order_id: 41 }]);
  // The card is typed into Stripe's frame, never into a field of the shop's page.
  expect(currentPageElement().querySelectorAll('input').length).toBe(0);
  expect(textOf()).not.toContain('Pay by card');
});

it('loads Stripe.js from the URL the server gives, and only then', async () => {
  methods = [CARD];
  secretAnswer = () =>
    ok({
      client_secret: 'pi_1_secret_2',
      payment_intent_id: 'pi_1',
      publishable_key: 'pk_test_1',
      js_url: 'https://stripe-stand-in.test/endive/stripe.js',
      amount: 167.04,
      currency: 'USD',
      test_mode: true,
    });
  const before = document.querySelectorAll('script[src^="https://stripe-stand-in.test/"]').length;
  await mountApp('/pages/order/payment/payment?order_id=41');
  await waitForText('Loading Stripe…');
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(document.querySelectorAll('script[src="https://stripe-stand-in.test/endive/stripe.js"]').length).toBe(
    before + 1,
  );
});

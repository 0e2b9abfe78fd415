import { CARD_NUMBER_MESSAGE, CVC_MESSAGE, EXPIRY_MESSAGE } from '@/features/payment/card-form';
import { signOut } from '@/state/customer';
import Taro from '@tarojs/taro';
import { currentPageElement, mountApp, typeInto, waitForPath } from '../../setup/mount-app';
import {
  type FakeApi,
  byText,
  click,
  fakeApi,
  inputValue,
  ok,
  orderOf,
  signInAda,
  textOf,
  waitForText,
} from './support';

let api: FakeApi;
let paid = false;

async function type(name: string, value: string): Promise<void> {
  await typeInto(currentPageElement(), name, value);
  await new Promise((resolve) => setTimeout(resolve, 30));
}

beforeAll(async () => {
  signOut();
  signInAda();
  api = fakeApi();
  api.on('POST /api/order/get_user_order', () =>
    ok({
      list: [orderOf(paid ? { status: 'paid', paid_at: Date.UTC(2026, 10, 22, 10) } : {})],
      total: 1,
      page: 1,
      page_size: 1,
    }),
  );
  api.on('POST /api/payment/get_secret_for_stripe', () =>
    ok({
      client_secret: 'pi_1_secret',
      payment_intent_id: 'pi_1',
      mode: 'sandbox',
      publishable_key: '',
      amount: 167.04,
      currency: 'USD',
    }),
  );
  api.on('POST /api/payment/sandbox/confirm_card', (body) =>
    body.card_number === '4000000000000002'
      ? { status: 400, msg: 'card_number: Your card was declined.' }
      : ok({ status: 'succeeded' }),
  );
  api.on('POST /api/payment/confirm_stripe', () => {
    paid = true;
    return ok(orderOf({ status: 'paid', paid_at: Date.UTC(2026, 10, 22, 10) }));
  });
  await mountApp('/pages/order/payment/payment?order_id=41');
});

it('shows the amount of the order', async () => {
  await waitForText('Amount to pay');
  expect(textOf()).toContain('$167.04');
  expect(textOf()).toContain('Order LM20261122AB12CD34');
});

it('keeps digits only and shows the card number in groups of four', async () => {
  await type('card_number', '4242-42a42 4242424299999');
  expect(inputValue('card_number')).toBe('4242 4242 4242 4242 999');
});

it('adds the slash to the expiry and splits a month above 12 across the fields', async () => {
  await type('card_expiry', '12');
  expect(inputValue('card_expiry')).toBe('12/');
  await type('card_expiry', '13');
  expect(inputValue('card_expiry')).toBe('01/3');
  await type('card_expiry', '7');
  expect(inputValue('card_expiry')).toBe('07/');
});

it('checks the card before sending anything, with a message next to each field', async () => {
  await type('card_number', '4242 4242 4242 4241');
  await type('card_expiry', '07/');
  click(byText('Pay by card'));
  await waitForText(CARD_NUMBER_MESSAGE);
  expect(textOf()).toContain(EXPIRY_MESSAGE);
  expect(textOf()).toContain(CVC_MESSAGE);
  expect(api.bodiesOf('POST /api/payment/get_secret_for_stripe')).toHaveLength(0);
});

it('shows a clear decline for 4000 0000 0000 0002 and stays on the payment page', async () => {
  await type('card_number', '4000000000000002');
  await type('card_expiry', '1230');
  await type('card_cvc', '123');
  expect(inputValue('card_expiry')).toBe('12/30');
  click(byText('Pay by card'));
  await waitForText('Your card was declined.');
  expect(api.bodiesOf('POST /api/payment/sandbox/confirm_card')[0]).toEqual({
    client_secret: 'pi_1_secret',
    card_number: '4000000000000002',
    exp_month: 12,
    exp_year: 2030,
    cvc: '123',
  });
  expect(api.bodiesOf('POST /api/payment/confirm_stripe')).toHaveLength(0);
  expect(Taro.getCurrentInstance().router?.path?.split('?')[0]).toBe('/pages/order/payment/payment');
});

it('pays with 4242 4242 4242 4242 and opens the paid order', async () => {
  await type('card_number', '4242424242424242');
  click(byText('Pay by card'));
  await waitForPath('/pages/order/order-detail/order-detail');
  expect(api.bodiesOf('POST /api/payment/confirm_stripe')).toEqual([{ order_id: 41 }]);
  await waitForText('Paid on');
});

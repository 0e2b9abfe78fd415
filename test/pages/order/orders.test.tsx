import { DELETE_ORDER_QUESTION } from '@/features/order/api';
import { signOut } from '@/state/customer';
import Taro from '@tarojs/taro';
import type { Order } from '../../../types/api';
import { currentPageElement, mountApp, waitForPath } from '../../setup/mount-app';
import {
  type FakeApi,
  answerModals,
  byText,
  click,
  fakeApi,
  ok,
  orderOf,
  signInAda,
  textOf,
  waitForText,
} from './support';

let api: FakeApi;
let orders: Order[] = [
  orderOf({
    order_id: 43,
    order_sn: 'LM-SHIPPED',
    status: 'shipped',
    paid_at: 2,
    tracking_no: 'LMTRACK0001',
    carrier: 'Lensmate Post',
  }),
  orderOf({ order_id: 42, order_sn: 'LM-PAID', status: 'paid', paid_at: 1 }),
  orderOf({ order_id: 41, order_sn: 'LM-TO-PAY' }),
];

beforeAll(async () => {
  signOut();
  signInAda();
  api = fakeApi();
  api.on('POST /api/order/get_user_order', (body) => {
    const found = orders.filter(
      (order) => (!body.status || order.status === body.status) && (!body.order_id || order.order_id === body.order_id),
    );
    return ok({ list: found, total: found.length, page: 1, page_size: 10 });
  });
  api.on('POST /api/order/get_order_history', (body) =>
    ok(
      body.order_id === 43
        ? [
            {
              kind: 'paid',
              from_status: 'created',
              to_status: 'paid',
              actor: 'provider',
              actor_name: '',
              note: '',
              amount: null,
              created_at: Date.UTC(2026, 10, 19, 8),
            },
            {
              kind: 'shipped',
              from_status: 'paid',
              to_status: 'shipped',
              actor: 'staff',
              actor_name: '',
              note: 'Lensmate Post LMTRACK0001',
              amount: null,
              created_at: Date.UTC(2026, 10, 20, 8),
            },
          ]
        : [],
    ),
  );
  api.on('POST /api/order/get_order_tracking', () =>
    ok({
      tracking_no: 'LMTRACK0001',
      carrier: 'Lensmate Post',
      status: 'in_transit',
      events: [
        {
          time: Date.UTC(2026, 10, 21, 8),
          status: 'in_transit',
          location: 'Hong Kong, HK',
          description: 'Departed the export hub',
        },
        {
          time: Date.UTC(2026, 10, 20, 8),
          status: 'registered',
          location: 'Shenzhen, CN',
          description: 'Shipping label created',
        },
      ],
    }),
  );
  api.on('POST /api/order/delete_order', (body) => {
    orders = orders.filter((order) => order.order_id !== body.order_id);
    return ok({ deleted: true });
  });
  await mountApp('/pages/order/order-list/order-list-main');
});

it('lists every order with its status and total', async () => {
  await waitForText('LM-TO-PAY');
  const text = textOf();
  expect(text).toContain('LM-SHIPPED');
  expect(text).toContain('Shipped');
  expect(text).toContain('Awaiting payment');
  expect(text).toContain('$167.04');
  expect(text).toContain('Pay now');
});

it('filters by status', async () => {
  click(byText('Paid', 0));
  await waitFor(() => !textOf().includes('LM-TO-PAY'));
  expect(textOf()).toContain('LM-PAID');
  expect(api.bodiesOf('POST /api/order/get_user_order').pop()).toEqual({ status: 'paid', page: 1, page_size: 10 });
  click(byText('Delivered'));
  await waitForText('No delivered orders');
  click(byText('All'));
  await waitForText('LM-TO-PAY');
});

it('shows a shipped order with its lines, payment and tracking events', async () => {
  click(byText('LM-SHIPPED'));
  await waitForPath('/pages/order/order-detail/order-detail');
  await waitForText('Departed the export hub');
  const text = textOf();
  expect(text).toContain('Harbor Round');
  expect(text).toContain('Prescription: Reading 2026');
  expect(text).toContain('OD SPH -2.25  CYL -0.50  AXIS 90');
  expect(text).toContain('Coupon SAVE15-$25.95');
  expect(text).toContain('Paid on');
  expect(text).toContain('Shipping label created');
  expect(api.bodiesOf('POST /api/order/get_order_tracking')).toEqual([{ order_id: 43 }]);
  // The order's own steps, newest first, down to when it was placed.
  await waitForText('Payment received');
  const history = textOf();
  expect(history.indexOf('Shipped')).toBeLessThan(history.indexOf('Payment received'));
  expect(history).toContain('Order placed');
  expect(api.bodiesOf('POST /api/order/get_order_history')).toEqual([{ order_id: 43 }]);
  expect(text).not.toContain('Delete order');
});

it('deletes an unpaid order after confirmation and goes back to the list', async () => {
  await Taro.redirectTo({ url: '/pages/order/order-detail/order-detail?order_id=41' });
  await waitForText('Not paid yet');
  const modal = answerModals(true);
  click(byText('Delete order'));
  await waitForPath('/pages/order/order-list/order-list-main');
  expect(modal).toHaveBeenCalledWith(expect.objectContaining({ content: DELETE_ORDER_QUESTION }));
  expect(api.bodiesOf('POST /api/order/delete_order')).toEqual([{ order_id: 41 }]);
  await waitForText('LM-PAID');
  expect(currentPageElement().textContent).not.toContain('LM-TO-PAY');
});

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 150 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(check()).toBe(true);
}

import { CARRIER_REQUIRED, REFUND_INVALID } from '@/pages/admin/order-detail';
import { DATE_INVALID } from '@/pages/admin/orders';
import { signIn, signOut } from '@/state/customer';
import Taro from '@tarojs/taro';
import type { AdminOrder, AdminOrderDetail, OrderEvent } from '../../../types/api';
import { type FakeApi, fakeApi, ok, wait } from '../../setup/page-helpers';
import { demoAdmin, mountPages, page, see, shows, tap, typeInto, waitForPath } from '../account/harness';
import { orderOf } from '../order/support';

const DAY = 24 * 3600 * 1000;
const step = (kind: OrderEvent['kind'], from: string, to: string, extra: Partial<OrderEvent> = {}): OrderEvent => ({
  kind,
  from_status: from as OrderEvent['from_status'],
  to_status: to as OrderEvent['to_status'],
  actor: 'staff',
  actor_name: 'admin@lensmate.test',
  note: '',
  amount: null,
  created_at: Date.UTC(2026, 10, 23, 10),
  ...extra,
});

let api: FakeApi;
let paid: AdminOrder;
let detail: AdminOrderDetail;
let modal: jest.SpyInstance;
const answerNext = (confirm: boolean) =>
  modal.mockResolvedValueOnce({ confirm, cancel: !confirm, errMsg: 'showModal:ok' } as never);
const until = async (check: () => boolean) => {
  for (let i = 0; i < 150 && !check(); i += 1) await wait(20);
};

beforeAll(async () => {
  Taro.clearStorageSync();
  signOut();
  signIn(demoAdmin);
  paid = {
    ...orderOf({ order_id: 42, order_sn: 'LM-PAID', status: 'paid', paid_at: 1 }),
    user_id: 2,
    user_email: 'ada@example.com',
  };
  const toPay = { ...orderOf({ order_id: 41, order_sn: 'LM-TO-PAY' }), user_id: 3, user_email: 'ben@example.com' };
  detail = { order: paid, history: [step('paid', 'created', 'paid', { actor: 'provider', actor_name: '' })] };
  api = fakeApi({
    'POST /api/admin/goods/list': () => ok({ list: [], total: 0, page: 1, page_size: 20 }),
    'POST /api/admin/article/list': () => ok({ list: [], total: 0, page: 1, page_size: 20 }),
    'POST /api/admin/order/list': () => ok({ list: [paid, toPay], total: 45, page: 1, page_size: 20 }),
    'POST /api/admin/order/detail': () => ok(detail),
    'POST /api/admin/order/ship': (body) => {
      detail = {
        order: {
          ...detail.order,
          status: 'shipped',
          carrier: String(body.carrier),
          tracking_no: String(body.tracking_no).toUpperCase(),
        },
        history: [
          ...detail.history,
          step('shipped', 'paid', 'shipped', { note: `${body.carrier} ${body.tracking_no}` }),
        ],
      };
      return ok(detail);
    },
    'POST /api/admin/order/deliver': () => {
      detail = {
        order: { ...detail.order, status: 'delivered' },
        history: [...detail.history, step('delivered', 'shipped', 'delivered')],
      };
      return ok(detail);
    },
    'POST /api/admin/order/refund': (body) => {
      detail = {
        order: { ...detail.order, refunded: body.amount ?? detail.order.total },
        history: [
          ...detail.history,
          step('partially_refunded', 'delivered', 'delivered', { amount: body.amount ?? 0 }),
        ],
      };
      return ok(detail);
    },
  });
  modal = jest.spyOn(Taro, 'showModal');
  await mountPages('/pages/admin/edit-list');
});

it('the admin entry links the orders; the list asks page by page, by status, search and dates', async () => {
  await tap('Orders');
  await waitForPath('/pages/admin/orders');
  await see('LM-PAID');
  expect(shows('LM-TO-PAY')).toBe(true);
  expect(shows('Page 1 of 3 · 45 orders')).toBe(true);
  expect(api.bodiesOf('POST /api/admin/order/list')[0]).toEqual({ page: 1, page_size: 20 });

  await tap('To ship');
  await until(() => api.bodiesOf('POST /api/admin/order/list').length >= 2);
  expect(api.bodiesOf('POST /api/admin/order/list').at(-1)).toEqual({ page: 1, page_size: 20, status: 'paid' });

  await typeInto(page(), 'q', ' ada@example ');
  await typeInto(page(), 'from', '1 Nov');
  await tap('Search');
  await see(DATE_INVALID);
  const before = api.bodiesOf('POST /api/admin/order/list').length;
  await typeInto(page(), 'from', '2026-11-01');
  await typeInto(page(), 'to', '2026-11-30');
  await tap('Search');
  await until(() => api.bodiesOf('POST /api/admin/order/list').length > before);
  expect(api.bodiesOf('POST /api/admin/order/list').at(-1)).toEqual({
    page: 1,
    page_size: 20,
    status: 'paid',
    q: 'ada@example',
    from: new Date(2026, 10, 1).getTime(),
    to: new Date(2026, 10, 30).getTime() + DAY,
  });

  await tap('Next ›');
  await until(() => api.bodiesOf('POST /api/admin/order/list').at(-1)?.page === 2);
  expect(api.bodiesOf('POST /api/admin/order/list').at(-1)).toMatchObject({ page: 2, q: 'ada@example' });
});

it('the detail shows lines with prescription and lenses, the address and the history', async () => {
  await tap('LM-PAID');
  await waitForPath('/pages/admin/order-detail');
  await see('Order LM-PAID');
  expect(api.bodiesOf('POST /api/admin/order/detail')).toEqual([{ order_id: 42 }]);
  expect(shows('Prescription: Reading 2026')).toBe(true);
  expect(page().textContent).toContain('OD ');
  expect(page().textContent).toContain('Lenses: ');
  expect(page().textContent).toContain('12 St James Square');
  expect(page().textContent).toContain('Paid by the payment provider');
});

it('ships after checking the form and the confirmation; the history shows it', async () => {
  await tap('Ship order');
  await see(CARRIER_REQUIRED);
  expect(api.bodiesOf('POST /api/admin/order/ship')).toHaveLength(0);
  await typeInto(page(), 'carrier', 'DHL');
  await typeInto(page(), 'tracking_no', 'jd0001234567');
  answerNext(false);
  await tap('Ship order');
  await wait(60);
  expect(modal).toHaveBeenLastCalledWith(
    expect.objectContaining({ content: 'Ship order LM-PAID with DHL, tracking number JD0001234567？' }),
  );
  expect(api.bodiesOf('POST /api/admin/order/ship')).toHaveLength(0);
  answerNext(true);
  await tap('Ship order');
  await see('Mark delivered');
  expect(api.bodiesOf('POST /api/admin/order/ship')).toEqual([
    { order_id: 42, carrier: 'DHL', tracking_no: 'jd0001234567' },
  ]);
  expect(page().textContent).toContain('Shipped by staff admin@lensmate.test');
});

it('marks delivered and refunds in part, each after its confirmation; a refusal is shown', async () => {
  answerNext(true);
  await tap('Mark delivered');
  await until(() => api.bodiesOf('POST /api/admin/order/deliver').length === 1);
  await see('Refunds');
  expect(modal).toHaveBeenLastCalledWith(expect.objectContaining({ content: 'Mark order LM-PAID as delivered？' }));

  await typeInto(page(), 'refund_amount', '99999');
  await tap('Refund now');
  await see(REFUND_INVALID);
  await typeInto(page(), 'refund_amount', '10');
  answerNext(true);
  await tap('Refund now');
  await until(() => api.bodiesOf('POST /api/admin/order/refund').length === 1);
  const [refund] = api.bodiesOf('POST /api/admin/order/refund');
  expect(refund).toMatchObject({ order_id: 42, amount: 10 });
  expect(refund.client_key).toMatch(/^refund-.{8,}/);
  await see('Partly refunded 10.00 by staff admin@lensmate.test');

  api.on('POST /api/admin/order/refund', () => ({ status: 409, msg: 'order_id: the order is already refunded' }));
  answerNext(true);
  await tap('Refund now');
  await see('order_id: the order is already refunded');
});

it('cancels an unpaid order after the confirmation', async () => {
  detail = { order: { ...paid, status: 'created', order_sn: 'LM-TO-PAY', order_id: 41, paid_at: null }, history: [] };
  api.on('POST /api/admin/order/cancel', () => {
    detail = {
      order: { ...detail.order, status: 'cancelled' },
      history: [step('cancelled', 'created', 'cancelled')],
    };
    return ok(detail);
  });
  await Taro.redirectTo({ url: '/pages/admin/order-detail?id=41' });
  await see('Order LM-TO-PAY');
  expect(shows('Ship order')).toBe(false);
  answerNext(true);
  await tap('Cancel order');
  await see('Cancelled by staff admin@lensmate.test');
  expect(modal).toHaveBeenLastCalledWith(
    expect.objectContaining({ content: 'Cancel order LM-TO-PAY？ Its stock and coupon are released.' }),
  );
  expect(api.bodiesOf('POST /api/admin/order/cancel')).toEqual([{ order_id: 41 }]);
});

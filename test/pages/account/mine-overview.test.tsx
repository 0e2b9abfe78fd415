import { signIn } from '@/state/customer';
import Taro from '@tarojs/taro';
import { currentPageElement, fakeApi, mountPages, ok, see, shows, tap, waitForPath } from './harness';

const ada = { user_id: 2, email: 'ada@lensmate.test', nickname: 'Ada', avatar: '', is_admin: false, token: 'tok-ada' };
const ordersByStatus: Record<string, number> = { created: 2, paid: 1, shipped: 3, delivered: 7 };
let calls: ReturnType<typeof fakeApi>;

beforeAll(async () => {
  Taro.clearStorageSync();
  signIn(ada);
  const address = { address_id: 1, first_name: 'Ada', last_name: 'L', city: 'Paris' };
  calls = fakeApi({
    '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
    '/api/order/get_user_order': (data: unknown) => {
      const { status } = data as { status: string };
      return ok({ list: [], total: ordersByStatus[status], page: 1, page_size: 1 });
    },
    '/api/user/get_user_address': ok([address, { ...address, address_id: 2 }]),
    '/api/user/get_my_prescription': ok([{ prescription_id: 5, name: 'Reading' }]),
    '/api/config/get_coupons': ok([
      {
        coupon_id: 1,
        code: 'WELCOME10',
        title: 'Welcome gift',
        kind: 'amount',
        value: 10,
        threshold: 50,
        valid_from: 0,
        valid_until: 0,
      },
    ]),
  });
  await mountPages('/pages/mine/index/mine');
});

function countOf(label: string): string {
  const cells = Array.from(currentPageElement().querySelectorAll('.mine-overview__cell'));
  const cell = cells.find((element) => element.querySelector('.mine-overview__label')?.textContent === label);
  return cell?.querySelector('.mine-overview__count')?.textContent ?? '';
}

it('shows orders by status and the counts of addresses, prescriptions and coupons', async () => {
  await see('To pay');
  for (let i = 0; i < 100 && countOf('Delivered') !== '7'; i += 1) await new Promise((r) => setTimeout(r, 20));
  expect([countOf('To pay'), countOf('Paid'), countOf('Shipped'), countOf('Delivered')]).toEqual(['2', '1', '3', '7']);
  expect([countOf('Addresses'), countOf('Prescriptions'), countOf('Coupons')]).toEqual(['2', '1', '1']);
  const statuses = calls
    .filter((call) => call.path === '/api/order/get_user_order')
    .map((call) => (call.data as { status: string }).status);
  expect(statuses.sort()).toEqual(['created', 'delivered', 'paid', 'shipped']);
});

it('lists the coupons with their code when tapped', async () => {
  expect(shows('WELCOME10')).toBe(false);
  await tap('Coupons');
  await see('Welcome gift');
  expect(shows('10.00 off over 50.00 · code WELCOME10')).toBe(true);
});

it('hides the admin entry from a shopper and opens settings', async () => {
  expect(shows('Edit glasses and articles')).toBe(false);
  await tap('Settings');
  await waitForPath('/pages/setting/setting');
});

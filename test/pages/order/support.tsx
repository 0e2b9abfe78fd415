import { signIn } from '@/state/customer';
import Taro from '@tarojs/taro';
import type { Address, Cart, CartLine, Order, Prescription } from '../../../types/api';
import { currentPageElement } from '../../setup/mount-app';
import { type FakeApi, fakeApi as fakeRoutes, ok } from '../../setup/page-helpers';

export { byText, click, ok, textOf, wait, waitFor, waitForText } from '../../setup/page-helpers';
export type { FakeApi } from '../../setup/page-helpers';

/** The route fake with the payment page's first question answered: no way to pay configured, until a test says. */
export function fakeApi(): FakeApi {
  return fakeRoutes({
    'GET /api/payment/methods': () => ok({ methods: [], test_mode: false }),
  });
}

export const ADA = {
  user_id: 2,
  email: 'ada@example.com',
  nickname: 'Ada',
  avatar: '',
  is_admin: false,
  token: 'tok-ada',
};

export function signInAda(): void {
  signIn(ADA);
}

/** Answers every Taro.showModal with the given choice and records what it asked. */
export function answerModals(confirm: boolean): jest.SpyInstance {
  return jest
    .spyOn(Taro, 'showModal')
    .mockImplementation((() => Promise.resolve({ confirm, cancel: !confirm, errMsg: 'showModal:ok' })) as never);
}

export function inputValue(name: string): string {
  return currentPageElement().querySelector<HTMLInputElement>(`input[name="${name}"]`)?.value ?? '';
}

export function cartLine(overrides: Partial<CartLine> = {}): CartLine {
  return {
    goods_id: 3,
    color_id: 1,
    quantity: 1,
    lens: { lens_type_id: 1, lens_id: 2, thickness_id: 2, coating_ids: [1], lens_color_id: null },
    prescription_id: 9,
    goods_name: 'Harbor Round',
    goods_img: '/uploads/harbor.svg',
    color_name: 'Tortoise',
    frame_price: 80,
    lens_detail: {
      lens_type: { lens_type_id: 1, name: 'Single Vision', price: 0 },
      lens: { lens_id: 2, name: 'Premium Digital', price: 39 },
      thickness: { thickness_id: 2, name: 'Thin 1.61', index: 1.61, price: 29 },
      coatings: [{ coating_id: 1, name: 'Blue light filter', price: 25 }],
      lens_color: null,
      prism_price: 0,
      total: 93,
    },
    unit_price: 173,
    line_total: 173,
    available: true,
    ...overrides,
  };
}

export function cartOf(lines: CartLine[]): Cart {
  const available = lines.filter((line) => line.available);
  return {
    lines,
    item_count: lines.reduce((sum, line) => sum + line.quantity, 0),
    subtotal: Math.round(available.reduce((sum, line) => sum + line.line_total, 0) * 100) / 100,
    updated_at: 1,
  };
}

export const ADDRESS: Address = {
  address_id: 5,
  first_name: 'Ada',
  last_name: 'Lovelace',
  phone: '+44 20 7946 0000',
  country_code: 'GB',
  province: '',
  city: 'London',
  street: '12 St James Square',
  street2: '',
  zip: 'SW1Y 4JH',
  is_default: true,
};

export const PRESCRIPTION: Prescription = {
  prescription_id: 9,
  name: 'Reading 2026',
  od: { sph: -2.25, cyl: -0.5, axis: 90, add: null, prism: null, base: null },
  os: { sph: -2, cyl: null, axis: null, add: null, prism: 1, base: 'BU' },
  pd: { kind: 'single', value: 63 },
  image_url: null,
  note: '',
  created_at: Date.UTC(2026, 0, 5),
};

export function orderOf(overrides: Partial<Order> = {}): Order {
  const line = cartLine();
  return {
    order_id: 41,
    order_sn: 'LM20261122AB12CD34',
    status: 'created',
    lines: [
      {
        line_id: 1,
        goods_id: line.goods_id,
        goods_name: line.goods_name,
        goods_img: line.goods_img,
        color_id: line.color_id,
        color_name: line.color_name,
        quantity: 1,
        frame_price: line.frame_price,
        lens_detail: line.lens_detail,
        unit_price: line.unit_price,
        line_total: line.line_total,
        prescription: PRESCRIPTION,
      },
    ],
    address: ADDRESS,
    shipping_method: { shipping_method_id: 2, name: 'Express', min_days: 3, max_days: 5 },
    coupon: { coupon_id: 2, code: 'SAVE15', title: '15 % off orders over $120' },
    subtotal: 173,
    coupon_discount: 25.95,
    shipping_fee: 19.99,
    total: 167.04,
    currency: 'USD',
    tracking_no: null,
    carrier: null,
    created_at: Date.UTC(2026, 10, 22, 9),
    paid_at: null,
    refunded: 0,
    shipped_at: null,
    delivered_at: null,
    ...overrides,
  };
}

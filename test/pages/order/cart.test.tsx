import type { CartContent } from '../../../types/api';
import { currentPageElement, mountApp, typeInto, waitForPath } from '../../setup/mount-app';
import {
  ADA,
  type FakeApi,
  PRESCRIPTION,
  byText,
  cartLine,
  cartOf,
  click,
  fakeApi,
  ok,
  textOf,
  waitForText,
} from './support';

let api: FakeApi;
let stored = cartOf([
  cartLine(),
  cartLine({
    goods_id: 4,
    color_id: 2,
    goods_name: 'Mono Square',
    color_name: 'Black',
    lens: null,
    prescription_id: null,
    lens_detail: null,
    frame_price: 60,
    unit_price: 60,
    line_total: 60,
  }),
]);

function uploadedContent(index: number): CartContent {
  return JSON.parse(String(api.bodiesOf('POST /api/order/upload_cart')[index].content)) as CartContent;
}

beforeAll(async () => {
  api = fakeApi();
  api.on('POST /api/auth/login', () => ok(ADA));
  api.on('GET /api/order/get_cart', () => ok(stored));
  api.on('GET /api/user/get_my_prescription', () => ok([PRESCRIPTION]));
  api.on('POST /api/order/upload_cart', (body) => {
    const content = JSON.parse(String(body.content)) as CartContent;
    if (content.lines.some((line) => line.quantity > 2))
      return { status: 409, msg: 'lines.0: Harbor Round (Tortoise) is not available in this quantity' };
    stored = cartOf(
      content.lines.map((line) => {
        const known = stored.lines.find((shown) => shown.goods_id === line.goods_id) ?? cartLine();
        return { ...known, quantity: line.quantity, line_total: known.unit_price * line.quantity };
      }),
    );
    return ok(stored);
  });
  await mountApp('/pages/order/cart/cart');
});

it('sends a visitor to login and brings them back to the cart after signing in', async () => {
  await waitForPath('/pages/login/login');
  await typeInto(currentPageElement(), 'email', 'ada@example.com');
  await typeInto(currentPageElement(), 'password', 'Shopper#2026a');
  click(byText('Sign in'));
  await waitForPath('/pages/order/cart/cart');
  await waitForText('Harbor Round');
});

it('shows each line with its frame, colour, lens choices and prescription, and the totals', async () => {
  await waitForText('Prescription: Reading 2026');
  const text = textOf();
  expect(text).toContain('Colour: Tortoise');
  expect(text).toContain('Lenses: Single Vision · Premium Digital, Thin 1.61, Blue light filter');
  expect(text).toContain('Mono Square');
  expect(text).toContain('Lenses: Frame only');
  expect(text).toContain('$173.00');
  expect(text).toContain('2 items · subtotal');
  expect(text).toContain('$233.00');
});

it('uploads the changed quantity as the JSON string content and shows the totals the server answers', async () => {
  click(currentPageElement().querySelectorAll('.cart-qty__button')[1]);
  await waitForText('$346.00');
  expect(uploadedContent(0).lines).toEqual([
    { goods_id: 3, color_id: 1, quantity: 2, lens: cartLine().lens, prescription_id: 9 },
    { goods_id: 4, color_id: 2, quantity: 1, lens: null, prescription_id: null },
  ]);
  expect(textOf()).toContain('3 items · subtotal');
  expect(textOf()).toContain('$406.00');
});

it('keeps the cart and says why when the server refuses a change', async () => {
  click(currentPageElement().querySelectorAll('.cart-qty__button')[1]);
  await waitForText('Harbor Round (Tortoise) is not available in this quantity');
  expect(textOf()).toContain('$406.00');
});

it('does not go below one and removes a line', async () => {
  const before = api.bodiesOf('POST /api/order/upload_cart').length;
  click(currentPageElement().querySelectorAll('.cart-qty__button')[2]);
  expect(api.bodiesOf('POST /api/order/upload_cart')).toHaveLength(before);
  click(currentPageElement().querySelectorAll('.cart-line__remove')[1]);
  await waitFor(() => !textOf().includes('Mono Square'));
  expect(uploadedContent(before).lines.map((line) => line.goods_id)).toEqual([3]);
  expect(textOf()).toContain('$346.00');
});

it('goes to place order from checkout', async () => {
  api.on('POST /api/user/get_user_address', () => ok([]));
  api.on('GET /api/config/get_coupons', () => ok([]));
  api.on('POST /api/config/get_recommend_coupons', () => ok([]));
  api.on('POST /api/config/get_shipping_method', () => ok([]));
  click(byText('Checkout'));
  await waitForPath('/pages/order/place-order/place-order');
});

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 150 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(check()).toBe(true);
}

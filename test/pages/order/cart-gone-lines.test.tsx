import { CHECKOUT_BLOCKED } from '@/pages/order/cart/cart';
import type { CartContent } from '../../../types/api';
import { currentPageElement, mountApp } from '../../setup/mount-app';
import { type FakeApi, cartLine, cartOf, click, fakeApi, ok, signInAda, textOf, waitForText } from './support';

const GONE =
  'The prescription for these lenses was deleted. Choose the lenses again with a prescription, or remove this line.';
let api: FakeApi;
let stored = cartOf([
  cartLine({ available: false, problem: GONE, frame_price: 0, unit_price: 0, line_total: 0, lens_detail: null }),
  cartLine({ goods_id: 4, goods_name: 'Mono Square', lens: null, prescription_id: null, lens_detail: null }),
]);

beforeAll(async () => {
  signInAda();
  api = fakeApi();
  api.on('GET /api/order/get_cart', () => ok(stored));
  api.on('GET /api/user/get_my_prescription', () => ok([]));
  api.on('POST /api/order/upload_cart', (body) => {
    const content = JSON.parse(String(body.content)) as CartContent;
    stored = cartOf(stored.lines.filter((line) => content.lines.some((kept) => kept.goods_id === line.goods_id)));
    return ok(stored);
  });
  await mountApp('/pages/order/cart/cart');
  await waitForText('Mono Square');
});

it('shows a line whose prescription was deleted with what to do, and names it as what blocks checkout', async () => {
  expect(textOf()).toContain('Harbor Round');
  expect(textOf()).toContain(GONE);
  expect(textOf()).toContain(CHECKOUT_BLOCKED);
  const named = Array.from(currentPageElement().querySelectorAll('.cart__blocking')).map((line) => line.textContent);
  expect(named).toEqual(['Line 1: Harbor Round']);
  const checkout = Array.from(currentPageElement().querySelectorAll('.shop-button')).find(
    (button) => button.textContent === 'Checkout',
  );
  expect(checkout?.className).toContain('shop-button--disabled');
});

it('lets the shopper remove the line, after which checkout is open', async () => {
  click(currentPageElement().querySelectorAll('.cart-line__remove')[0]);
  for (let i = 0; i < 150 && textOf().includes('Harbor Round'); i += 1) await new Promise((r) => setTimeout(r, 20));
  expect(textOf()).not.toContain('Harbor Round');
  expect(textOf()).not.toContain(CHECKOUT_BLOCKED);
  const uploaded = JSON.parse(String(api.bodiesOf('POST /api/order/upload_cart')[0].content)) as CartContent;
  expect(uploaded.lines.map((line) => line.goods_id)).toEqual([4]);
});

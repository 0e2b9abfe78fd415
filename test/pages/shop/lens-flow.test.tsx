import { customerAtom, signIn, signOut } from '@/state/customer';
import { lensAtom } from '@/state/lens';
import { appStore } from '@/state/store';
import Taro from '@tarojs/taro';
import type { LensType, Prescription } from '../../../types/api';
import { currentPageElement, waitForPath } from '../../setup/mount-app';
import { byText, click, fakeApi, makeGoods, mountShop, ok, textOf, typeIn, waitFor, waitForText } from './support';

const shopper = {
  user_id: 5,
  email: 'ada@lensmate.test',
  nickname: 'Ada',
  avatar: '',
  is_admin: false,
  token: 'tok-ada',
};

const LENS_TYPES: LensType[] = [
  {
    lens_type_id: 1,
    name: 'Single Vision',
    description: 'One prescription across the whole lens.',
    price: 0,
    needs_prescription: true,
    needs_add: false,
    lenses: [
      { lens_id: 10, lens_type_id: 1, name: 'Standard', description: 'Clear', price: 0 },
      { lens_id: 11, lens_type_id: 1, name: 'Premium Digital', description: 'Sharper', price: 39 },
    ],
  },
  {
    lens_type_id: 2,
    name: 'Progressive',
    description: 'Distance to near.',
    price: 99,
    needs_prescription: true,
    needs_add: true,
    lenses: [{ lens_id: 20, lens_type_id: 2, name: 'Essential', description: 'Everyday', price: 0 }],
  },
  {
    lens_type_id: 4,
    name: 'Non-prescription',
    description: 'Plano',
    price: 0,
    needs_prescription: false,
    needs_add: false,
    lenses: [],
  },
];

const eye = (sph: number, extra: Partial<Prescription['od']> = {}) => ({
  sph,
  cyl: null,
  axis: null,
  add: null,
  prism: null,
  base: null,
  ...extra,
});
const SAVED: Prescription = {
  prescription_id: 31,
  name: 'Reading 2025',
  od: eye(-4.25, { prism: 1, base: 'BU' }),
  os: eye(-3.5),
  pd: { kind: 'single', value: 63 },
  image_url: null,
  note: '',
  created_at: 0,
};

function lensApi() {
  const api = fakeApi();
  api.on('POST /api/goods/get_goods_by_id', () => ok(makeGoods(7)));
  api.on('POST /api/goods/get_lens_type', () => ok(LENS_TYPES));
  api.on('POST /api/goods/get_lens_thickness', () =>
    ok([
      { thickness_id: 1, index: 1.5, name: 'Standard 1.50', description: 'Up to ±2.00', price: 0 },
      { thickness_id: 3, index: 1.61, name: 'Thin 1.61', description: 'Up to ±4.50', price: 39 },
      { thickness_id: 4, index: 1.67, name: 'Ultra thin 1.67', description: 'Up to ±6.00', price: 69 },
    ]),
  );
  api.on('GET /api/goods/lens_coating', () =>
    ok([{ coating_id: 2, name: 'Blue light filter', description: 'Screens', price: 25 }]),
  );
  api.on('POST /api/goods/get_lens_color', () =>
    ok([
      { lens_color_id: 1, name: 'Clear', color_value: '#ffffff', kind: 'clear', price: 0 },
      { lens_color_id: 2, name: 'Grey tint', color_value: '#555555', kind: 'tint', price: 15 },
    ]),
  );
  api.on('GET /api/goods/prism_price', () => ok({ price: 15 }));
  return api;
}

beforeEach(() => {
  Taro.clearStorageSync();
  signOut();
  appStore.set(customerAtom, { toPage: '', toPageParams: {} });
  appStore.set(lensAtom, { prescription: null });
});

afterEach(() => {
  jest.restoreAllMocks();
});

describe('lens type', () => {
  it('goes to the prescription for prescription lenses and straight to the lenses for plano ones', async () => {
    signIn(shopper);
    const api = lensApi();
    api.on('GET /api/user/get_my_prescription', () => ok([]));
    await mountShop('/pages/product/lens-type/lens-type?goods_id=7&color_id=1');
    await waitForText('Progressive');
    expect(textOf()).toContain('+$99.00');
    click(byText('Single Vision'));
    await waitForPath('/pages/product/prescription/prescription');
    expect(window.location.hash).toContain('lens_type_id=1');
    Taro.navigateBack();
    await waitForPath('/pages/product/lens-type/lens-type');
    click(byText('Non-prescription'));
    await waitForPath('/pages/product/lens/lens');
    expect(window.location.hash).toContain('lens_type_id=4');
  });
});

describe('prescription', () => {
  it('checks the numbers, then shows the server message next to its field and keeps what was typed', async () => {
    signIn(shopper);
    const api = lensApi();
    api.on('GET /api/user/get_my_prescription', () => ok([]));
    api.on('POST /api/order/submit_my_prescription', () => ({ status: 400, msg: 'od.sph: must be from -20 to +20' }));
    await mountShop('/pages/product/prescription/prescription?goods_id=7&color_id=1&lens_type_id=1');
    await waitForText('Right eye (OD)');
    click(byText('Save and continue'));
    await waitForText('SPH is required');
    expect(textOf()).toContain('PD is required');
    expect(api.bodiesOf('POST /api/order/submit_my_prescription')).toHaveLength(0);

    const page = currentPageElement();
    await typeIn('od.sph', '-25');
    await typeIn('os.sph', 'abc');
    await typeIn('pd', '63');
    click(byText('Save and continue'));
    await waitForText('SPH must be a number');
    await typeIn('os.sph', '-1.75');
    click(byText('Save and continue'));
    await waitForText('SPH must be from -20 to +20');
    expect(api.bodiesOf('POST /api/order/submit_my_prescription')[0]).toMatchObject({
      od: { sph: -25, cyl: null, axis: null, add: null, prism: null, base: null },
      os: { sph: -1.75 },
      pd: { kind: 'single', value: 63 },
    });
    expect(page.querySelector<HTMLInputElement>('input[name="od.sph"]')?.value).toBe('-25');
    expect(page.querySelector('.rx-input--error input, input.rx-input--error, .rx-input--error')).not.toBeNull();
  });

  it('asks for ADD for progressive lenses and sends a dual PD with a prism and its base', async () => {
    signIn(shopper);
    const api = lensApi();
    api.on('GET /api/user/get_my_prescription', () => ok([]));
    api.on('POST /api/order/submit_my_prescription', (body) =>
      ok({ ...body, prescription_id: 40, note: '', created_at: 0 }),
    );
    await mountShop('/pages/product/prescription/prescription?goods_id=7&color_id=1&lens_type_id=2');
    await waitForText('Progressive lenses need the ADD');
    const page = currentPageElement();
    await typeIn('od.sph', '+1.50');
    await typeIn('os.sph', '1.25');
    click(byText('Two numbers'));
    await waitFor(() => page.querySelector('input[name="pd.right"]'));
    await typeIn('pd.right', '31.5');
    await typeIn('pd.left', '32');
    click(byText('Save and continue'));
    await waitForText('ADD is required for these lenses');
    await typeIn('od.add', '2');
    await typeIn('os.add', '2');
    await typeIn('od.prism', '1.5');
    const baseIn = page.querySelectorAll('.rx-bases')[0].querySelectorAll('.rx-base')[2];
    expect(baseIn.textContent).toBe('BI');
    click(baseIn);
    await waitFor(() => baseIn.className.includes('rx-base--active'), 'the chosen base');
    click(byText('Save and continue'));
    await waitForPath('/pages/product/lens/lens');
    expect(window.location.hash).toContain('prescription_id=40');
    expect(api.bodiesOf('POST /api/order/submit_my_prescription')[0]).toMatchObject({
      od: { sph: 1.5, add: 2, prism: 1.5, base: 'BI' },
      os: { sph: 1.25, add: 2 },
      pd: { kind: 'dual', right: 31.5, left: 32 },
    });
  });

  it('uses a saved prescription, refusing one without ADD for progressive lenses', async () => {
    signIn(shopper);
    const api = lensApi();
    api.on('GET /api/user/get_my_prescription', () => ok([SAVED]));
    await mountShop('/pages/product/prescription/prescription?goods_id=7&color_id=1&lens_type_id=2');
    await waitForText('Reading 2025');
    expect(textOf()).toContain('R: SPH -4.25 · Prism 1 BU');
    click(byText('Reading 2025'));
    await waitForText('Progressive lenses need the ADD value in the prescription');
    expect(api.bodiesOf('POST /api/order/submit_my_prescription')).toHaveLength(0);
  });

  it('sends a visitor to login first', async () => {
    lensApi();
    // The start page gives way to login at once, so mounting never settles on it.
    await mountShop('/pages/product/prescription/prescription?goods_id=7&color_id=1&lens_type_id=1').catch(
      () => undefined,
    );
    await waitForPath('/pages/login/login');
    expect(appStore.get(customerAtom).toPage).toBe('/pages/product/prescription/prescription');
  });
});

describe('lens', () => {
  it('prices the choices as they change, hints the index from the prescription and adds the line to the cart', async () => {
    signIn(shopper);
    appStore.set(lensAtom, { prescription: SAVED as unknown as Record<string, unknown> });
    const api = lensApi();
    const stored = { goods_id: 3, color_id: 2, quantity: 1, lens: null, prescription_id: null };
    const priced = {
      ...stored,
      goods_name: 'Frame 3',
      goods_img: '/uploads/frame-3.svg',
      color_name: 'Tortoise',
      frame_price: 40,
      lens_detail: null,
      unit_price: 40,
      line_total: 40,
      available: true,
    };
    const cart = { lines: [priced], item_count: 1, subtotal: 40, updated_at: 1 };
    api.on('GET /api/order/get_cart', () => ok(cart));
    api.on('POST /api/order/upload_cart', () => ok(cart));
    await mountShop('/pages/product/lens/lens?goods_id=7&color_id=1&lens_type_id=1&prescription_id=31');
    await waitForText('Lens index (thickness)');
    const total = () => currentPageElement().querySelector('[data-testid="lens-total"]')?.textContent;
    // Frame 80 + recommended Thin 1.61 (39) + prism 15.
    await waitFor(() => total() === '$134.00', 'total $134.00');
    expect(textOf()).toContain('Your strongest power is -4.25: we recommend index 1.61 or higher.');
    click(byText('Premium Digital'));
    await waitFor(() => total() === '$173.00', 'total $173.00');
    click(byText('Blue light filter'));
    click(byText('Grey tint'));
    await waitFor(() => total() === '$213.00', 'total $213.00');
    click(byText('Standard 1.50'));
    await waitForText('1.50 lenses will look thick at the edges.');
    await waitFor(() => total() === '$174.00', 'total $174.00');

    click(byText('Add to cart'));
    await waitFor(() => api.bodiesOf('POST /api/order/upload_cart').length > 0, 'upload_cart');
    const sent = api.bodiesOf('POST /api/order/upload_cart')[0];
    expect(typeof sent.content).toBe('string');
    expect(JSON.parse(sent.content as string).lines).toEqual([
      stored,
      {
        goods_id: 7,
        color_id: 1,
        quantity: 1,
        lens: { lens_type_id: 1, lens_id: 11, thickness_id: 1, coating_ids: [2], lens_color_id: 2 },
        prescription_id: 31,
      },
    ]);
    await waitFor(() => window.location.hash.includes('/pages/order/cart/cart'), 'the cart page');
  });

  it('shows why the server refused the line', async () => {
    signIn(shopper);
    const api = lensApi();
    api.on('GET /api/order/get_cart', () => ok({ lines: [], item_count: 0, subtotal: 0, updated_at: null }));
    api.on('POST /api/order/upload_cart', () => ({
      status: 400,
      msg: 'lines.0.color_id: these glasses do not come in this colour',
    }));
    await mountShop('/pages/product/lens/lens?goods_id=7&color_id=9&lens_type_id=4');
    await waitForText('Lens colour');
    expect(textOf()).not.toContain('Lens index');
    click(byText('Add to cart'));
    await waitForText('lines.0.color_id: these glasses do not come in this colour');
  });
});

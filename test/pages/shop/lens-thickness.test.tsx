import { signIn } from '@/state/customer';
import Taro from '@tarojs/taro';
import type { LensType, Prescription } from '../../../types/api';
import { currentPageElement } from '../../setup/mount-app';
import { fakeApi, makeGoods, mountShop, ok, waitForText } from './support';

const SINGLE_VISION: LensType = {
  lens_type_id: 1,
  name: 'Single Vision',
  description: 'One prescription across the whole lens.',
  price: 0,
  needs_prescription: true,
  needs_add: false,
  lenses: [{ lens_id: 10, lens_type_id: 1, name: 'Standard', description: 'Clear', price: 0 }],
};
const eye = (sph: number) => ({ sph, cyl: null, axis: null, add: null, prism: null, base: null });
/** -6.00 in both eyes, PD 64: in the 52-18 frame each optical centre moves 3 mm in, over 58 mm of lens. */
const STRONG: Prescription = {
  prescription_id: 40,
  name: 'Distance',
  od: eye(-6),
  os: eye(-5.5),
  pd: { kind: 'dual', right: 32, left: 32 },
  image_url: null,
  note: '',
  created_at: 0,
};

beforeAll(async () => {
  Taro.clearStorageSync();
  signIn({ user_id: 5, email: 'ada@lensmate.test', nickname: 'Ada', avatar: '', is_admin: false, token: 'tok-ada' });
  const api = fakeApi();
  api.on('POST /api/goods/get_goods_by_id', () => ok(makeGoods(7)));
  api.on('POST /api/goods/get_lens_type', () => ok([SINGLE_VISION]));
  api.on('POST /api/goods/get_lens_thickness', () =>
    ok([
      { thickness_id: 1, index: 1.5, name: 'Standard 1.50', description: 'Up to ±2.00', price: 0 },
      { thickness_id: 3, index: 1.61, name: 'Thin 1.61', description: 'Up to ±4.50', price: 39 },
      { thickness_id: 4, index: 1.67, name: 'Ultra thin 1.67', description: 'Up to ±6.00', price: 69 },
    ]),
  );
  api.on('GET /api/goods/lens_coating', () => ok([]));
  api.on('POST /api/goods/get_lens_color', () => ok([]));
  api.on('GET /api/goods/prism_price', () => ok({ price: 15 }));
  api.on('GET /api/user/get_my_prescription', () => ok([STRONG]));
  await mountShop('/pages/product/lens/lens?goods_id=7&color_id=1&lens_type_id=1&prescription_id=40');
  await waitForText('Lens index (thickness)');
});

function estimates(): Record<string, string> {
  const options = Array.from(currentPageElement().querySelectorAll('.lens-option'));
  return Object.fromEntries(
    options
      .filter((option) => option.querySelector('.lens-thickness'))
      .map((option) => [
        option.querySelector('.lens-option__name')?.textContent ?? '',
        option.querySelector('.lens-thickness__text')?.textContent ?? '',
      ]),
  );
}

it('shows a -6.00 shopper the edge and centre of every index in this frame: 1.67 is 1.4 mm thinner at the edge', async () => {
  for (let i = 0; i < 200 && Object.keys(estimates()).length < 3; i += 1) await new Promise((r) => setTimeout(r, 20));
  // Edge = 1.5 mm centre + the sagitta over 29 mm: 5.208 (1.50), 4.218 (1.61), 3.832 (1.67).
  expect(estimates()).toEqual({
    'Standard 1.50': 'Edge 6.7 mm · centre 1.5 mm',
    'Thin 1.61': 'Edge 5.7 mm · centre 1.5 mm',
    'Ultra thin 1.67': 'Edge 5.3 mm · centre 1.5 mm',
  });
});

it('draws each cross-section to one scale, the 1.50 edge deeper than the 1.67 one', () => {
  const shapes = Array.from(currentPageElement().querySelectorAll<HTMLElement>('.lens-thickness__lens')).map(
    (lens) => lens.style.clipPath,
  );
  expect(shapes).toHaveLength(3);
  expect(shapes[0]).toContain('100% 67.08');
  expect(shapes[2]).toContain('100% 53.3');
  expect(shapes[0]).toContain('50% 15%');
});

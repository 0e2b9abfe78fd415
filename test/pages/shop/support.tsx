import Taro from '@tarojs/taro';
import type { Color, Filter, Goods, GoodsColor } from '../../../types/api';
import { currentPageElement, mountApp, typeInto, waitForPath } from '../../setup/mount-app';
import { wait, waitFor } from '../../setup/page-helpers';

// jsdom has no IntersectionObserver, which Taro's lazy-loading <Image> asks for.
if (!('IntersectionObserver' in globalThis)) {
  Object.assign(globalThis, {
    IntersectionObserver: class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  });
}

export { byText, click, fakeApi, ok, textOf, wait, waitFor, waitForText } from '../../setup/page-helpers';
export type { FakeApi } from '../../setup/page-helpers';

let mounted = false;

/**
 * Opens `startPath`: the first call of a test file mounts the app there, later calls relaunch to it (a second
 * app in the same document would share the first one's router).
 */
export async function mountShop(startPath: string): Promise<void> {
  if (mounted) {
    const before = new Set(document.querySelectorAll('.taro_page'));
    await Taro.reLaunch({ url: startPath });
    await waitForPath(startPath.split('?')[0]);
    await waitFor(() => !before.has(currentPageElement()), `a new ${startPath} page`);
    return;
  }
  mounted = true;
  await mountApp(startPath);
}

/** Types into the input `name` of the page on screen and lets the page re-render before the next step. */
export async function typeIn(name: string, value: string): Promise<void> {
  typeInto(currentPageElement(), name, value);
  await wait(50);
}

export const COLORS: Color[] = [
  { color_id: 1, color_name: 'Black', color_img: '', color_value: '#1f2328' },
  { color_id: 2, color_name: 'Tortoise', color_img: '', color_value: '#7a4a22' },
];

export const FILTERS: Filter[] = [
  { filter_id: 11, filter_name: 'Women', filter_img: '', type: 'Gender' },
  { filter_id: 21, filter_name: 'Round', filter_img: '', type: 'Shape' },
  { filter_id: 22, filter_name: 'Square', filter_img: '', type: 'Shape' },
  { filter_id: 31, filter_name: 'Acetate', filter_img: '', type: 'Material' },
];

function colorEntry(color: Color, images: string[], stock: number | null = null): GoodsColor {
  return { ...color, goods_color_img: images, stock };
}

export function makeGoods(id: number, overrides: Partial<Goods> = {}): Goods {
  return {
    goods_id: id,
    goods_name: `Frame ${id}`,
    goods_img: `/uploads/frame-${id}.svg`,
    goods_desc: 'An acetate frame made to be worn all day.',
    shop_price: 100,
    discount: 80,
    final_price: 80,
    shown_discount: 20,
    category_id: 1,
    filters: [FILTERS[1]],
    color_arr: [
      colorEntry(COLORS[0], [`/uploads/frame-${id}-black-front.svg`, `/uploads/frame-${id}-black-side.svg`]),
      colorEntry(COLORS[1], [`/uploads/frame-${id}-tortoise-front.svg`], 0),
    ],
    lens_width: 52,
    bridge_width: 18,
    temple_length: 140,
    is_on_sale: true,
    created_at: 0,
    ...overrides,
  };
}

export function page<T>(list: T[], total = list.length, pageNo = 1, size = 10) {
  return { list, total, page: pageNo, page_size: size };
}

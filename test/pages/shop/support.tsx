import Taro from '@tarojs/taro';
import type { Color, Filter, Goods, GoodsColor } from '../../../types/api';
import { currentPageElement, mountApp, typeInto, waitForPath } from '../../setup/mount-app';

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

type Handler = (body: Record<string, unknown>) => { status: number; msg?: string; data?: unknown };

export interface FakeApi {
  /** Every call made, as `METHOD /path` with its body (GET: query). */
  calls: { route: string; body: Record<string, unknown> }[];
  on(route: string, handler: Handler): void;
  bodiesOf(route: string): Record<string, unknown>[];
}

/** Taro.request faked at its boundary: answers by `METHOD /path`, 404 for anything not set up. */
export function fakeApi(): FakeApi {
  const handlers = new Map<string, Handler>([
    ['GET /api/config/shop_config', () => ({ status: 200, data: { shop_name: 'Lensmate', shop_logo: '' } })],
  ]);
  const calls: FakeApi['calls'] = [];
  jest.spyOn(Taro, 'request').mockImplementation(((options: Taro.request.Option) => {
    const path = options.url.replace(/^https?:\/\/[^/]+/, '').split('?')[0];
    const route = `${options.method ?? 'GET'} ${path}`;
    const body = (options.data ?? {}) as Record<string, unknown>;
    calls.push({ route, body });
    const handler = handlers.get(route);
    const answer = handler ? handler(body) : { status: 404, msg: `no fake for ${route}` };
    return Promise.resolve({
      data: { msg: 'ok', data: null, ...answer },
      statusCode: 200,
      header: {},
      errMsg: 'request:ok',
    });
  }) as never);
  return {
    calls,
    on(route, handler) {
      handlers.set(route, handler);
    },
    bodiesOf(route) {
      return calls.filter((call) => call.route === route).map((call) => call.body);
    },
  };
}

export const ok = (data: unknown) => ({ status: 200, data });

let mounted = false;

/**
 * Opens `startPath`: the first call of a test file mounts the app there, later calls relaunch to it (a second
 * app in the same document would share the first one's router). Before mounting, the hash is set and its
 * asynchronous hashchange let pass: arriving after the router started, it would open the page a second time.
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
  window.location.hash = `#${startPath}`;
  await wait(30);
  await mountApp(startPath);
}

export const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `find` answers something (or throws after 8 s: other suites may be loading the machine). */
export async function waitFor<T>(find: () => T | null | undefined | false, what = 'element'): Promise<T> {
  for (let i = 0; i < 400; i += 1) {
    const found = find();
    if (found) return found;
    await wait(20);
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/** The text of the page on screen (pages left by navigateTo stay hidden in the DOM). */
export function textOf(): string {
  try {
    return currentPageElement().textContent ?? '';
  } catch {
    return '';
  }
}

export async function waitForText(text: string): Promise<void> {
  await waitFor(() => textOf().includes(text), `text "${text}"`);
}

/** The innermost element whose text is exactly `text`. */
export function byText(text: string): HTMLElement {
  const all = Array.from(currentPageElement().querySelectorAll<HTMLElement>('*')).filter(
    (element) => element.textContent?.trim() === text,
  );
  const element = all[all.length - 1];
  if (!element) throw new Error(`No element with text "${text}"`);
  return element;
}

/** Types into the input `name` of the page on screen and lets the page re-render before the next step. */
export async function typeIn(name: string, value: string): Promise<void> {
  typeInto(currentPageElement(), name, value);
  await wait(50);
}

export function click(element: Element): void {
  element.dispatchEvent(new MouseEvent('click', { bubbles: true }));
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

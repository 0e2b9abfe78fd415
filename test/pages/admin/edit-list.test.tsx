import { signIn } from '@/state/customer';
import Taro from '@tarojs/taro';
import {
  currentPageElement,
  demoAdmin,
  fakeApi,
  mountPages,
  ok,
  page,
  refused,
  see,
  shows,
  tap,
  typeInto,
} from '../account/harness';

/** 120 frames and 120 articles, newest (highest number) first, paged and searched as the server does. */
const MANY = 120;
const frames = Array.from({ length: MANY }, (_, index) => {
  const n = MANY - index;
  return {
    goods_id: n,
    goods_name: `Frame ${String(n).padStart(3, '0')}${n % 10 === 0 ? ' Tortoise' : ''}`,
    goods_img: '/uploads/goods/a.png',
    shop_price: 100,
    discount: 100,
    final_price: 100,
    color_arr: [],
    is_on_sale: n !== 7,
  };
});
const articles = Array.from({ length: MANY }, (_, index) => {
  const n = MANY - index;
  return {
    article_id: n,
    title: `Article ${String(n).padStart(3, '0')}${n % 10 === 0 ? ' about lenses' : ''}`,
    cover: '/uploads/article/a.png',
    imgsUrl: [],
    category_id: null,
    author: null,
    created_at: n,
    updated_at: n,
  };
});

interface ListRequest {
  page: number;
  page_size: number;
  q?: string;
}

function serve<T>(all: T[], text: (item: T) => string) {
  return (data: unknown) => {
    const { page: pageNo, page_size: size, q } = data as ListRequest;
    const found = q ? all.filter((item) => text(item).toLowerCase().includes(q.toLowerCase())) : all;
    return ok<{ list: T[]; total: number; page: number; page_size: number }>({
      list: found.slice((pageNo - 1) * size, pageNo * size),
      total: found.length,
      page: pageNo,
      page_size: size,
    });
  };
}

let failNextGoodsPage = false;
let calls: ReturnType<typeof fakeApi>;
const sent = (path: string) => calls.filter((call) => call.path === path).map((call) => call.data as ListRequest);
const titles = (selector = '.admin-list__title') =>
  Array.from(currentPageElement().querySelectorAll(selector)).map((node) => node.textContent);
const scrollToBottom = () => Taro.getCurrentInstance().page?.onReachBottom?.();

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 150 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(check()).toBe(true);
}

beforeAll(async () => {
  Taro.clearStorageSync();
  signIn(demoAdmin);
  const goodsPages = serve(frames, (item) => `${item.goods_name} ${item.goods_id}`);
  calls = fakeApi({
    '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
    '/api/admin/goods/list': (data: unknown) => {
      if (failNextGoodsPage && (data as ListRequest).page > 1) {
        failNextGoodsPage = false;
        return refused(503, 'The shop is busy, try again');
      }
      return goodsPages(data);
    },
    '/api/admin/article/list': serve(articles, (item) => item.title),
  });
  await mountPages('/pages/admin/edit-list');
});

it('shows the first 20 of 120 glasses and the next 20 as the admin scrolls to the bottom', async () => {
  await see('Frame 120 Tortoise');
  expect(shows('Glasses (120)')).toBe(true);
  expect(titles()).toHaveLength(20);
  expect(titles().at(-1)).toBe('Frame 101');
  scrollToBottom();
  await see('Frame 081');
  expect(titles()).toHaveLength(40);
  expect(sent('/api/admin/goods/list').map((request) => request.page)).toEqual([1, 2]);
  // Past 50: pages 3 and 4.
  scrollToBottom();
  await see('Frame 061');
  scrollToBottom();
  await see('Frame 041');
  expect(titles()).toHaveLength(80);
  expect(new Set(titles()).size).toBe(80);
});

it('keeps what is shown when a later page fails, and "Try again" loads it and scrolling goes on', async () => {
  failNextGoodsPage = true;
  scrollToBottom();
  await see('The shop is busy, try again');
  expect(titles()).toHaveLength(80);
  await tap('Try again');
  await see('Frame 021');
  scrollToBottom();
  await see('Frame 001');
  await see('All 120 shown');
  expect(titles()).toHaveLength(120);
  const asked = sent('/api/admin/goods/list').length;
  scrollToBottom();
  await new Promise((resolve) => setTimeout(resolve, 60));
  expect(sent('/api/admin/goods/list')).toHaveLength(asked);
});

it('searches glasses on the server by name or id, and pages the matches', async () => {
  await typeInto(page(), 'q', '  tortoise ');
  await tap('Search');
  await until(() => titles().length === 12);
  expect(sent('/api/admin/goods/list').at(-1)).toEqual({ page: 1, page_size: 20, q: 'tortoise' });
  expect(shows('Glasses (12)')).toBe(true);
  expect(shows('All 12 shown')).toBe(true);
  await typeInto(page(), 'q', 'no such frame');
  await tap('Search');
  await see('No glasses match “no such frame”');
  await typeInto(page(), 'q', '');
  await tap('Search');
  await see('Frame 120 Tortoise');
  expect(titles()).toHaveLength(20);
  expect(sent('/api/admin/goods/list').at(-1)).toEqual({ page: 1, page_size: 20 });
});

it('pages and searches the articles the same way', async () => {
  await tap('Articles (120)');
  await see('Article 120 about lenses');
  expect(titles()).toHaveLength(20);
  scrollToBottom();
  await see('Article 081');
  expect(sent('/api/admin/article/list').map((request) => request.page)).toEqual([1, 2]);
  await typeInto(page(), 'q', 'LENSES');
  await tap('Search');
  await until(() => titles().length === 12);
  expect(titles()[0]).toBe('Article 120 about lenses');
  expect(sent('/api/admin/article/list').at(-1)).toEqual({ page: 1, page_size: 20, q: 'LENSES' });
  // The glasses keep their own search.
  await tap('Glasses (120)');
  await see('Frame 120 Tortoise');
});

import { SEARCH_HISTORY_KEY } from '@/features/search/history';
import { signOut } from '@/state/customer';
import Taro from '@tarojs/taro';
import { waitForPath } from '../../setup/mount-app';
import {
  byText,
  click,
  fakeApi,
  makeGoods,
  mountShop,
  ok,
  page,
  textOf,
  typeIn,
  waitFor,
  waitForText,
} from './support';

beforeEach(() => {
  Taro.clearStorageSync();
  signOut();
});

afterEach(() => {
  jest.restoreAllMocks();
});

describe('search', () => {
  it('remembers recent searches, newest first and once each, and shows the results', async () => {
    Taro.setStorageSync(SEARCH_HISTORY_KEY, ['round', 'gold']);
    const api = fakeApi();
    api.on('POST /api/goods/search_page', (body) =>
      body.keyword === 'Cat-Eye' ? ok(page([makeGoods(4, { goods_name: 'Faye Cat-Eye' })])) : ok(page([])),
    );
    await mountShop('/pages/index/search/search');
    await waitForText('Recent searches');
    expect(textOf()).toContain('round');
    await typeIn('keyword', 'Cat-Eye');
    click(byText('Search'));
    await waitForPath('/pages/index/search/searchList');
    await waitForText('Faye Cat-Eye');
    expect(textOf()).toContain('1 result for “Cat-Eye”');
    expect(api.bodiesOf('POST /api/goods/search_page')[0]).toMatchObject({ keyword: 'Cat-Eye', page: 1 });
    expect(Taro.getStorageSync(SEARCH_HISTORY_KEY)).toEqual(['Cat-Eye', 'round', 'gold']);

    await typeIn('keyword', 'ROUND');
    click(byText('Search'));
    await waitForText('No frames found');
    expect(textOf()).toContain('Nothing matches “ROUND”');
    expect(Taro.getStorageSync(SEARCH_HISTORY_KEY)).toEqual(['ROUND', 'Cat-Eye', 'gold']);
  });

  it('searches again from the history and clears it', async () => {
    Taro.setStorageSync(SEARCH_HISTORY_KEY, ['gold']);
    const api = fakeApi();
    api.on('POST /api/goods/search_page', () => ok(page([makeGoods(2, { goods_name: 'Gold Aviator' })])));
    await mountShop('/pages/index/search/search');
    await waitForText('gold');
    click(byText('gold'));
    await waitForPath('/pages/index/search/searchList');
    await waitForText('Gold Aviator');
    Taro.navigateBack();
    await waitForPath('/pages/index/search/search');
    click(byText('Clear'));
    await waitForText('Your searches will show here.');
    expect(Taro.getStorageSync(SEARCH_HISTORY_KEY)).toBe('');
  });
});

describe('categories', () => {
  it('lists the categories and opens one with its frames', async () => {
    const api = fakeApi();
    api.on('GET /api/config/get_category_page', () =>
      ok(
        page([
          { category_id: 1, category_name: 'Eyeglasses', category_img: '/uploads/c1.svg' },
          { category_id: 2, category_name: 'Sunglasses', category_img: '/uploads/c2.svg' },
        ]),
      ),
    );
    api.on('POST /api/goods/get_goods_page', (body) =>
      ok(page(body.category_id === 2 ? [makeGoods(5, { goods_name: 'Gus Aviator Sun' })] : [])),
    );
    await mountShop('/pages/category/category');
    await waitForText('Sunglasses');
    click(byText('Sunglasses'));
    await waitForPath('/pages/category/categoryList/categoryList');
    await waitForText('Gus Aviator Sun');
    expect(textOf()).toContain('1 frame');
    expect(api.bodiesOf('POST /api/goods/get_goods_page')[0]).toMatchObject({
      category_id: 2,
      page: 1,
      sort: 'newest',
    });
    click(byText('Price ↓'));
    await waitFor(() => api.bodiesOf('POST /api/goods/get_goods_page').some((body) => body.sort === 'price_desc'));
  });
});

describe('home section detail', () => {
  it('shows the collection and its frames, or the server message', async () => {
    const api = fakeApi();
    api.on('GET /api/index/shop_mainpage_detail', (query) =>
      Number(query.id) === 41
        ? ok({ id: 41, title: 'Best Sellers', cover: '', goods: [makeGoods(8, { goods_name: 'Hazel Cat-Eye' })] })
        : { status: 404, msg: 'id: no such home section' },
    );
    await mountShop('/pages/index/detail/detail?id=41');
    await waitForText('Hazel Cat-Eye');
    expect(textOf()).toContain('Best Sellers');
    click(byText('Hazel Cat-Eye'));
    await waitForPath('/pages/product/product');
    expect(window.location.hash).toContain('id=8');

    await mountShop('/pages/index/detail/detail?id=99');
    await waitForText('id: no such home section');
  });
});

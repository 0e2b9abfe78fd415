import { signOut } from '@/state/customer';
import Taro from '@tarojs/taro';
import {
  COLORS,
  FILTERS,
  byText,
  click,
  fakeApi,
  makeGoods,
  mountShop,
  ok,
  page,
  textOf,
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

describe('product list', () => {
  it('filters by colour and shape and asks the server with both', async () => {
    const api = fakeApi();
    api.on('GET /api/config/get_colors', () => ok(COLORS));
    api.on('GET /api/config/get_filters', () => ok(FILTERS));
    api.on('POST /api/goods/get_goods_page', (body) => {
      const filtered = Array.isArray(body.color_ids) || Array.isArray(body.filter_ids);
      return ok(
        page(
          filtered
            ? [makeGoods(2, { goods_name: 'Cleo Round' })]
            : [makeGoods(1), makeGoods(2, { goods_name: 'Cleo Round' })],
        ),
      );
    });
    await mountShop('/pages/product/product-list-main');
    await waitForText('2 frames');
    expect(byText('$80.00')).toBeTruthy();
    expect(byText('$100.00')).toBeTruthy();
    expect(byText('-20%')).toBeTruthy();

    click(byText('Black'));
    await waitForText('1 frame');
    click(byText('Filters'));
    await waitForText('Shape');
    click(byText('Round'));
    await waitFor(() => api.bodiesOf('POST /api/goods/get_goods_page').some((body) => Array.isArray(body.filter_ids)));
    const last = api.bodiesOf('POST /api/goods/get_goods_page').pop();
    expect(last).toMatchObject({ color_ids: [1], filter_ids: [21], page: 1, sort: 'newest' });
    expect(textOf()).toContain('Cleo Round');
  });

  it('loads the next page when the shopper reaches the bottom, and says when every frame is shown', async () => {
    const api = fakeApi();
    api.on('GET /api/config/get_colors', () => ok(COLORS));
    api.on('GET /api/config/get_filters', () => ok(FILTERS));
    api.on('POST /api/goods/get_goods_page', (body) =>
      body.page === 2
        ? ok(page([makeGoods(11, { goods_name: 'Page two frame' })], 11, 2))
        : ok(
            page(
              Array.from({ length: 10 }, (_, i) => makeGoods(i + 1)),
              11,
            ),
          ),
    );
    await mountShop('/pages/product/product-list-main');
    await waitForText('11 frames');
    expect(textOf()).not.toContain('Page two frame');
    Taro.getCurrentInstance().page?.onReachBottom?.();
    await waitForText('Page two frame');
    await waitForText('That is every frame');
    expect(api.bodiesOf('POST /api/goods/get_goods_page').map((body) => body.page)).toEqual([1, 2]);
  });

  it('shows the empty state and clears the filters', async () => {
    const api = fakeApi();
    api.on('GET /api/config/get_colors', () => ok(COLORS));
    api.on('GET /api/config/get_filters', () => ok(FILTERS));
    api.on('POST /api/goods/get_goods_page', (body) => ok(page(body.color_ids ? [] : [makeGoods(1)])));
    await mountShop('/pages/product/product-list-main?color_id=2');
    await waitForText('No frames match');
    click(byText('Clear filters'));
    await waitForText('1 frame');
  });
});

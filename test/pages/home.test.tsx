import { IMAGES_UPLOADING_TOAST } from '@/state/shop';
import Taro from '@tarojs/taro';
import TestUtils from '@tarojs/test-utils-react';
import {
  APP_WAIT_MS,
  type Answer,
  currentPageElement,
  fakeApi,
  mountApp,
  refusal,
  waitForPath,
} from '../setup/mount-app';

const homePage = {
  banners: [{ image: '/uploads/banner.jpg', title: 'Autumn frames', link: '/pages/product/product-list-main?tag=2' }],
  categories: [
    { category_id: 1, category_name: 'Optical', category_img: '/uploads/c1.png' },
    { category_id: 2, category_name: 'Sunglasses', category_img: '/uploads/c2.png' },
    { category_id: 3, category_name: 'Kids', category_img: '/uploads/c3.png' },
    { category_id: 4, category_name: 'Sport', category_img: '/uploads/c4.png' },
  ],
  sections: [
    {
      id: 7,
      title: 'Best sellers',
      cover: '',
      goods: [
        {
          goods_id: 1,
          goods_name: 'Round Acetate',
          goods_img: '/uploads/g1.png',
          shop_price: 100,
          discount: 80,
          final_price: 80,
        },
        {
          goods_id: 2,
          goods_name: 'Aviator Steel',
          goods_img: 'https://cdn.example.com/g2.png',
          shop_price: 59.5,
          discount: 100,
          final_price: 59.5,
        },
      ],
    },
  ],
};

const tu = new TestUtils();
let homeAnswer: Answer<'GET /api/index/shop_mainpage'> = refusal(503, 'The shop is closed for maintenance');
let toast: jest.SpyInstance;
let calls: ReturnType<typeof fakeApi>;

beforeAll(async () => {
  Taro.setStorageSync('logo', '/uploads/old-logo.png');
  toast = jest.spyOn(Taro, 'showToast');
  calls = fakeApi({
    '/api/config/shop_config': {
      status: 200,
      msg: 'ok',
      data: { shop_name: 'Lensmate', shop_logo: '/uploads/logo.png' },
    },
    '/api/index/shop_mainpage': () => homeAnswer,
  });
  await mountApp('/pages/index/index');
});

function page() {
  const element = currentPageElement();
  tu.queries.setContainer(element);
  return element;
}

it('shows the toast that images are uploading at app start, as the imgPublish flag is absent', () => {
  expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: IMAGES_UPLOADING_TOAST }));
});

it('loads the home page from GET /api/index/shop_mainpage and shows the server message when it fails', async () => {
  page();
  await tu.queries.waitForQueryByText('The shop is closed for maintenance', '*', { timeout: APP_WAIT_MS });
  expect(calls).toContainEqual(expect.objectContaining({ path: '/api/index/shop_mainpage', method: 'GET' }));
  expect(tu.queries.queryByText('Try again')).not.toBeNull();
});

it('shows banners, categories in rows of 3 and goods with 2-decimal prices after a retry', async () => {
  homeAnswer = { status: 200, msg: 'ok', data: homePage };
  const element = page();
  tu.fireEvent.click(tu.queries.queryByText('Try again'));
  await tu.queries.waitForQueryByText('Best sellers', '*', { timeout: APP_WAIT_MS });
  expect(tu.queries.queryByText('Autumn frames')).not.toBeNull();
  const rows = element.querySelectorAll('.home__category-row');
  expect(Array.from(rows).map((row) => row.querySelectorAll('.home__category').length)).toEqual([3, 1]);
  expect(tu.queries.queryByText('Round Acetate')).not.toBeNull();
  expect(tu.queries.queryByText('80.00')).not.toBeNull();
  expect(tu.queries.queryByText('100.00')).not.toBeNull();
  expect(tu.queries.queryByText('59.50')).not.toBeNull();
  const badges = Array.from(element.querySelectorAll('.goods-card__badge')).map((badge) => badge.textContent);
  expect(badges).toEqual(['-20%']);
  const images = Array.from(element.querySelectorAll('.goods-card__image')).map((image) => image.getAttribute('src'));
  expect(images).toEqual(['http://api.test/uploads/g1.png', 'https://cdn.example.com/g2.png']);
});

it('shows the shop logo refreshed from shop_config and keeps it under the storage key logo', async () => {
  const element = page();
  expect(calls.find((call) => call.path === '/api/config/shop_config')).toBeDefined();
  expect(Taro.getStorageSync('logo')).toBe('/uploads/logo.png');
  const logo = element.querySelector('.home__logo');
  expect(logo?.getAttribute('src')).toBe('http://api.test/uploads/logo.png');
});

it('renders the tab bar with home selected; Mine sends a guest to login', async () => {
  const element = page();
  const active = element.querySelector('.tab-bar__item--active');
  expect(active?.textContent).toContain('Home');
  tu.fireEvent.click(tu.queries.queryByText('Mine'));
  await waitForPath('/pages/login/login');
});

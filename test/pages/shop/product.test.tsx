import { returnAfterLogin } from '@/core/navigation';
import { customerAtom, signIn, signOut } from '@/state/customer';
import { appStore } from '@/state/store';
import Taro from '@tarojs/taro';
import { currentHashPath, waitForPath } from '../../setup/mount-app';
import { byText, click, fakeApi, makeGoods, mountShop, ok, textOf, waitForText } from './support';

const shopper = {
  user_id: 5,
  email: 'ada@lensmate.test',
  nickname: 'Ada',
  avatar: '',
  is_admin: false,
  token: 'tok-ada',
};

beforeEach(() => {
  Taro.clearStorageSync();
  signOut();
  appStore.set(customerAtom, { toPage: '', toPageParams: {} });
});

afterEach(() => {
  jest.restoreAllMocks();
});

function images(): string[] {
  return Array.from(document.querySelectorAll('.product__gallery img, .product__gallery taro-image-core')).map(
    (element) => element.getAttribute('src') ?? '',
  );
}

describe('product page', () => {
  it('shows prices with 2 decimals, the shown discount, measurements and each colour with its images', async () => {
    const api = fakeApi();
    api.on('POST /api/goods/get_goods_by_id', (body) =>
      ok(makeGoods(Number(body.goods_id), { shop_price: 129, discount: 85, final_price: 109.65 })),
    );
    await mountShop('/pages/product/product?id=7');
    await waitForText('Frame 7');
    expect(api.bodiesOf('POST /api/goods/get_goods_by_id')).toContainEqual({ goods_id: 7 });
    expect(textOf()).toContain('$109.65');
    expect(textOf()).toContain('$129.00');
    expect(textOf()).toContain('15% off');
    expect(textOf()).toContain('52 mm');
    expect(textOf()).toContain('140 mm');
    expect(textOf()).toContain('Colour: Black');
    expect(images().join(' ')).toContain('frame-7-black-front.svg');

    click(document.querySelector('[aria-label="Tortoise"]') as Element);
    await waitForText('Colour: Tortoise');
    expect(images().join(' ')).toContain('frame-7-tortoise-front.svg');
    expect(images().join(' ')).not.toContain('black');
    expect(textOf()).toContain('Out of stock in this colour');
  });

  it('leaves out the frame size when the measurements are not known', async () => {
    const api = fakeApi();
    api.on('POST /api/goods/get_goods_by_id', () =>
      ok(makeGoods(3, { lens_width: 0, bridge_width: 0, temple_length: 0 })),
    );
    await mountShop('/pages/product/product?id=3');
    await waitForText('Frame 3');
    expect(textOf()).not.toContain('Frame size');
  });

  it('shows the server message when the frame is gone', async () => {
    const api = fakeApi();
    api.on('POST /api/goods/get_goods_by_id', () => ({
      status: 404,
      msg: 'goods_id: these glasses are no longer sold',
    }));
    await mountShop('/pages/product/product?id=9');
    await waitForText('goods_id: these glasses are no longer sold');
    expect(byText('Try again')).toBeTruthy();
  });

  it('sends a visitor to login on add to cart and brings them back to this frame and colour', async () => {
    const api = fakeApi();
    api.on('POST /api/goods/get_goods_by_id', () => ok(makeGoods(7)));
    await mountShop('/pages/product/product?id=7');
    await waitForText('Frame 7');
    click(byText('Add to cart'));
    await waitForPath('/pages/login/login');
    expect(appStore.get(customerAtom)).toMatchObject({
      toPage: '/pages/product/product',
      toPageParams: { id: '7', color_id: '1' },
    });

    signIn(shopper);
    await returnAfterLogin();
    await waitForPath('/pages/product/product');
    expect(window.location.hash).toContain('id=7');
    await waitForText('Frame 7');
    click(byText('Add to cart'));
    await waitForPath('/pages/product/lens-type/lens-type');
    expect(window.location.hash).toContain('goods_id=7');
    expect(currentHashPath()).toBe('/pages/product/lens-type/lens-type');
  });
});

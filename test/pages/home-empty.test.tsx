import { HOME_EMPTY_MESSAGE } from '@/pages/index/index';
import Taro from '@tarojs/taro';
import TestUtils from '@tarojs/test-utils-react';
import { APP_WAIT_MS, currentPageElement, fakeApi, mountApp } from '../setup/mount-app';

const tu = new TestUtils();

it('shows an empty state when the shop has no banners, categories or sections yet, and no upload toast', async () => {
  Taro.setStorageSync('imgPublish', true);
  const toast = jest.spyOn(Taro, 'showToast');
  fakeApi({
    '/api/config/shop_config': { status: 200, msg: 'ok', data: { shop_name: 'Lensmate', shop_logo: '' } },
    '/api/index/shop_mainpage': { status: 200, msg: 'ok', data: { banners: [], categories: [], sections: [] } },
  });
  await mountApp('/pages/index/index');
  tu.queries.setContainer(currentPageElement());
  await tu.queries.waitForQueryByText(HOME_EMPTY_MESSAGE, '*', { timeout: APP_WAIT_MS });
  expect(currentPageElement().querySelector('.home__logo--placeholder')).not.toBeNull();
  expect(toast).not.toHaveBeenCalledWith(expect.objectContaining({ icon: 'none' }));
});

import { signIn } from '@/state/customer';
import Taro from '@tarojs/taro';
import { fakeApi, mountPages, ok, waitForPath } from '../account/harness';
import { orderOf } from '../order/support';
import { press, see } from './press';

/** The ways into customer service: the order detail page for a shopper, the Mine admin area for an agent. */
const ada = { user_id: 2, email: 'ada@lensmate.test', nickname: 'Ada', avatar: '', is_admin: false, token: 'tok-ada' };
const admin = { ...ada, user_id: 1, email: 'admin@lensmate.test', nickname: 'Lensmate Admin', is_admin: true };

afterEach(() => jest.restoreAllMocks());

it('the order detail page opens support chat about that order', async () => {
  Taro.clearStorageSync();
  signIn(ada);
  fakeApi({
    '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
    '/api/order/get_user_order': ok({ list: [orderOf()], total: 1, page: 1, page_size: 1 }),
  });
  const navigateTo = jest.spyOn(Taro, 'navigateTo').mockImplementation((() => Promise.resolve()) as never);
  await mountPages('/pages/order/order-detail/order-detail?order_id=41');
  await press('Questions about this order? Chat with us ›');
  expect(navigateTo).toHaveBeenCalledWith({ url: '/pages/chat/chat?order_id=41' });
});

it('an administrator reaches the support desk from Mine', async () => {
  Taro.clearStorageSync();
  signIn(admin);
  fakeApi({ '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }) });
  const navigateTo = jest.spyOn(Taro, 'navigateTo').mockImplementation((() => Promise.resolve()) as never);
  Taro.redirectTo({ url: '/pages/mine/index/mine' });
  await waitForPath('/pages/mine/index/mine');
  await see('Support desk');
  await press('Answer customers as an agent');
  expect(navigateTo).toHaveBeenCalledWith({ url: '/pages/chat/chat2' });
});

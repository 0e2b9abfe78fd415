import { CONFIRM_CREATE_GOODS, CONFIRM_DELETE_GOODS } from '@/features/admin/confirm';
import { COLOUR_REQUIRED, IMAGE_REQUIRED, NAME_REQUIRED, PRICE_INVALID } from '@/features/admin/goods-form';
import { signIn } from '@/state/customer';
import Taro from '@tarojs/taro';
import {
  currentPageElement,
  demoAdmin,
  fakeApi,
  mountPages,
  ok,
  page,
  see,
  shows,
  tap,
  typeInto,
  waitForPath,
} from '../account/harness';

const admin = demoAdmin;
const black = { color_id: 1, color_name: 'Black', color_img: '', color_value: '#111111' };
const goods = {
  goods_id: 7,
  goods_name: 'Aviator Classic',
  goods_img: '/uploads/goods/a.png',
  goods_desc: '',
  shop_price: 120,
  discount: 80,
  final_price: 96,
  shown_discount: 20,
  category_id: null,
  filters: [],
  color_arr: [{ ...black, goods_color_img: [], stock: null }],
  lens_width: 0,
  bridge_width: 0,
  temple_length: 0,
  is_on_sale: true,
  created_at: 0,
};
let calls: ReturnType<typeof fakeApi>;
let modal: jest.SpyInstance;

beforeAll(async () => {
  Taro.clearStorageSync();
  signIn(admin);
  calls = fakeApi({
    '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
    '/api/admin/goods/list': ok({
      list: [goods, { ...goods, goods_id: 8, goods_name: 'Round Tortoise', is_on_sale: false }],
      total: 2,
      page: 1,
      page_size: 20,
    }),
    '/api/admin/article/list': ok({ list: [], total: 0, page: 1, page_size: 20 }),
    '/api/config/get_colors': ok([black, { color_id: 2, color_name: 'Gold', color_img: '', color_value: '#d4af37' }]),
    '/api/config/get_filters': ok([{ filter_id: 3, filter_name: 'Women', filter_img: '', type: 'Gender' }]),
    '/api/config/get_category_page': ok({ list: [], total: 0, page: 1, page_size: 100 }),
    '/api/goods/get_goods_by_id': ok(goods),
    '/api/goods/save_goods': (data: unknown) => ok({ ...goods, ...(data as object), goods_id: 9 }),
    '/api/goods/unlist_goods': (data: unknown) =>
      ok({ ...goods, is_on_sale: !(data as { unlisted: boolean }).unlisted }),
    '/api/goods/delete_goods': ok({ deleted: true }),
  });
  modal = jest.spyOn(Taro, 'showModal');
  jest.spyOn(Taro, 'chooseImage').mockResolvedValue({
    tempFilePaths: ['blob:front'],
    tempFiles: [{ path: 'blob:front', size: 10, originalFileObj: { name: 'front.png' } }],
    errMsg: 'chooseImage:ok',
  } as never);
  jest.spyOn(Taro, 'uploadFile').mockImplementation(((options: { fileName?: string; formData: { save_to: string } }) =>
    Promise.resolve({
      statusCode: 200,
      data: JSON.stringify(ok({ url: `/uploads/${options.formData.save_to.toLowerCase()}/${options.fileName}` })),
      errMsg: 'uploadFile:ok',
    })) as never);
  await mountPages('/pages/admin/edit-list');
});

const sent = (path: string) => calls.filter((call) => call.path === path).map((call) => call.data);

it('lists every frame with its price and listing state, from the admin list (unlisted ones too)', async () => {
  await see('Aviator Classic');
  expect(shows('Round Tortoise')).toBe(true);
  expect(shows('96.00')).toBe(true);
  expect(shows('Unlisted')).toBe(true);
  expect(shows('Glasses (2)')).toBe(true);
  expect(sent('/api/admin/goods/list')[0]).toEqual({ page: 1, page_size: 20 });
  await tap('Articles (0)');
  await see('No articles yet');
  await tap('Glasses (2)');
});

it('checks a new frame field by field before anything is sent', async () => {
  await tap('+ New glasses');
  await waitForPath('/pages/admin/product-edit');
  await see('Create glasses');
  await typeInto(page(), 'shop_price', '12.345');
  await tap('Create glasses');
  await see(NAME_REQUIRED);
  expect(shows(IMAGE_REQUIRED)).toBe(true);
  expect(shows(PRICE_INVALID)).toBe(true);
  expect(shows(COLOUR_REQUIRED)).toBe(true);
  expect(sent('/api/goods/save_goods')).toHaveLength(0);
});

it('uploads the image, shows the price the shopper pays and creates after the confirmation', async () => {
  await typeInto(page(), 'goods_name', 'Cat Eye Rose');
  await typeInto(page(), 'shop_price', '150');
  await typeInto(page(), 'discount', '90');
  await see('Shoppers pay 135.00 (10% off)');
  await tap('Upload');
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(currentPageElement().querySelector('.image-strip__image')).not.toBeNull();
  await tap('Gold');
  await tap('Women');
  modal.mockResolvedValueOnce({ confirm: false, cancel: true, errMsg: 'showModal:ok' });
  await tap('Create glasses');
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(modal).toHaveBeenLastCalledWith(expect.objectContaining({ content: CONFIRM_CREATE_GOODS }));
  expect(sent('/api/goods/save_goods')).toHaveLength(0);
  modal.mockResolvedValueOnce({ confirm: true, cancel: false, errMsg: 'showModal:ok' });
  await tap('Create glasses');
  await waitForPath('/pages/admin/product-edit');
  for (let i = 0; i < 100 && sent('/api/goods/save_goods').length === 0; i += 1)
    await new Promise((r) => setTimeout(r, 20));
  expect(sent('/api/goods/save_goods')[0]).toEqual({
    goods_name: 'Cat Eye Rose',
    goods_desc: '',
    goods_img: '/uploads/goods/front.png',
    shop_price: 150,
    discount: 90,
    category_id: null,
    filter_ids: [3],
    color_arr: [{ color_id: 2, goods_color_img: [], stock: null }],
    is_on_sale: true,
  });
});

it('unlists an existing frame and deletes it only after the confirmation', async () => {
  await see('Save changes');
  await tap('Unlist');
  await see('Put back on sale');
  expect(sent('/api/goods/unlist_goods').at(-1)).toEqual({ goods_id: 7, unlisted: true });
  modal.mockResolvedValueOnce({ confirm: false, cancel: true, errMsg: 'showModal:ok' });
  await tap('Delete glasses');
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(modal).toHaveBeenLastCalledWith(expect.objectContaining({ content: CONFIRM_DELETE_GOODS }));
  expect(sent('/api/goods/delete_goods')).toHaveLength(0);
  modal.mockResolvedValueOnce({ confirm: true, cancel: false, errMsg: 'showModal:ok' });
  await tap('Delete glasses');
  for (let i = 0; i < 100 && sent('/api/goods/delete_goods').length === 0; i += 1)
    await new Promise((r) => setTimeout(r, 20));
  expect(sent('/api/goods/delete_goods')).toEqual([{ goods_id: 7 }]);
});

/**
 * The try-on page's states and messages. jsdom has no 2D canvas, so the canvas module (src/features/tryon/canvas,
 * whose drawing runs for real in test/e2e/tryon.test.ts in Chromium) is replaced by a recorder here; everything
 * else — the page, the hook, the API calls through src/core/request — is the real code.
 */
import { imageUrl } from '@/core/request';
import { FRAME_UNREADABLE, NO_FACE, PHOTO_UNREADABLE, SAVED } from '@/features/tryon/api';
import * as canvas from '@/features/tryon/canvas';
import { signIn, signOut } from '@/state/customer';
import Taro from '@tarojs/taro';
import type { Answer } from '../../setup/mount-app';
import { fakeApi, mountPages, ok, refused, see, shows, tap, waitForPath } from '../account/harness';

jest.mock('@/features/tryon/canvas', () => ({
  findCanvas: jest.fn(async () => ({ width: 0, height: 0 })),
  loadImage: jest.fn(async (_canvas: unknown, src: string) => {
    if (src.includes('broken')) throw new Error(`the image ${src} cannot be loaded`);
    return { width: 800, height: 400, src };
  }),
  drawPhoto: jest.fn((target: { width: number; height: number }) => {
    target.width = 960;
    target.height = 640;
    return { data: new Uint8ClampedArray(4), width: 1, height: 1 };
  }),
  drawTryOn: jest.fn(),
  exportPicture: jest.fn(async () => ({ dataUrl: PICTURE, filePath: PICTURE })),
}));

const PICTURE = 'data:image/jpeg;base64,/9j/4AAQSkZJRg==';
const ada = { user_id: 2, email: 'ada@lensmate.test', nickname: 'Ada', avatar: '', is_admin: false, token: 'tok-ada' };
const FACE = {
  box: { x: 400, y: 200, width: 200, height: 220 },
  left_eye: { x: 450, y: 290 },
  right_eye: { x: 540, y: 294 },
  score: 0.93,
};

const colour = (id: number, name: string, image: string) => ({
  color_id: id,
  color_name: name,
  color_img: '',
  color_value: '#222222',
  goods_color_img: [image, `${image}-side`],
  stock: null,
});
const noor = {
  goods_id: 7,
  goods_name: 'Noor Geometric',
  goods_img: '/uploads/seed/noor-black.svg',
  color_arr: [colour(1, 'Black', '/uploads/seed/noor-black.svg'), colour(2, 'Rose', '/uploads/seed/noor-rose.svg')],
};
const ezra = {
  goods_id: 8,
  goods_name: 'Ezra Browline',
  goods_img: '/uploads/seed/ezra.svg',
  color_arr: [colour(4, 'Burgundy', '/uploads/seed/ezra.svg'), colour(5, 'Navy', '/uploads/seed/ezra-navy.svg')],
};
const broken = {
  ...ezra,
  goods_id: 9,
  goods_name: 'Broken Picture',
  goods_img: '/broken.svg',
  color_arr: [colour(6, 'Grey', '/broken.svg')],
};
/** A frame as get_goods_page lists it: no colour's pictures (the try-on draws another frame from its picture). */
const listed = (goods: typeof noor) => ({
  ...goods,
  color_arr: goods.color_arr.map(({ goods_color_img: _, color_img: __, ...rest }) => rest),
});

let faces: Answer<'POST /api/tryon/face_detect'> = ok({ faces: [] });
let calls: ReturnType<typeof fakeApi>;
const drawTryOn = canvas.drawTryOn as jest.Mock;
let chooseMedia: jest.SpyInstance;
let toast: jest.SpyInstance;

beforeAll(async () => {
  Taro.clearStorageSync();
  signIn(ada);
  calls = fakeApi({
    '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
    '/api/goods/get_goods_by_id': ok(noor),
    '/api/goods/get_goods_page': ok({ list: [noor, ezra, broken].map(listed), total: 3, page: 1, page_size: 7 }),
    '/api/tryon/face_detect': () => faces,
    '/api/upload/try_on_images': ok({ url: '/uploads/tryon/abc.jpg', file_name: 'abc.jpg', kind: 'image' }),
  });
  chooseMedia = jest.spyOn(Taro, 'chooseMedia').mockResolvedValue({
    tempFiles: [{ tempFilePath: 'blob:http://localhost/photo-1', size: 1000, fileType: 'image', duration: 0 }],
    type: 'image',
    errMsg: 'chooseMedia:ok',
  } as never);
  toast = jest.spyOn(Taro, 'showToast');
  await mountPages('/pages/tryon/tryon?id=7&color_id=2');
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

it('offers the product in the chosen colour first, its other colours, then other frames', async () => {
  await see('Rose');
  const names = Array.from(document.querySelectorAll('.tryon__frame')).map((frame) => frame.textContent);
  expect(names).toEqual(['Noor GeometricRose', 'Noor GeometricBlack', 'Ezra BrowlineBurgundy', 'Broken PictureGrey']);
  expect(document.querySelector('.tryon__frame--on')?.textContent).toBe('Noor GeometricRose');
  expect(shows('Save picture')).toBe(false);
});

it('says so when the photo has no face, and draws no frame', async () => {
  await tap('Choose from album');
  await see(NO_FACE);
  expect(chooseMedia).toHaveBeenLastCalledWith(
    expect.objectContaining({ sourceType: ['album'], mediaType: ['image'] }),
  );
  const sent = calls.filter((call) => call.path === '/api/tryon/face_detect');
  expect(sent).toHaveLength(1);
  expect(sent[0].data).toEqual({ image_base64: PICTURE });
  expect(sent[0].header).toMatchObject({ 'lensmate-token': 'tok-ada' });
  expect(drawTryOn).not.toHaveBeenCalled();
  expect(shows('Save picture')).toBe(false);
});

it('tells an unreadable photo apart from a missing face', async () => {
  faces = refused(400, 'image_base64: must be a JPEG or PNG image');
  await tap('Take another photo');
  await see(PHOTO_UNREADABLE);
  expect(chooseMedia).toHaveBeenLastCalledWith(expect.objectContaining({ sourceType: ['camera'], camera: 'front' }));
  expect(shows(NO_FACE)).toBe(false);
});

it('draws the chosen frame at the detected face', async () => {
  faces = ok({ faces: [FACE, { ...FACE, score: 0.6 }] });
  await tap('Choose from album');
  await see('Save picture');
  await settle();
  expect(drawTryOn).toHaveBeenCalledTimes(1);
  const [, , frame, face] = drawTryOn.mock.calls[0];
  expect(frame.src).toBe(imageUrl('/uploads/seed/noor-rose.svg'));
  expect(face).toEqual(FACE);
  expect(shows(PHOTO_UNREADABLE)).toBe(false);
});

it('switches to another frame on the same face', async () => {
  await tap('Burgundy');
  await settle();
  expect(drawTryOn).toHaveBeenCalledTimes(2);
  expect(drawTryOn.mock.calls[1][2].src).toBe(imageUrl('/uploads/seed/ezra.svg'));
  expect(drawTryOn.mock.calls[1][3]).toEqual(FACE);
  expect(document.querySelector('.tryon__frame--on')?.textContent).toBe('Ezra BrowlineBurgundy');
});

it('says when a frame picture cannot be loaded, and keeps the photo', async () => {
  await tap('Grey');
  await see(FRAME_UNREADABLE);
  expect(drawTryOn).toHaveBeenCalledTimes(2);
  await tap('Black');
  await settle();
  expect(shows(FRAME_UNREADABLE)).toBe(false);
  expect(drawTryOn.mock.calls[2][2].src).toBe(imageUrl('/uploads/seed/noor-black.svg'));
});

it('saves the picture (a download on H5) with 保存成功', async () => {
  await tap('Save picture');
  await settle();
  expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: SAVED }));
  expect(SAVED).toBe('保存成功');
});

it('shares the picture and shows its link', async () => {
  await tap('Share');
  await see('Your picture is online (link copied):');
  const shared = calls.filter((call) => call.path === '/api/upload/try_on_images');
  expect(shared).toHaveLength(1);
  expect(shared[0].data).toEqual({ file_name: 'try-on-7-1.jpg', image_base64: PICTURE });
  expect(shows(imageUrl('/uploads/tryon/abc.jpg'))).toBe(true);
});

it('sends a guest to login first', async () => {
  signOut();
  Taro.navigateTo({ url: '/pages/tryon/tryon?id=7' });
  await waitForPath('/pages/login/login');
});

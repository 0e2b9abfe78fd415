import { post } from '@/core/request';
import { failureMessage, fetchGoods, fetchGoodsPage } from '@/features/goods/api';
import { ALBUM_PERMISSION_DENIED } from '@/features/social/media';
import Taro from '@tarojs/taro';
import type { DetectedFace, Goods, GoodsCard } from '../../../types/api';
import { tryOnPlatform } from './platform';

/** shop-app.md §6, verbatim. */
export const SAVED = '保存成功';
export const SAVE_FAILED = '保存失败';
export { ALBUM_PERMISSION_DENIED };

export const NO_FACE = 'No face found in this photo. Use a photo facing the camera with both eyes visible.';
export const DETECT_FAILED = 'The photo could not be checked, please try again';
export const PHOTO_UNREADABLE = 'This photo cannot be opened. Choose a JPEG or PNG photo.';
export const FRAME_UNREADABLE = 'This frame picture cannot be loaded, choose another frame';
export const SHARE_FAILED = 'The picture could not be shared, please try again';
export const FRAMES_FAILED = 'The frames could not be loaded.';

/** How many frames besides the product's own colours the page offers. */
export const OTHER_FRAMES = 6;

/** One frame to try: a frame in one colour, drawn from that colour's first picture. */
export interface FrameChoice {
  key: string;
  goodsId: number;
  colorId: number;
  name: string;
  colorName: string;
  colorValue: string;
  image: string;
}

function choicesOf(
  goods: Goods | GoodsCard,
  colours: { color_id: number; color_name: string; color_value: string }[],
  image: (index: number) => string | undefined,
): FrameChoice[] {
  return colours.map((colour, index) => ({
    key: `${goods.goods_id}-${colour.color_id}`,
    goodsId: goods.goods_id,
    colorId: colour.color_id,
    name: goods.goods_name,
    colorName: colour.color_name,
    colorValue: colour.color_value,
    image: image(index) || goods.goods_img,
  }));
}

/**
 * The frames to try: every colour of the product (the chosen colour first), then the first colour of a few
 * other frames of the shop. Without a product, only the shop's frames.
 */
export async function loadFrameChoices(goodsId: number, colorId: number): Promise<FrameChoice[]> {
  const [product, others] = await Promise.all([
    goodsId > 0 ? fetchGoods(goodsId) : Promise.resolve(null),
    fetchGoodsPage({ page: 1, page_size: OTHER_FRAMES + 1 }).then((page) => page.list),
  ]);
  const own = product
    ? choicesOf(product, product.color_arr, (index) => product.color_arr[index].goods_color_img[0])
    : [];
  const chosen = own.findIndex((choice) => choice.colorId === colorId);
  if (chosen > 0) own.unshift(...own.splice(chosen, 1));
  const rest = others
    .filter((goods) => goods.goods_id !== goodsId && goods.color_arr.length > 0)
    .slice(0, OTHER_FRAMES)
    .flatMap((goods) => choicesOf(goods, goods.color_arr.slice(0, 1), () => goods.goods_img));
  return [...own, ...rest];
}

/** The faces in a photo (base64 or a data URL), best first, in its pixels. */
export async function detectFaces(imageBase64: string): Promise<DetectedFace[]> {
  const found = await post('/api/tryon/face_detect', { image_base64: imageBase64 });
  return found.faces;
}

/** A failure of face_detect as the shopper reads it: an unreadable photo, or the server's message. */
export function detectFailure(failure: unknown): string {
  const message = failureMessage(failure, DETECT_FAILED);
  return message.startsWith('image_base64: ') ? PHOTO_UNREADABLE : message;
}

/** Uploads the try-on picture for sharing; answers its URL. */
export async function shareTryOn(fileName: string, imageBase64: string): Promise<string> {
  const uploaded = await post('/api/upload/try_on_images', {
    file_name: fileName,
    image_base64: imageBase64,
  });
  return uploaded.url;
}

/** The name of a try-on picture, e.g. try-on-12-3.jpg. */
export function tryOnFileName(choice: Pick<FrameChoice, 'goodsId' | 'colorId'>): string {
  return `try-on-${choice.goodsId}-${choice.colorId}.jpg`;
}

function errMsg(error: unknown): string {
  return typeof error === 'object' && error !== null && 'errMsg' in error
    ? String((error as { errMsg: unknown }).errMsg)
    : String(error);
}

/** weapp's refusals read e.g. "saveImageToPhotosAlbum:fail auth deny" or "…:fail authorize no response". */
function denied(error: unknown): boolean {
  return /auth|permission|den(y|ied)/i.test(errMsg(error));
}

/** What a failed saveImageToPhotosAlbum means to the shopper: a refused album permission, or a failed save. */
export function saveFailure(error: unknown): string {
  return denied(error) ? ALBUM_PERMISSION_DENIED : SAVE_FAILED;
}

/** Saves the picture to the album (a download on H5) and tells the shopper how it went; answers the toast shown. */
export async function savePicture(filePath: string, fileName: string): Promise<string> {
  let title = SAVED;
  try {
    await tryOnPlatform.keepPicture(filePath, fileName);
  } catch (error) {
    title = saveFailure(error);
  }
  void Taro.showToast({ title, icon: title === SAVED ? 'success' : 'none', duration: 2500 });
  return title;
}

/**
 * Lets the shopper take a photo (front camera) or choose one from the album; answers its path, or '' when
 * cancelled. A refused permission says so.
 */
export async function pickPhoto(source: 'camera' | 'album'): Promise<string> {
  try {
    const chosen = await Taro.chooseMedia({
      count: 1,
      mediaType: ['image'],
      sourceType: [source],
      sizeType: ['compressed'],
      camera: 'front',
    });
    return chosen.tempFiles[0]?.tempFilePath ?? '';
  } catch (error) {
    if (/cancel/i.test(errMsg(error))) return '';
    void Taro.showToast({
      title: denied(error) ? ALBUM_PERMISSION_DENIED : PHOTO_UNREADABLE,
      icon: 'none',
      duration: 2500,
    });
    return '';
  }
}

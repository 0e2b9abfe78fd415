import { readStorage } from '@/core/storage';
import Taro from '@tarojs/taro';
import { atomWithStorage } from 'jotai/utils';
import { taroStorage } from './taro-storage';

/** The shop logo URL under the storage key `logo`, refreshed from shop_config's shop_logo at app start. */
export const logoAtom = atomWithStorage<string>('logo', '', taroStorage<string>(), { getOnInit: true });

/** Shown at app start while the `imgPublish` flag is absent (shop-app.md §4 and §8). */
export const IMAGES_UPLOADING_TOAST = '图片正在上传中…';

export function announcePendingImageUploads(): void {
  if (readStorage('imgPublish') === undefined) {
    Taro.showToast({ title: IMAGES_UPLOADING_TOAST, icon: 'none', duration: 2000 });
  }
}

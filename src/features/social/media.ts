import { readStorage, writeStorage } from '@/core/storage';
import { isImageFile, isVideoFile } from '@/utils/media';
import Taro from '@tarojs/taro';

export const ALBUM_PERMISSION_DENIED = '未授权访问相册权限，请授权后使用';
export const MEDIA_PERMISSION_DENIED = '未授权访问媒体权限，请授权后使用';
export const UNSUPPORTED_IMAGE = 'Choose a jpg, jpeg, png, gif, bmp, webp, apng, avif or svg image';
export const UNSUPPORTED_VIDEO = 'Choose an mp4, webm, avi or mov video';
/** A chat's video types (CHAT_VIDEO_EXTENSIONS): the messaging SDK sends no webm. */
export const UNSUPPORTED_CHAT_VIDEO = 'Choose an mp4, avi or mov video';

/** A file the user picked: a local path for upload and, on H5, the original name (blob URLs have none). */
export interface PickedFile {
  path: string;
  name: string;
  size: number;
  /** On H5, the browser File the user chose. */
  blob?: Blob;
  /** A video's poster frame as a local path, where the platform gives one (the mini-program's `thumbTempFilePath`). */
  poster?: string;
  /** A video's size in pixels, where known. */
  width?: number;
  height?: number;
}

function denied(error: unknown): boolean {
  const message =
    typeof error === 'object' && error !== null && 'errMsg' in error
      ? String((error as { errMsg: unknown }).errMsg)
      : String(error);
  return /auth|permission|deny|denied/i.test(message);
}

function cancelled(error: unknown): boolean {
  const message =
    typeof error === 'object' && error !== null && 'errMsg' in error
      ? String((error as { errMsg: unknown }).errMsg)
      : String(error);
  return /cancel/i.test(message);
}

export function toast(title: string): void {
  void Taro.showToast({ title, icon: 'none', duration: 2500 });
}

type ChosenFile = { path: string; size: number; originalFileObj?: Blob & { name?: string } };

function toPicked(file: ChosenFile): PickedFile {
  const name = file.originalFileObj?.name || file.path.split('/').pop() || file.path;
  return { path: file.path, name, size: file.size, ...(file.originalFileObj ? { blob: file.originalFileObj } : {}) };
}

/**
 * Lets the user pick images from the album or camera. A refused permission shows the album message;
 * files that are not accepted images are dropped with a message.
 */
export async function pickImages(count: number): Promise<PickedFile[]> {
  try {
    const result = await Taro.chooseImage({ count, sizeType: ['compressed'], sourceType: ['album', 'camera'] });
    const files = result.tempFiles.map((file) => toPicked(file as ChosenFile));
    const accepted = files.filter((file) => isImageFile(file.name) || !file.name.includes('.'));
    if (accepted.length < files.length) toast(UNSUPPORTED_IMAGE);
    return accepted;
  } catch (error) {
    if (denied(error)) toast(ALBUM_PERMISSION_DENIED);
    else if (!cancelled(error)) console.error('chooseImage failed', error);
    return [];
  }
}

/** Lets the user pick one video; a refused permission shows the media message. */
export async function pickVideo(): Promise<PickedFile | null> {
  try {
    const result = await Taro.chooseVideo({ sourceType: ['album', 'camera'], compressed: true });
    const file = result as unknown as {
      tempFilePath: string;
      size: number;
      originalFileObj?: Blob & { name?: string };
      thumbTempFilePath?: string;
      width?: number;
      height?: number;
    };
    const picked = toPicked({ path: file.tempFilePath, size: file.size, originalFileObj: file.originalFileObj });
    if (file.thumbTempFilePath) picked.poster = file.thumbTempFilePath;
    if (file.width && file.height) Object.assign(picked, { width: file.width, height: file.height });
    if (picked.name.includes('.') && !isVideoFile(picked.name)) {
      toast(UNSUPPORTED_VIDEO);
      return null;
    }
    return picked;
  } catch (error) {
    if (denied(error)) toast(MEDIA_PERMISSION_DENIED);
    else if (!cancelled(error)) console.error('chooseVideo failed', error);
    return null;
  }
}

let uploadsRunning = 0;

/**
 * Runs an image upload with the `imgPublish` storage flag set while any upload runs (shop-app.md §3, §4),
 * so the app start can tell whether image publishing was left in progress.
 */
export async function publishing<T>(work: () => Promise<T>): Promise<T> {
  uploadsRunning += 1;
  writeStorage('imgPublish', true);
  try {
    return await work();
  } finally {
    uploadsRunning -= 1;
    if (uploadsRunning === 0) writeStorage('imgPublish', false);
  }
}

export function imagesPublishing(): boolean {
  return readStorage('imgPublish') === true;
}

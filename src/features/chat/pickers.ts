import { MEDIA_PERMISSION_DENIED, pickImages, pickVideo } from '@/features/social/media';
import Taro from '@tarojs/taro';
import type { MediaKind, PickedMedia } from './use-conversation';

/** What the message types accept (messaging.md): the SDK checks again and names the same lists. */
export const AUDIO_EXTENSIONS = ['mp3', 'ogg', 'wav', 'wma', 'ape', 'acc', 'mpeg'];

function errorText(error: unknown): string {
  return typeof error === 'object' && error !== null && 'errMsg' in error
    ? String((error as { errMsg: unknown }).errMsg)
    : String(error);
}

/** H5 has no chooseMessageFile: a file input does the same, resolving null when the user cancels. */
function pickInBrowser(accept: string): Promise<PickedMedia | null> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = accept;
    input.style.display = 'none';
    const finish = (picked: PickedMedia | null) => {
      input.remove();
      resolve(picked);
    };
    input.addEventListener('change', () => {
      const file = input.files?.[0];
      finish(file ? { path: URL.createObjectURL(file), name: file.name, size: file.size, blob: file } : null);
    });
    input.addEventListener('cancel', () => finish(null));
    document.body.appendChild(input);
    input.click();
  });
}

/** A file from a chat (weapp) or the device (H5); a refused permission shows the media message. */
async function pickFile(kind: 'audio' | 'file'): Promise<PickedMedia | null> {
  if (process.env.TARO_ENV === 'h5') return pickInBrowser(kind === 'audio' ? 'audio/*' : '*/*');
  try {
    const result = await Taro.chooseMessageFile({
      count: 1,
      type: 'file',
      ...(kind === 'audio' ? { extension: AUDIO_EXTENSIONS } : {}),
    });
    const [file] = result.tempFiles;
    return file ? { path: file.path, name: file.name, size: file.size } : null;
  } catch (error) {
    const message = errorText(error);
    if (/auth|permission|deny|denied/i.test(message)) {
      void Taro.showToast({ title: MEDIA_PERMISSION_DENIED, icon: 'none', duration: 2500 });
    } else if (!/cancel/i.test(message)) {
      console.error('chooseMessageFile failed', error);
    }
    return null;
  }
}

/**
 * Lets the user pick what a media message carries. Images come from the album or camera (a refusal shows the
 * album message); videos, audio and files from the media pickers (a refusal shows the media message).
 */
export async function pickMedia(kind: MediaKind): Promise<PickedMedia | null> {
  if (kind === 'image') return (await pickImages(1))[0] ?? null;
  if (kind === 'video') return pickVideo();
  return pickFile(kind);
}

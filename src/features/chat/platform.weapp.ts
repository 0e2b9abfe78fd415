import { MEDIA_PERMISSION_DENIED, pickVideo } from '@/features/social/media';
import Taro from '@tarojs/taro';
import { LOCATION_DENIED, isPlace } from './location';
import type { ChatPlatform } from './platform';

/** What the audio message type accepts (messaging.md): the SDK checks again and names the same list. */
const AUDIO_EXTENSIONS = ['mp3', 'ogg', 'wav', 'wma', 'ape', 'acc', 'mpeg'];

function errorText(error: unknown): string {
  return typeof error === 'object' && error !== null && 'errMsg' in error
    ? String((error as { errMsg: unknown }).errMsg)
    : String(error);
}

const refused = (message: string) => /auth|permission|deny|denied/i.test(message);

/**
 * WeChat: files come from a chat (chooseMessageFile), open in its document viewer, places are picked and shown
 * on its map; the mini-program has no local notifications (the conversation list and the tab badge carry them).
 */
export const chatPlatform: ChatPlatform = {
  // chooseVideo gives the poster with the video (`thumbTempFilePath`) and its size.
  pickVideo,

  async pickFile(kind) {
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
      if (refused(message)) {
        void Taro.showToast({ title: MEDIA_PERMISSION_DENIED, icon: 'none', duration: 2500 });
      } else if (!/cancel/i.test(message)) {
        console.error('chooseMessageFile failed', error);
      }
      return null;
    }
  },

  openFile(url) {
    Taro.downloadFile({ url })
      .then((result) => Taro.openDocument({ filePath: result.tempFilePath, showMenu: true }))
      .catch(() => Taro.showToast({ title: 'This file cannot be opened', icon: 'none' }));
  },

  notify: () => false,

  notificationPermission: () => 'unsupported',

  requestNotificationPermission: () => Promise.resolve('unsupported'),

  siteOrigin: () => '',

  async pickPlaceOnMap() {
    try {
      const result = await Taro.chooseLocation({});
      const place = {
        name: result.name || result.address || 'Pinned location',
        address: result.address ?? '',
        latitude: result.latitude,
        longitude: result.longitude,
      };
      return isPlace(place) ? place : null;
    } catch (error) {
      if (refused(errorText(error))) {
        void Taro.showToast({ title: LOCATION_DENIED, icon: 'none', duration: 2500 });
      }
      return null;
    }
  },

  showPlaceOnMap(place) {
    Taro.openLocation({ ...place, scale: 17 }).catch(() => undefined);
  },

  mapOnArrival: true,
};

import { UNSUPPORTED_CHAT_VIDEO } from '@/features/social/media';
import { isChatVideoFile } from '@/utils/media';
import Taro from '@tarojs/taro';
import { mapLink } from './location';
import type { ChatPlatform } from './platform';
import type { PickedMedia } from './use-conversation';

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

/** How long the browser may take to open a video and seek to its poster frame before the message goes without one. */
const POSTER_TIMEOUT_MS = 5000;

/**
 * The video's frame at 0.1 s (the very first is often black) drawn on a canvas at the video's own size, as a JPEG
 * blob URL; null when the browser cannot decode the video (the server's snapshot is the poster then).
 */
function posterOf(video: PickedMedia): Promise<{ path: string; width: number; height: number } | null> {
  const element = document.createElement('video');
  // A video this browser cannot play gives no frame: no need to wait for one.
  if (!element.canPlayType(video.blob?.type || 'video/mp4')) return Promise.resolve(null);
  return new Promise((resolve) => {
    let done = false;
    const finish = (poster: { path: string; width: number; height: number } | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      element.removeAttribute('src');
      element.load();
      resolve(poster);
    };
    const timer = setTimeout(() => finish(null), POSTER_TIMEOUT_MS);
    element.muted = true;
    element.preload = 'auto';
    element.playsInline = true;
    element.addEventListener('error', () => finish(null));
    const draw = () => {
      const canvas = document.createElement('canvas');
      canvas.width = element.videoWidth;
      canvas.height = element.videoHeight;
      const context = canvas.getContext('2d');
      if (!context || canvas.width === 0 || canvas.height === 0) return finish(null);
      context.drawImage(element, 0, 0, canvas.width, canvas.height);
      const { width, height } = canvas;
      canvas.toBlob(
        (blob) => finish(blob ? { path: URL.createObjectURL(blob), width, height } : null),
        'image/jpeg',
        0.85,
      );
    };
    element.addEventListener('loadeddata', () => {
      // A recording without an index (a MediaRecorder's has no duration) is not seekable: its first frame.
      if (!Number.isFinite(element.duration) || element.duration < 0.2) return draw();
      element.addEventListener('seeked', draw, { once: true });
      element.currentTime = 0.1;
    });
    element.src = video.path;
  });
}

/** The browser: a file input, a new tab for files and maps, and notifications when the user has allowed them. */
export const chatPlatform: ChatPlatform = {
  pickFile: (kind) => pickInBrowser(kind === 'audio' ? 'audio/*' : '*/*'),

  // Not Taro's chooseVideo: on H5 it resolves only on `canplay` of a metadata-only preload (through it, the MP4 of
  // test/e2e/chat-video.test.ts was never sent), and it swaps the blob URL for a base64 data URL of the whole video.
  // A file input, as for files, and a frame drawn here.
  async pickVideo() {
    const video = await pickInBrowser('video/*');
    if (!video) return null;
    if (!isChatVideoFile(video.name)) {
      void Taro.showToast({ title: UNSUPPORTED_CHAT_VIDEO, icon: 'none', duration: 2500 });
      return null;
    }
    const poster = await posterOf(video);
    return poster ? { ...video, poster: poster.path, width: poster.width, height: poster.height } : video;
  },

  openFile(url) {
    window.open(url, '_blank', 'noopener');
  },

  notify({ title, body, tag }, open) {
    const BrowserNotification = window.Notification;
    if (!BrowserNotification || BrowserNotification.permission !== 'granted') return false;
    const shown = new BrowserNotification(title, { body, tag });
    shown.onclick = () => {
      window.focus();
      shown.close();
      open();
    };
    return true;
  },

  notificationPermission() {
    const BrowserNotification = window.Notification;
    return BrowserNotification ? BrowserNotification.permission : 'unsupported';
  },

  async requestNotificationPermission() {
    const BrowserNotification = window.Notification;
    if (!BrowserNotification) return 'unsupported';
    return BrowserNotification.requestPermission();
  },

  siteOrigin: () => window.location?.origin ?? '',

  // The browser has no map picker: the choose-location page's form and recent places are the way in.
  pickPlaceOnMap: null,

  showPlaceOnMap(place) {
    window.open(mapLink(place.latitude, place.longitude), '_blank', 'noopener');
  },

  mapOnArrival: false,
};

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

/** The browser: a file input, a new tab for files and maps, and notifications when the user has allowed them. */
export const chatPlatform: ChatPlatform = {
  pickFile: (kind) => pickInBrowser(kind === 'audio' ? 'audio/*' : '*/*'),

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

  siteOrigin: () => window.location?.origin ?? '',

  // The browser has no map picker: the choose-location page's form and recent places are the way in.
  pickPlaceOnMap: null,

  showPlaceOnMap(place) {
    window.open(mapLink(place.latitude, place.longitude), '_blank', 'noopener');
  },

  mapOnArrival: false,
};

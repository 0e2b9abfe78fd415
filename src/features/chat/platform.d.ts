import type { Place } from './location';
import type { PickedMedia } from './use-conversation';

/** A notification for a message that arrived while its conversation was off screen. */
export interface IncomingNotification {
  title: string;
  body: string;
  /** One notification per conversation: a newer one replaces it. */
  tag: string;
}

export type NotificationPermissionState = 'default' | 'granted' | 'denied' | 'unsupported';

/**
 * What the chat needs from the device, one file per platform: `platform.weapp.ts` (WeChat's pickers, document
 * viewer and map) and `platform.h5.ts` (the browser's file input, tabs and notifications).
 */
export interface ChatPlatform {
  /** An audio clip or any file for a media message; null when the user cancels or a refused permission was shown. */
  pickFile(kind: 'audio' | 'file'): Promise<PickedMedia | null>;
  /**
   * A video for a video message with its poster frame and size where they can be had (weapp: chooseVideo's
   * `thumbTempFilePath`; H5: a JPEG of an early frame drawn on a canvas); null when the user cancels.
   */
  pickVideo(): Promise<PickedMedia | null>;
  /** Opens the file of a file message. */
  openFile(url: string): void;
  /** Shows a system notification that opens the conversation when tapped; false when none can be shown here. */
  notify(notification: IncomingNotification, open: () => void): boolean;
  /**
   * Whether system notifications may be shown: the user's answer so far ('default' until asked), or
   * 'unsupported' where the platform has none the app can ask for.
   */
  notificationPermission(): NotificationPermissionState;
  /** Asks the user (on H5 the browser's prompt, so only from a tap after the reason is shown); resolves with the answer. */
  requestNotificationPermission(): Promise<NotificationPermissionState>;
  /** The origin the app was loaded from, the messaging server's last default; '' where there is none. */
  siteOrigin(): string;
  /** The platform's map picker; null where places are only typed in. */
  pickPlaceOnMap: (() => Promise<Place | null>) | null;
  /** Shows a place on the platform's map. */
  showPlaceOnMap(place: Place): void;
  /** Whether the open-location page hands over to the map at once (WeChat's map is a page of its own). */
  mapOnArrival: boolean;
}

export declare const chatPlatform: ChatPlatform;

/** Accepted upload types of shop-app.md §5. */

export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'bmp', 'webp', 'apng', 'avif', 'svg'] as const;
export const VIDEO_EXTENSIONS = ['mp4', 'webm', 'avi', 'mov'] as const;

/** The lower-case extension of a file name, path or URL ('' when it has none); query and hash are ignored. */
export function fileExtension(name: string): string {
  const path = name.split(/[?#]/)[0];
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

export function isImageFile(name: string): boolean {
  return (IMAGE_EXTENSIONS as readonly string[]).includes(fileExtension(name));
}

export function isVideoFile(name: string): boolean {
  return (VIDEO_EXTENSIONS as readonly string[]).includes(fileExtension(name));
}

/**
 * The videos a chat can send: the shop's video types that the messaging SDK also sends (messaging.md §5 has no
 * webm; the SDK refuses it), so the chat refuses a webm at the picker instead of after it.
 */
export const CHAT_VIDEO_EXTENSIONS = ['mp4', 'avi', 'mov'] as const;

export function isChatVideoFile(name: string): boolean {
  return (CHAT_VIDEO_EXTENSIONS as readonly string[]).includes(fileExtension(name));
}

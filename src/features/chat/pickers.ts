import { pickImages } from '@/features/social/media';
import { chatPlatform } from './platform';
import type { MediaKind, PickedMedia } from './use-conversation';

/**
 * Lets the user pick what a media message carries. Images come from the album or camera (a refusal shows the
 * album message); videos, with their poster frame, from the platform's video picker; audio and files from the
 * platform's file picker (a chat's files on weapp, the device on H5; a refusal shows the media message).
 */
export async function pickMedia(kind: MediaKind): Promise<PickedMedia | null> {
  if (kind === 'image') return (await pickImages(1))[0] ?? null;
  if (kind === 'video') return chatPlatform.pickVideo();
  return chatPlatform.pickFile(kind);
}

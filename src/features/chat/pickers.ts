import { UNSUPPORTED_CHAT_VIDEO, pickImages, toast } from '@/features/social/media';
import { isChatVideoFile } from '@/utils/media';
import { chatPlatform } from './platform';
import type { MediaKind, PickedMedia } from './use-conversation';

/**
 * Lets the user pick what a media message carries. Images come from the album or camera (a refusal shows the
 * album message); videos, with their poster frame, from the platform's video picker; audio and files from the
 * platform's file picker (a chat's files on weapp, the device on H5; a refusal shows the media message).
 */
export async function pickMedia(kind: MediaKind): Promise<PickedMedia | null> {
  if (kind === 'image') return (await pickImages(1))[0] ?? null;
  if (kind === 'video') {
    const video = await chatPlatform.pickVideo();
    // The mini-program's picker takes any video its camera or album has (a webm too): the chat sends what the SDK
    // accepts. A path without an extension is left to the SDK (which then names the types).
    if (video?.name.includes('.') && !isChatVideoFile(video.name)) {
      toast(UNSUPPORTED_CHAT_VIDEO);
      return null;
    }
    return video;
  }
  return chatPlatform.pickFile(kind);
}

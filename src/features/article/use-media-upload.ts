import { refusal } from '@/features/social/api';
import { type PickedFile, publishing } from '@/features/social/media';
import Taro from '@tarojs/taro';
import { useState } from 'react';
import { uploadArticleMedia } from './api';

/** Uploads picked files one after another with the imgPublish flag set; failures show a toast and are skipped. */
export function useMediaUpload(
  uploadFile: (file: PickedFile) => Promise<{ url: string }> = (file) => uploadArticleMedia(file.path, file.name),
) {
  const [uploading, setUploading] = useState(0);
  const uploadAll = async (files: PickedFile[]): Promise<string[]> => {
    if (files.length === 0) return [];
    setUploading((count) => count + files.length);
    const urls: string[] = [];
    await publishing(async () => {
      for (const file of files) {
        try {
          urls.push((await uploadFile(file)).url);
        } catch (reason) {
          void Taro.showToast({ title: refusal(reason, 'The upload failed'), icon: 'none', duration: 2500 });
        } finally {
          setUploading((count) => count - 1);
        }
      }
    });
    return urls;
  };
  return { uploading: uploading > 0, uploadAll };
}

import type { DetectedFace, UploadResult } from '../../types/api';
import type { AppContext } from '../context';
import { ApiError } from '../http';
import { FaceDetectorFailed } from './face-detector';
import { ImageUnreadable } from './faces';
import { storeOrRefuse } from './media';
import { storeUpload } from './uploads';

const TRY_ON_EXTENSIONS = ['jpg', 'jpeg', 'png', 'webp'];

/** Raw base64 or a data: URL, decoded; a 400 naming the field when it is not base64 or too large. */
function decodeBase64(ctx: AppContext, value: string): Buffer {
  const encoded = value.replace(/^data:[\w/+.-]+;base64,/, '');
  if (!/^[A-Za-z0-9+/=\s]+$/.test(encoded)) throw new ApiError(400, 'image_base64: must be base64');
  const buffer = Buffer.from(encoded, 'base64');
  if (buffer.length > ctx.config.maxUploadBytes) {
    throw new ApiError(400, `image_base64: larger than ${Math.round(ctx.config.maxUploadBytes / 1024 / 1024)} MB`);
  }
  return buffer;
}

/** face_detect: the faces and eyes the detector finds in a photo. */
export async function detectFaces(ctx: AppContext, imageBase64: string): Promise<DetectedFace[]> {
  try {
    return await ctx.faces.detect(decodeBase64(ctx, imageBase64));
  } catch (error) {
    if (error instanceof ImageUnreadable) throw new ApiError(400, `image_base64: ${error.message}`);
    if (error instanceof FaceDetectorFailed) {
      throw new ApiError(503, `Face detection is unavailable (${error.message}), please try again`);
    }
    throw error;
  }
}

/** try_on_images: a try-on picture stored as a jpg, png or webp. */
export function storeTryOnImage(ctx: AppContext, fileName: string, imageBase64: string): Promise<UploadResult> {
  const buffer = decodeBase64(ctx, imageBase64);
  return storeOrRefuse(
    () => storeUpload(ctx.config.uploadDir, 'tryon', fileName, buffer, TRY_ON_EXTENSIONS),
    'file_name',
  );
}

import type { UploadResult } from '../../types/api';
import type { UserRow } from '../auth';
import type { AppContext } from '../context';
import { ApiError, MSG } from '../http';
import { IMAGE_EXTENSIONS, UploadRejected, prescriptionFolder, storeUpload, uploadUrlReader } from './uploads';

export interface UploadedPart {
  name: string;
  buffer: Buffer;
}

/**
 * save_goods_media_files: any signed-in user stores an avatar or a prescription photo (images only); goods and
 * article media are staff's. Prescription photos are private: each user's in a folder of their own, answered as a
 * signed, expiring URL.
 */
export async function storeMedia(
  ctx: AppContext,
  user: UserRow,
  saveTo: string | undefined,
  file: UploadedPart | undefined,
): Promise<UploadResult> {
  if (!saveTo) throw new ApiError(400, 'save_to: is required');
  if (!/^[A-Z_]{2,30}$/.test(saveTo))
    throw new ApiError(400, 'save_to: must be MYPRESCRIPTION, GOODS, ARTICLE or AVATAR');
  if (!file) throw new ApiError(400, 'file: is required');
  const forAnyUser = saveTo === 'MYPRESCRIPTION' || saveTo === 'AVATAR';
  if (!forAnyUser && user.is_admin !== 1) throw new ApiError(403, MSG.adminOnly);
  const folder = saveTo === 'MYPRESCRIPTION' ? prescriptionFolder(user.id) : saveTo.toLowerCase();
  const allowed = forAnyUser ? IMAGE_EXTENSIONS : undefined;
  const stored = await storeOrRefuse(() => storeUpload(ctx.config.uploadDir, folder, file.name, file.buffer, allowed));
  return { ...stored, url: uploadUrlReader(ctx.config, ctx.now)(stored.url) };
}

/** upload_image (social): an image for albums and avatars, any signed-in user. */
export function storeSocialImage(ctx: AppContext, file: UploadedPart | undefined): Promise<UploadResult> {
  if (!file) throw new ApiError(400, 'file: is required');
  return storeOrRefuse(() => storeUpload(ctx.config.uploadDir, 'social', file.name, file.buffer, IMAGE_EXTENSIONS));
}

/** A refused file is a 400 naming the field. */
export async function storeOrRefuse<T>(store: () => Promise<T>, field = 'file'): Promise<T> {
  try {
    return await store();
  } catch (error) {
    if (error instanceof UploadRejected) {
      throw new ApiError(400, field === 'file' ? error.message : error.message.replace(/^file:/, `${field}:`));
    }
    throw error;
  }
}

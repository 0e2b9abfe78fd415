import Taro from '@tarojs/taro';
import { type Connection, WRITE } from './connection';
import { messagingError } from './errors';
import type { AudioPayload, FilePayload, ImagePayload, Payload, VideoPayload } from './model';
import { ErrorCode } from './protocol';
import * as Call from './protocol/calls';
import * as Limits from './protocol/limits';
import * as Text from './protocol/texts';
import { type FileKind, type MediaFile, isPlainObject } from './validate';

export const THUMBNAIL_HEIGHT = Limits.THUMBNAIL_HEIGHT;

interface AliToken {
  vendor: 'ALI';
  host: string;
  dir: string;
  accessKeyId: string;
  policy: string;
  signature: string;
  newFilename: string;
}

interface TxToken {
  vendor: 'TX';
  host: string;
  key: string;
  qSignAlgorithm: string;
  qAk: string;
  qKeyTime: string;
  qSignature: string;
  policy: string;
  xCosSecurityToken: string;
}

type UploadToken = AliToken | TxToken;

/** The form a storage vendor expects, and where the file is afterwards. */
export function uploadForm(
  token: UploadToken,
  attachmentName?: string,
): { host: string; formData: Record<string, string>; url: string } {
  // A plain file downloads under its own name instead of opening in the browser.
  const disposition: Record<string, string> = attachmentName
    ? { 'Content-Disposition': `attachment;filename=${attachmentName}` }
    : {};
  if (token.vendor === 'ALI') {
    const key = `${token.dir}/${token.newFilename}`;
    return {
      host: token.host,
      url: `${token.host}/${key}`,
      formData: {
        key,
        OSSAccessKeyId: token.accessKeyId,
        policy: token.policy,
        signature: token.signature,
        success_action_status: '200',
        ...disposition,
      },
    };
  }
  return {
    host: token.host,
    url: `${token.host}/${token.key}`,
    formData: {
      key: token.key,
      'q-sign-algorithm': token.qSignAlgorithm,
      'q-ak': token.qAk,
      'q-key-time': token.qKeyTime,
      'q-signature': token.qSignature,
      policy: token.policy,
      'x-cos-security-token': token.xCosSecurityToken,
      success_action_status: '200',
      ...disposition,
    },
  };
}

/** Vendor-side image processing: a thumbnail at most 200 high, and a video's first frame. */
export function thumbnailUrl(vendor: 'ALI' | 'TX', url: string): string {
  return vendor === 'ALI'
    ? `${url}?x-oss-process=image/resize,h_${THUMBNAIL_HEIGHT}`
    : `${url}?imageMogr2/thumbnail/x${THUMBNAIL_HEIGHT}`;
}

export function videoSnapshotUrl(vendor: 'ALI' | 'TX', url: string, width: number): string {
  return vendor === 'ALI'
    ? `${url}?x-oss-process=video/snapshot,t_0,f_jpg,w_${width},h_${THUMBNAIL_HEIGHT},m_fast`
    : `${url}?ci-process=snapshot&time=0&format=jpg&height=${THUMBNAIL_HEIGHT}`;
}

export function thumbnailWidth(width: number, height: number): number {
  return height > 0 ? Math.round((width * THUMBNAIL_HEIGHT) / height) : 0;
}

function fileName(file: MediaFile): string {
  const path = file.name || file.path || file.tempFilePath || 'file';
  return path.slice(path.lastIndexOf('/') + 1);
}

function localPath(file: MediaFile): string {
  if (file.path) return file.path;
  if (file.tempFilePath) return file.tempFilePath;
  if (typeof Blob !== 'undefined' && (file as unknown) instanceof Blob && typeof URL.createObjectURL === 'function') {
    return URL.createObjectURL(file as unknown as Blob);
  }
  throw messagingError(ErrorCode.UPLOAD_FAILED, 'wrong file type.');
}

function contentType(file: MediaFile, kind: FileKind): string {
  if (file.type) return file.type;
  const name = fileName(file);
  const extension = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
  return kind === 'file' ? 'application/octet-stream' : `${kind}/${extension || 'unknown'}`;
}

interface Dimensions {
  width: number;
  height: number;
}

async function dimensions(file: MediaFile & Partial<Dimensions>, path: string): Promise<Dimensions> {
  if (typeof file.width === 'number' && typeof file.height === 'number')
    return { width: file.width, height: file.height };
  const info = Taro.getImageInfo({ src: path }).then((image) => ({ width: image.width, height: image.height }));
  const giveUp = new Promise<Dimensions>((resolve) => setTimeout(() => resolve({ width: 0, height: 0 }), 2000));
  return Promise.race([info.catch(() => ({ width: 0, height: 0 })), giveUp]);
}

export interface UploadedFile {
  vendor: 'ALI' | 'TX';
  url: string;
}

export async function uploadFile(
  connection: Connection,
  file: MediaFile,
  onProgress?: (progress: number) => void,
  asAttachment = false,
): Promise<UploadedFile & { path: string }> {
  const path = localPath(file);
  const body = await connection.request(Call.UPLOAD_TOKEN, { filename: fileName(file) }, WRITE);
  const token = body.content as UploadToken | undefined;
  if (!isPlainObject(token) || (token.vendor !== 'ALI' && token.vendor !== 'TX')) {
    throw messagingError(ErrorCode.UPLOAD_FAILED, Text.STORAGE_UNSUPPORTED);
  }
  const form = uploadForm(token, asAttachment ? fileName(file) : undefined);
  await new Promise<void>((resolve, reject) => {
    const task = Taro.uploadFile({
      url: form.host,
      filePath: path,
      name: 'file',
      formData: form.formData,
      success: (response) => {
        const status = response.statusCode;
        if ((status >= 200 && status < 300) || status === 304) resolve();
        else reject(messagingError(ErrorCode.UPLOAD_FAILED, `upload failed with status ${status}`));
      },
      fail: (error: { errMsg?: string }) =>
        reject(messagingError(ErrorCode.UPLOAD_FAILED, error?.errMsg || 'upload failed')),
    });
    task?.onProgressUpdate?.((update: { progress: number }) => onProgress?.(update.progress));
    // On H5 the task is also a promise that rejects on failure; the fail callback above reports it.
    (task as unknown as Promise<unknown>)?.catch?.(() => undefined);
  });
  return { vendor: token.vendor, url: form.url, path };
}

/** Uploads the file and builds the payload of its message type. */
export async function mediaPayload(
  connection: Connection,
  kind: FileKind,
  file: MediaFile & Partial<Dimensions> & { duration?: number },
  onProgress?: (progress: number) => void,
): Promise<Payload> {
  const uploaded = await uploadFile(connection, file, onProgress, kind === 'file');
  const base: FilePayload = {
    url: uploaded.url,
    name: fileName(file),
    size: file.size,
    contentType: contentType(file, kind),
  };
  if (kind === 'file') return base;
  if (kind === 'audio') return { ...base, duration: Number(file.duration ?? 0) } satisfies AudioPayload;
  const size =
    kind === 'image' ? await dimensions(file, uploaded.path) : { width: file.width ?? 0, height: file.height ?? 0 };
  if (kind === 'image') {
    return {
      ...base,
      width: size.width,
      height: size.height,
      thumbnail: thumbnailUrl(uploaded.vendor, uploaded.url),
    } satisfies ImagePayload;
  }
  const width = thumbnailWidth(size.width, size.height);
  // A poster the platform gave (the mini-program's `thumbTempFilePath`, a canvas frame on H5) is uploaded beside the
  // video and shown through the store's image resize; without one the vendor's own video snapshot is asked for.
  const posterPath = file.thumbTempFilePath;
  // The store checks that an image is what its name says: keep the poster's own extension (a canvas frame is JPEG).
  const posterName =
    posterPath && /\.(jpe?g|png|gif)$/i.test(posterPath) ? fileName({ path: posterPath, size: 1 }) : 'poster.jpg';
  const poster = posterPath ? await uploadFile(connection, { path: posterPath, name: posterName, size: 1 }) : null;
  return {
    video: { ...base, width: size.width, height: size.height, duration: Number(file.duration ?? 0) },
    thumbnail: {
      name: `${base.name}.jpg`,
      url: poster ? thumbnailUrl(poster.vendor, poster.url) : videoSnapshotUrl(uploaded.vendor, uploaded.url, width),
      width,
      height: THUMBNAIL_HEIGHT,
      contentType: 'image/jpg',
    },
  } satisfies VideoPayload;
}

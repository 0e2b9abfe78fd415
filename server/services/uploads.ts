import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const UPLOADS_PREFIX = '/uploads';

export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'bmp', 'webp', 'apng', 'avif', 'svg'] as const;
export const VIDEO_EXTENSIONS = ['mp4', 'webm', 'avi', 'mov'] as const;

const ascii = (buffer: Buffer, start: number, end: number) => buffer.subarray(start, end).toString('latin1');

/** The content type the bytes really are, judged from their signature (never from the name). */
export function sniff(buffer: Buffer): string | null {
  if (buffer.length >= 3 && buffer[0] === 0xff && buffer[1] === 0xd8 && buffer[2] === 0xff) return 'jpeg';
  if (ascii(buffer, 0, 8) === '\x89PNG\r\n\x1a\n') return 'png';
  if (/^GIF8[79]a$/.test(ascii(buffer, 0, 6))) return 'gif';
  if (ascii(buffer, 0, 2) === 'BM') return 'bmp';
  if (ascii(buffer, 0, 4) === 'RIFF' && ascii(buffer, 8, 12) === 'WEBP') return 'webp';
  if (ascii(buffer, 0, 4) === 'RIFF' && ascii(buffer, 8, 12) === 'AVI ') return 'avi';
  if (ascii(buffer, 4, 8) === 'ftyp') {
    const brand = ascii(buffer, 8, 12);
    if (brand === 'avif' || brand === 'avis') return 'avif';
    if (brand === 'qt  ') return 'mov';
    return 'mp4';
  }
  if (buffer.length >= 4 && buffer.readUInt32BE(0) === 0x1a45dfa3) return 'webm';
  const head = buffer.subarray(0, 1024).toString('utf8').trimStart().toLowerCase();
  if ((head.startsWith('<svg') || head.startsWith('<?xml')) && head.includes('<svg')) return 'svg';
  return null;
}

const ACCEPTS: Record<string, string[]> = {
  jpg: ['jpeg'],
  jpeg: ['jpeg'],
  png: ['png'],
  apng: ['png'],
  gif: ['gif'],
  bmp: ['bmp'],
  webp: ['webp'],
  avif: ['avif'],
  svg: ['svg'],
  mp4: ['mp4', 'mov'],
  mov: ['mov', 'mp4'],
  webm: ['webm'],
  avi: ['avi'],
};

export class UploadRejected extends Error {}

/** SVG can carry scripts; an uploaded one with script, event handlers or foreign objects is refused. */
function svgIsInert(buffer: Buffer): boolean {
  const text = buffer.toString('utf8').toLowerCase();
  return !/<script|\son\w+\s*=|javascript:|<foreignobject|<iframe|<embed|<object/.test(text);
}

export interface StoredFile {
  url: string;
  file_name: string;
  kind: 'image' | 'video';
}

/**
 * Checks the name's extension against the accepted lists and the bytes against the extension,
 * then stores the file under a generated name in `dir/<folder>/`.
 */
export async function storeUpload(
  uploadDir: string,
  folder: string,
  originalName: string,
  buffer: Buffer,
  allowed: readonly string[] = [...IMAGE_EXTENSIONS, ...VIDEO_EXTENSIONS],
): Promise<StoredFile> {
  const extension = (originalName.split('.').pop() ?? '').toLowerCase();
  if (!originalName.includes('.') || !allowed.includes(extension)) {
    throw new UploadRejected(`file: the extension must be one of ${allowed.join(', ')}`);
  }
  if (buffer.length === 0) throw new UploadRejected('file: is empty');
  const actual = sniff(buffer);
  if (!actual || !ACCEPTS[extension].includes(actual)) {
    throw new UploadRejected(`file: the content is not a .${extension} file`);
  }
  if (actual === 'svg' && !svgIsInert(buffer)) throw new UploadRejected('file: an SVG with scripts is not accepted');
  const name = `${Date.now().toString(36)}-${randomBytes(12).toString('hex')}.${extension}`;
  await mkdir(join(uploadDir, folder), { recursive: true });
  await writeFile(join(uploadDir, folder, name), buffer, { flag: 'wx' });
  const kind = (VIDEO_EXTENSIONS as readonly string[]).includes(extension) ? 'video' : 'image';
  return { url: `${UPLOADS_PREFIX}/${folder}/${name}`, file_name: name, kind };
}

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';

export const UPLOADS_PREFIX = '/uploads';

export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'bmp', 'webp', 'apng', 'avif', 'svg'] as const;
export const VIDEO_EXTENSIONS = ['mp4', 'webm', 'avi', 'mov'] as const;

/** Folders whose files only their owner and staff may read, through signed, expiring URLs. */
const PRIVATE_FOLDERS = ['prescriptions'] as const;

const ascii = (buffer: Buffer, start: number, end: number) => buffer.subarray(start, end).toString('latin1');

/** The kind of media the bytes really are, judged from their signature (never from the name). */
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
  return null;
}

/** The content type a stored file is served with, from its sniffed bytes; anything unrecognised is a download. */
const SERVED_TYPES: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  bmp: 'image/bmp',
  webp: 'image/webp',
  avif: 'image/avif',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  avi: 'video/x-msvideo',
};
export const UNKNOWN_CONTENT_TYPE = 'application/octet-stream';

/**
 * The demo catalogue's drawings, which the seed writes as SVG: the shop's own files, the only SVGs served as
 * images. No upload route writes SVG (uploads are drawn into PNGs), so an SVG anywhere else predates that and
 * goes out as a download.
 */
const SHOP_DRAWINGS_FOLDER = 'seed';

const looksLikeSvg = (head: Buffer) => /^\s*(<\?xml[^>]*>\s*)?<svg[\s>]/i.test(head.toString('utf8'));

/** The type a file at `relativePath` (under the upload directory) is served with, from its first bytes. */
export function servedContentType(relativePath: string, head: Buffer): string {
  const kind = sniff(head);
  if (kind && SERVED_TYPES[kind]) return SERVED_TYPES[kind];
  if (relativePath.startsWith(`${SHOP_DRAWINGS_FOLDER}/`) && looksLikeSvg(head)) return 'image/svg+xml';
  return UNKNOWN_CONTENT_TYPE;
}

/** How many bytes of a stored file `servedContentType` needs to see. */
const SNIFF_BYTES = 256;

/** The first bytes of a file, for `servedContentType`; null when it cannot be read. */
export async function readHead(path: string): Promise<Buffer | null> {
  try {
    const handle = await open(path, 'r');
    try {
      const head = Buffer.alloc(SNIFF_BYTES);
      const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
      return head.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
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
  mp4: ['mp4', 'mov'],
  mov: ['mov', 'mp4'],
  webm: ['webm'],
  avi: ['avi'],
};

export class UploadRejected extends Error {}

/** The largest side of the PNG an uploaded SVG becomes, and the most pixels its renderer may allocate. */
const SVG_RASTER_SIDE = 2048;
const SVG_MAX_INPUT_PIXELS = 8192 * 8192;

/**
 * An SVG is a document that can carry script (namespaced `<x:script>`, entities, event attributes: no filter
 * catches them all), so it is never stored: librsvg draws it, with no access to files or the network, into a PNG,
 * and the PNG is stored. What the drawing looked like is kept; nothing in it can run.
 */
async function rasterizeSvg(buffer: Buffer): Promise<Buffer> {
  let format: string | undefined;
  try {
    format = (await sharp(buffer, { limitInputPixels: SVG_MAX_INPUT_PIXELS }).metadata()).format;
  } catch {
    // librsvg refuses what it cannot parse safely, external entities included.
    throw new UploadRejected('file: the SVG could not be drawn as an image');
  }
  if (format !== 'svg') throw new UploadRejected('file: the content is not a .svg file');
  try {
    return await sharp(buffer, { limitInputPixels: SVG_MAX_INPUT_PIXELS })
      .resize({ width: SVG_RASTER_SIDE, height: SVG_RASTER_SIDE, fit: 'inside', withoutEnlargement: true })
      .png()
      .timeout({ seconds: 10 })
      .toBuffer();
  } catch {
    throw new UploadRejected('file: the SVG could not be drawn as an image');
  }
}

export interface StoredFile {
  url: string;
  file_name: string;
  kind: 'image' | 'video';
}

/**
 * Checks the name's extension against the accepted lists and the bytes against the extension (an SVG is turned
 * into a PNG), then stores the file under a generated name in `dir/<folder>/`.
 */
export async function storeUpload(
  uploadDir: string,
  folder: string,
  originalName: string,
  buffer: Buffer,
  allowed: readonly string[] = [...IMAGE_EXTENSIONS, ...VIDEO_EXTENSIONS],
): Promise<StoredFile> {
  let extension = (originalName.split('.').pop() ?? '').toLowerCase();
  if (!originalName.includes('.') || !allowed.includes(extension)) {
    throw new UploadRejected(`file: the extension must be one of ${allowed.join(', ')}`);
  }
  if (buffer.length === 0) throw new UploadRejected('file: is empty');
  let stored = buffer;
  if (extension === 'svg') {
    stored = await rasterizeSvg(buffer);
    extension = 'png';
  } else {
    const actual = sniff(buffer);
    if (!actual || !ACCEPTS[extension].includes(actual)) {
      throw new UploadRejected(`file: the content is not a .${extension} file`);
    }
  }
  const name = `${Date.now().toString(36)}-${randomBytes(12).toString('hex')}.${extension}`;
  await mkdir(join(uploadDir, folder), { recursive: true });
  await writeFile(join(uploadDir, folder, name), stored, { flag: 'wx' });
  const kind = (VIDEO_EXTENSIONS as readonly string[]).includes(extension) ? 'video' : 'image';
  return { url: `${UPLOADS_PREFIX}/${folder}/${name}`, file_name: name, kind };
}

/* ---- private uploads: signed, expiring URLs */

/** `/uploads/prescriptions/<user id>/`: where a user's prescription photos go, and the only ones they may cite. */
export function prescriptionFolder(userId: number): string {
  return `prescriptions/${userId}`;
}

export function isPrivatePath(path: string): boolean {
  return PRIVATE_FOLDERS.some((folder) => path.startsWith(`${UPLOADS_PREFIX}/${folder}/`));
}

const signature = (secret: string, path: string, expires: number) =>
  createHmac('sha256', secret).update(`${path}\n${expires}`).digest('base64url');

/**
 * A URL that opens a private upload until it expires. The expiry is rounded up to a quarter of the TTL, so reads
 * close together answer the same URL and the browser's cache keeps the image.
 */
function signUploadUrl(path: string, secret: string, ttlMs: number, now: number): string {
  const step = Math.max(1000, Math.floor(ttlMs / 4));
  const expires = Math.ceil((now + ttlMs) / step) * step;
  return `${path}?expires=${expires}&signature=${signature(secret, path, expires)}`;
}

/** The stored form of an upload URL: the path, without the signature an answer added to it. */
export function unsignedPath(url: string): string {
  return url.split('?')[0];
}

/** Whether a signed URL's query is valid for `path` at `now`; answers its expiry, or null. */
export function verifyUploadSignature(
  path: string,
  query: { expires?: unknown; signature?: unknown },
  secret: string,
  now: number,
): number | null {
  const expires = Number(query.expires);
  if (typeof query.signature !== 'string' || !Number.isSafeInteger(expires) || expires <= now) return null;
  const expected = Buffer.from(signature(secret, path, expires));
  const given = Buffer.from(query.signature);
  return expected.length === given.length && timingSafeEqual(expected, given) ? expires : null;
}

/**
 * Turns a stored URL into the one an answer shows: a private upload signed for this read (so a page opened after an
 * earlier URL expired still shows the photo), everything else as it is. Only answers to the file's owner or to
 * staff may use it.
 */
export function uploadUrlReader(
  config: { privateUploadSecret: string; privateUploadUrlTtlMs: number },
  now: () => number,
): (url: string) => string {
  return (url) =>
    isPrivatePath(url) ? signUploadUrl(url, config.privateUploadSecret, config.privateUploadUrlTtlMs, now()) : url;
}

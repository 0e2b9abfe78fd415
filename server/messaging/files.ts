import { createHmac, timingSafeEqual } from 'node:crypto';
import { UNKNOWN_CONTENT_TYPE, servedContentType, sniff } from '../services/uploads';
import { UPLOAD_PATH } from './config';

/**
 * Files kept by the built-in OSS-compatible endpoint are private: each is read through a signed, expiring
 * path, `/oss/~s/<expires>/<signature>/<key>`. The uploader gets one in its upload token (the file's URL is
 * the token's host plus the key, so the unmodified GoEasy client builds it too); every message that carries
 * the file is sent out with a fresh one (signPayload), so members keep seeing a file after the first URL
 * expired. A key is signed for a message only when the message's sender owns it (keys live under
 * `<dir>/u-<user id>/`), so nobody obtains a URL to another user's file by naming it in a message.
 */
const GRANT = /^~s\/(\d{1,15})\/([A-Za-z0-9_-]{32})\/(.+)$/;

export class FileGrants {
  constructor(
    private readonly secret: string,
    private readonly dir: string,
    private readonly ttlMs: number,
  ) {}

  /** The key prefix a user may write under. */
  ownerPrefix(userId: string): string {
    return `${[this.dir, `u-${userId}`].filter(Boolean).join('/')}/`;
  }

  private signature(expires: number, key: string): string {
    return createHmac('sha256', this.secret).update(`read\n${expires}\n${key}`).digest('base64url').slice(0, 32);
  }

  /**
   * The path segment that lets its holder read `key` until the grant expires. Expiry is the end of the next
   * window of `ttlMs` (so a grant lives one to two windows): every grant of a key made in one window is the
   * same URL, which browsers and the mini-program can cache.
   */
  grant(key: string, now = Date.now()): string {
    const window = Math.max(1, Math.ceil(this.ttlMs / 1000));
    const expires = (Math.floor(now / 1000 / window) + 2) * window;
    return `~s/${expires}/${this.signature(expires, key)}`;
  }

  /** The key a signed path names and when its grant expires, or null for a path without a valid, live grant. */
  verify(path: string, now = Date.now()): { key: string; expiresAt: number } | null {
    const match = GRANT.exec(path);
    if (!match) return null;
    const expires = Number(match[1]);
    const key = match[3];
    const expected = Buffer.from(this.signature(expires, key));
    const given = Buffer.from(match[2]);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    if (expires * 1000 <= now) return null;
    return { key, expiresAt: expires * 1000 };
  }

  /**
   * The payload (JSON text) of a message with every URL of a file its sender owns re-signed; anything else is
   * left as it is. Cheap for payloads without our upload path, which are most.
   */
  signPayload(payload: string, senderId: string): string {
    if (!payload.includes(`${UPLOAD_PATH}/`)) return payload;
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      return payload;
    }
    const prefix = this.ownerPrefix(senderId);
    const now = Date.now();
    return JSON.stringify(this.resign(parsed, prefix, now, 0));
  }

  private resign(value: unknown, prefix: string, now: number, depth: number): unknown {
    if (depth > 8) return value;
    if (typeof value === 'string') return this.resignUrl(value, prefix, now);
    if (Array.isArray(value)) return value.map((item) => this.resign(item, prefix, now, depth + 1));
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([name, item]) => [name, this.resign(item, prefix, now, depth + 1)]),
      );
    }
    return value;
  }

  private resignUrl(url: string, prefix: string, now: number): string {
    const at = url.indexOf(`${UPLOAD_PATH}/`);
    if (at < 0) return url;
    const base = url.slice(0, at + UPLOAD_PATH.length + 1);
    const rest = url.slice(base.length);
    const cut = rest.search(/[?#]/);
    const path = cut < 0 ? rest : rest.slice(0, cut);
    const suffix = cut < 0 ? '' : rest.slice(cut);
    const key = GRANT.exec(path)?.[3] ?? path;
    if (!key.startsWith(prefix) || key.split('/').includes('..')) return url;
    return `${base}${this.grant(key, now)}/${key}${suffix}`;
  }
}

/** Extensions whose content a browser runs (markup, script): refused at upload, whatever the bytes. */
export const ACTIVE_EXTENSIONS = new Set([
  'svg',
  'svgz',
  'html',
  'htm',
  'xhtml',
  'xht',
  'shtml',
  'xml',
  'xsl',
  'xslt',
  'js',
  'mjs',
  'swf',
]);

/** Audio the shop's sniffer does not know; the spec's audio types that have a signature. */
function sniffAudio(head: Buffer): string | null {
  const text = (start: number, end: number) => head.subarray(start, end).toString('latin1');
  if (text(0, 3) === 'ID3' || (head.length > 1 && head[0] === 0xff && (head[1] & 0xe0) === 0xe0)) return 'mp3';
  if (text(0, 4) === 'OggS') return 'ogg';
  if (text(0, 4) === 'RIFF' && text(8, 12) === 'WAVE') return 'wav';
  if (text(0, 4) === 'fLaC') return 'flac';
  return null;
}

/** What the bytes are, from their signature only. */
export function sniffFile(head: Buffer): string | null {
  return sniff(head) ?? sniffAudio(head);
}

/** Markup a browser could run (HTML, SVG, XML): text whose start is a tag, or that has one of those tags early. */
export function isActiveContent(head: Buffer): boolean {
  if (sniff(head) !== null) return false;
  const text = head
    .subarray(0, 2048)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  return text.startsWith('<') || /<(script|html|body|svg|iframe|object|embed|\?xml|!doctype)\b/.test(text);
}

const AUDIO_TYPES: Record<string, string> = {
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  wav: 'audio/wav',
  flac: 'audio/flac',
};

/** The content type a stored file is served with: the shop's sniffed image and video types, audio, else a download. */
export function servedType(head: Buffer): { type: string; download: boolean } {
  const media = servedContentType('', head);
  if (media !== UNKNOWN_CONTENT_TYPE) return { type: media, download: false };
  const audio = sniffAudio(head);
  return audio ? { type: AUDIO_TYPES[audio], download: false } : { type: UNKNOWN_CONTENT_TYPE, download: true };
}

/** Expected signatures for the spec's media extensions; any other extension is a plain file. */
const MEDIA_KINDS: Record<string, string[]> = {
  jpg: ['jpeg'],
  jpeg: ['jpeg'],
  png: ['png'],
  gif: ['gif'],
  mp4: ['mp4', 'mov'],
  mov: ['mov', 'mp4'],
  quicktime: ['mov', 'mp4'],
  avi: ['avi'],
  mp3: ['mp3'],
  mpeg: ['mp3'],
  ogg: ['ogg'],
  wav: ['wav'],
};

/** Whether the bytes are what the extension says, for the media types the server can recognize. */
export function matchesExtension(extension: string, head: Buffer): boolean {
  const expected = MEDIA_KINDS[extension];
  if (!expected) return true;
  const kind = sniffFile(head);
  return kind !== null && expected.includes(kind);
}

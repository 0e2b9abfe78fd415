import sharp from 'sharp';

/**
 * Image processing on the built-in object store (`GET /oss/...`), as Ali OSS and Tencent COS do it for the same
 * query strings, so the thumbnail URLs the SDK builds (`thumbnailUrl` in src/messaging/media.ts) show a real
 * thumbnail here too instead of the full picture:
 *
 * - OSS `?x-oss-process=image/resize,<params>`: `w_`, `h_` (pixels), `l_` / `s_` (longest / shortest side), `p_`
 *   (percent), `m_` (`lfit` default: fit inside; `mfit`: cover; `fill`: cover and crop; `pad`: fit and pad; `fixed`:
 *   exactly w×h), `limit_` (1 default: never enlarge), `color_` (pad colour, hex).
 * - COS `?imageMogr2/thumbnail/<spec>`: `Wx`, `xH`, `WxH` (fit inside), `WxH!` (exactly), `WxH^` (cover), `WxH>`
 *   (only shrink), `!Np` (percent).
 *
 * Anything else of either syntax is refused with the vendor's kind of error, never ignored.
 */
export interface ImageOperation {
  width?: number;
  height?: number;
  fit: 'inside' | 'outside' | 'cover' | 'contain' | 'fill';
  withoutEnlargement: boolean;
  background?: string;
  /** Percent of the original size (both sides). */
  percent?: number;
  /** Longest / shortest side. */
  longest?: number;
  shortest?: number;
}

export class ImageProcessError extends Error {}

const MAX_SIDE = 4096;

function pixels(value: string, name: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > MAX_SIDE) {
    throw new ImageProcessError(`${name} must be an integer from 1 to ${MAX_SIDE}`);
  }
  return number;
}

function percent(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > 1000) throw new ImageProcessError('p must be 1 to 1000');
  return number;
}

/** The operation a query string asks for, or null when it asks for none. */
export function parseImageProcess(rawQuery: string): ImageOperation | null {
  const query = rawQuery.startsWith('?') ? rawQuery.slice(1) : rawQuery;
  if (query === '') return null;
  const params = new URLSearchParams(query);
  const oss = params.get('x-oss-process');
  if (oss !== null) return parseOss(oss);
  const mogr = query.split('&').find((part) => decodeURIComponent(part).startsWith('imageMogr2/'));
  if (mogr !== undefined) return parseMogr(decodeURIComponent(mogr));
  if (params.has('ci-process')) throw new ImageProcessError(`ci-process=${params.get('ci-process')} is not supported`);
  return null;
}

function parseOss(process: string): ImageOperation {
  const [kind, ...rest] = process.split('/');
  if (kind !== 'image' || rest.length !== 1) throw new ImageProcessError(`x-oss-process ${process} is not supported`);
  const [action, ...args] = rest[0].split(',');
  if (action !== 'resize') throw new ImageProcessError(`x-oss-process image/${action} is not supported`);
  const operation: ImageOperation = { fit: 'inside', withoutEnlargement: true };
  let mode = 'lfit';
  for (const arg of args) {
    const [key, value = ''] = arg.split('_');
    if (key === 'w') operation.width = pixels(value, 'w');
    else if (key === 'h') operation.height = pixels(value, 'h');
    else if (key === 'l') operation.longest = pixels(value, 'l');
    else if (key === 's') operation.shortest = pixels(value, 's');
    else if (key === 'p') operation.percent = percent(value);
    else if (key === 'm') mode = value;
    else if (key === 'limit') operation.withoutEnlargement = value !== '0';
    else if (key === 'color' && /^[0-9A-Fa-f]{6}$/.test(value)) operation.background = `#${value}`;
    else throw new ImageProcessError(`resize parameter ${arg} is not supported`);
  }
  const fits: Record<string, ImageOperation['fit']> = {
    lfit: 'inside',
    mfit: 'outside',
    fill: 'cover',
    pad: 'contain',
    fixed: 'fill',
  };
  if (!fits[mode]) throw new ImageProcessError(`resize mode m_${mode} is not supported`);
  operation.fit = fits[mode];
  if (
    operation.width === undefined &&
    operation.height === undefined &&
    operation.longest === undefined &&
    operation.shortest === undefined &&
    operation.percent === undefined
  ) {
    throw new ImageProcessError('resize needs w, h, l, s or p');
  }
  return operation;
}

function parseMogr(process: string): ImageOperation {
  const match = /^imageMogr2\/thumbnail\/(.+)$/.exec(process);
  if (!match) throw new ImageProcessError(`${process} is not supported`);
  const spec = match[1];
  const scaled = /^!(\d+)p$/.exec(spec);
  if (scaled) return { fit: 'inside', withoutEnlargement: false, percent: percent(scaled[1]) };
  const box = /^(\d*)x(\d*)([!^>]?)$/.exec(spec);
  if (!box || (box[1] === '' && box[2] === '')) throw new ImageProcessError(`thumbnail/${spec} is not supported`);
  const operation: ImageOperation = {
    fit: box[3] === '!' ? 'fill' : box[3] === '^' ? 'outside' : 'inside',
    // COS enlarges unless `>` asks to only shrink.
    withoutEnlargement: box[3] === '>',
  };
  if (box[1] !== '') operation.width = pixels(box[1], 'width');
  if (box[2] !== '') operation.height = pixels(box[2], 'height');
  return operation;
}

/** The processed image, in the format it came in (a GIF becomes its first frame, as a PNG). */
export async function processImage(input: Buffer, operation: ImageOperation): Promise<{ body: Buffer; type: string }> {
  const image = sharp(input, { limitInputPixels: 50_000_000 });
  const meta = await image.metadata();
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  let target: { width?: number; height?: number } = { width: operation.width, height: operation.height };
  if (operation.percent !== undefined) {
    target = {
      width: Math.max(1, Math.round((width * operation.percent) / 100)),
      height: Math.max(1, Math.round((height * operation.percent) / 100)),
    };
  } else if (operation.longest !== undefined || operation.shortest !== undefined) {
    const side = operation.longest ?? (operation.shortest as number);
    const widthIsLonger = width >= height;
    const byWidth = operation.longest !== undefined ? widthIsLonger : !widthIsLonger;
    target = byWidth ? { width: side } : { height: side };
  }
  const format = meta.format === 'jpeg' || meta.format === 'webp' || meta.format === 'png' ? meta.format : 'png';
  const body = await image
    .rotate()
    .resize({
      ...target,
      fit: operation.fit,
      withoutEnlargement: operation.withoutEnlargement,
      background: operation.background ?? '#ffffff',
    })
    .toFormat(format)
    .toBuffer();
  return { body, type: `image/${format}` };
}

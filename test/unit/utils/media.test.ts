import { IMAGE_EXTENSIONS, VIDEO_EXTENSIONS, fileExtension, isImageFile, isVideoFile } from '@/utils/media';
import { isPng, pngHasTransparency } from '@/utils/png';

describe('accepted media', () => {
  it('lists exactly the image and video extensions of the spec', () => {
    expect([...IMAGE_EXTENSIONS]).toEqual(['jpg', 'jpeg', 'png', 'gif', 'bmp', 'webp', 'apng', 'avif', 'svg']);
    expect([...VIDEO_EXTENSIONS]).toEqual(['mp4', 'webm', 'avi', 'mov']);
  });

  it('recognises every listed image extension in any case', () => {
    for (const extension of IMAGE_EXTENSIONS) {
      expect(isImageFile(`photo.${extension}`)).toBe(true);
      expect(isImageFile(`PHOTO.${extension.toUpperCase()}`)).toBe(true);
      expect(isVideoFile(`photo.${extension}`)).toBe(false);
    }
  });

  it('recognises every listed video extension', () => {
    for (const extension of VIDEO_EXTENSIONS) {
      expect(isVideoFile(`clip.${extension}`)).toBe(true);
      expect(isImageFile(`clip.${extension}`)).toBe(false);
    }
  });

  it('reads the extension of URLs and paths, ignoring query and hash', () => {
    expect(fileExtension('https://cdn.example.com/a/b/frame.WEBP?x-oss-process=resize#top')).toBe('webp');
    expect(fileExtension('wxfile://tmp_abc.jpeg')).toBe('jpeg');
    expect(isImageFile('blob:https://x/abc')).toBe(false);
  });

  it('rejects names without an extension, hidden files and other types', () => {
    expect(fileExtension('README')).toBe('');
    expect(fileExtension('.png')).toBe('');
    expect(isImageFile('report.pdf')).toBe(false);
    expect(isVideoFile('movie.mkv')).toBe(false);
    expect(isImageFile('dir.png/file')).toBe(false);
  });
});

function chunk(type: string, data: number[]): number[] {
  const length = data.length;
  return [
    (length >>> 24) & 0xff,
    (length >>> 16) & 0xff,
    (length >>> 8) & 0xff,
    length & 0xff,
    ...type.split('').map((c) => c.charCodeAt(0)),
    ...data,
    0,
    0,
    0,
    0,
  ];
}

function png(colorType: number, extra: number[][] = []): Uint8Array {
  const ihdr = [0, 0, 0, 1, 0, 0, 0, 1, 8, colorType, 0, 0, 0];
  return new Uint8Array([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...chunk('IHDR', ihdr),
    ...extra.flat(),
    ...chunk('IDAT', [1, 2, 3]),
    ...chunk('IEND', []),
  ]);
}

describe('PNG transparency', () => {
  it('is transparent with an alpha channel: colour type 6 (RGBA) or 4 (grey + alpha)', () => {
    expect(pngHasTransparency(png(6))).toBe(true);
    expect(pngHasTransparency(png(4))).toBe(true);
  });

  it('is opaque for RGB, grey and palette images without tRNS', () => {
    expect(pngHasTransparency(png(2))).toBe(false);
    expect(pngHasTransparency(png(0))).toBe(false);
    expect(pngHasTransparency(png(3, [chunk('PLTE', [0, 0, 0])]))).toBe(false);
  });

  it('is transparent with a tRNS chunk before the image data', () => {
    expect(pngHasTransparency(png(3, [chunk('PLTE', [0, 0, 0]), chunk('tRNS', [0])]))).toBe(true);
    expect(pngHasTransparency(png(2, [chunk('tRNS', [0, 0, 0, 0, 0, 0])]))).toBe(true);
  });

  it('reads a PNG inside a larger buffer', () => {
    const bytes = png(6);
    const padded = new Uint8Array(bytes.length + 7);
    padded.set(bytes, 7);
    expect(pngHasTransparency(padded.subarray(7))).toBe(true);
  });

  it('throws for bytes that are not a PNG', () => {
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);
    expect(isPng(jpeg)).toBe(false);
    expect(() => pngHasTransparency(jpeg)).toThrow('Not a PNG image');
    expect(() => pngHasTransparency(new Uint8Array())).toThrow('Not a PNG image');
  });

  it('treats a truncated PNG as opaque rather than reading past the end', () => {
    expect(pngHasTransparency(png(6).subarray(0, 20))).toBe(false);
  });
});

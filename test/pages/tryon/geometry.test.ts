import {
  ALBUM_PERMISSION_DENIED,
  PHOTO_UNREADABLE,
  SAVE_FAILED,
  detectFailure,
  saveFailure,
  tryOnFileName,
} from '@/features/tryon/api';
import {
  DEFAULT_ANCHOR,
  type Rgb,
  analyseFrame,
  applyMatrix,
  composite,
  fitWithin,
  frameTransform,
  keyAlpha,
  pickFace,
} from '@/features/tryon/geometry';

const BACKGROUND: Rgb = [247, 247, 245];

/** A 400×200 picture like the seeded frames: light background, two lens rings at x 110 and 290, temples to 6 and 394. */
function framePicture(transparent = false): Uint8ClampedArray {
  const width = 400;
  const height = 200;
  const pixels = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 4;
      const ring = [110, 290].some((cx) => Math.abs(Math.hypot(x - cx, y - 100) - 54) < 5);
      const temple = Math.abs(y - 92) < 4 && ((x >= 6 && x <= 40) || (x >= 360 && x <= 394));
      const frame = ring || temple;
      pixels.set(frame ? [30, 30, 30, 255] : transparent ? [0, 0, 0, 0] : [...BACKGROUND, 255], at);
    }
  }
  return pixels;
}

const close = (value: number, expected: number, within: number) =>
  expect(Math.abs(value - expected)).toBeLessThan(within);

describe('photo size', () => {
  it('fits a large photo within 960 px on its longest side, keeping its ratio', () => {
    expect(fitWithin(1920, 1367)).toEqual({ width: 960, height: 684 });
    expect(fitWithin(1080, 1920)).toEqual({ width: 540, height: 960 });
  });

  it('never enlarges a small photo', () => {
    expect(fitWithin(640, 480)).toEqual({ width: 640, height: 480 });
  });
});

describe('frame picture', () => {
  it('finds the lens centres of a front view on a plain background', () => {
    const anchor = analyseFrame(framePicture(), 400, 200);
    expect(anchor.background).toEqual(BACKGROUND);
    close(anchor.left.x * 400, 110, 4);
    close(anchor.right.x * 400, 290, 4);
    close(anchor.left.y * 200, 100, 2);
    expect(anchor.right.y).toBe(anchor.left.y);
  });

  it('reads a transparent picture by its opaque pixels', () => {
    const anchor = analyseFrame(framePicture(true), 400, 200);
    expect(anchor.background).toBeNull();
    close(anchor.left.x * 400, 110, 4);
    close(anchor.right.x * 400, 290, 4);
  });

  it('falls back to lenses on the quarters when nothing stands out', () => {
    const blank = new Uint8ClampedArray(40 * 20 * 4).fill(250);
    expect(analyseFrame(blank, 40, 20)).toEqual({ ...DEFAULT_ANCHOR, background: [250, 250, 250] });
  });

  it('keys out the background and keeps the frame, softly in between', () => {
    expect(keyAlpha(247, 247, 245, BACKGROUND)).toBe(0);
    expect(keyAlpha(240, 250, 245, BACKGROUND)).toBe(0);
    expect(keyAlpha(30, 30, 30, BACKGROUND)).toBe(1);
    const tinted = keyAlpha(210, 220, 230, BACKGROUND);
    expect(tinted).toBeGreaterThan(0);
    expect(tinted).toBeLessThan(1);
    expect(keyAlpha(247, 247, 245, null)).toBe(1);
  });
});

describe('frame on the eyes', () => {
  const anchor = { left: { x: 0.275, y: 0.5 }, right: { x: 0.725, y: 0.5 } };

  it('puts the lens centres on level eyes, scaled by the eye distance', () => {
    const face = { left_eye: { x: 300, y: 400 }, right_eye: { x: 390, y: 400 } };
    const matrix = frameTransform(face, anchor, 800, 400);
    const left = applyMatrix(matrix, { x: 0.275 * 800, y: 200 });
    const right = applyMatrix(matrix, { x: 0.725 * 800, y: 200 });
    close(left.x, 300, 1e-9);
    close(left.y, 400, 1e-9);
    close(right.x, 390, 1e-9);
    close(right.y, 400, 1e-9);
    // 90 px between the eyes for 360 px between the lens centres: a quarter, not turned.
    close(matrix[0], 0.25, 1e-9);
    close(matrix[1], 0, 1e-9);
  });

  it('turns the frame with a tilted head', () => {
    const face = { left_eye: { x: 100, y: 200 }, right_eye: { x: 160, y: 260 } };
    const matrix = frameTransform(face, anchor, 800, 400);
    const left = applyMatrix(matrix, { x: 220, y: 200 });
    const right = applyMatrix(matrix, { x: 580, y: 200 });
    close(left.x, 100, 1e-9);
    close(left.y, 200, 1e-9);
    close(right.x, 160, 1e-9);
    close(right.y, 260, 1e-9);
    close(Math.atan2(matrix[1], matrix[0]), Math.PI / 4, 1e-9);
    // The bridge (above the lens centres in the picture) stays above the eye line, towards the forehead.
    const bridge = applyMatrix(matrix, { x: 400, y: 160 });
    expect(bridge.y - bridge.x).toBeLessThan(100);
  });

  it('lays the frame over the photo and leaves the rest of the photo as it was', () => {
    const photo = new Uint8ClampedArray([10, 20, 30, 255, 10, 20, 30, 255, 10, 20, 30, 255, 10, 20, 30, 255]);
    const drawn = new Uint8ClampedArray([...BACKGROUND, 255, 30, 30, 30, 255, 0, 0, 0, 0, 30, 30, 30, 128]);
    const out = new Uint8ClampedArray(16);
    composite(photo, drawn, BACKGROUND, out);
    expect(Array.from(out.slice(0, 4))).toEqual([10, 20, 30, 255]);
    expect(Array.from(out.slice(4, 8))).toEqual([30, 30, 30, 255]);
    expect(Array.from(out.slice(8, 12))).toEqual([10, 20, 30, 255]);
    expect(Array.from(out.slice(12, 16))).toEqual([20, 25, 30, 255]);
  });

  it('dresses the best face, or none', () => {
    const face = { box: { x: 0, y: 0, width: 9, height: 9 }, left_eye: { x: 2, y: 3 }, right_eye: { x: 6, y: 3 } };
    expect(pickFace([])).toBeNull();
    expect(
      pickFace([
        { ...face, score: 0.9 },
        { ...face, score: 0.6 },
      ])?.score,
    ).toBe(0.9);
  });
});

describe('messages', () => {
  it('tells a refused album permission from a failed save', () => {
    expect(saveFailure({ errMsg: 'saveImageToPhotosAlbum:fail auth deny' })).toBe(ALBUM_PERMISSION_DENIED);
    expect(saveFailure({ errMsg: 'saveImageToPhotosAlbum:fail authorize no response' })).toBe(ALBUM_PERMISSION_DENIED);
    expect(saveFailure({ errMsg: 'saveImageToPhotosAlbum:fail file not found' })).toBe(SAVE_FAILED);
    expect(ALBUM_PERMISSION_DENIED).toBe('未授权访问相册权限，请授权后使用');
    expect(SAVE_FAILED).toBe('保存失败');
  });

  it('says a photo the detector cannot read is not a usable photo, and passes other refusals on', () => {
    expect(detectFailure({ status: 400, msg: 'image_base64: must be a JPEG or PNG image' })).toBe(PHOTO_UNREADABLE);
    expect(detectFailure({ status: 429, msg: 'Too many requests' })).toBe('Too many requests');
  });

  it('names the shared picture after the frame and colour', () => {
    expect(tryOnFileName({ goodsId: 12, colorId: 3 })).toBe('try-on-12-3.jpg');
  });
});

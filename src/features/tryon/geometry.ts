import type { DetectedFace } from '../../../types/api';

/**
 * The try-on's picture maths, free of any canvas: where a frame's lenses sit in its product photo, how the
 * frame is placed on the detected eyes, and how its keyed-out picture is laid over the photo.
 */

export interface Point {
  x: number;
  y: number;
}

export type Rgb = [number, number, number];

/** Where the lens centres sit in a frame picture, as fractions of its width and height. */
export interface FrameAnchor {
  left: Point;
  right: Point;
  /** The picture's background colour, keyed out when the frame is drawn; null when the picture is transparent. */
  background: Rgb | null;
}

/** A canvas transform (a, b, c, d, e, f) as in setTransform: frame picture pixels to photo pixels. */
export type Matrix = [number, number, number, number, number, number];

/** The longest side of the photo on the canvas, in pixels: enough for the detector and for a shared picture. */
export const MAX_PHOTO_SIDE = 960;

/** A front view with the lenses on the left and right quarter of the frame: what a picture without clear lenses gets. */
export const DEFAULT_ANCHOR: FrameAnchor = {
  left: { x: 0.275, y: 0.5 },
  right: { x: 0.725, y: 0.5 },
  background: null,
};

/** The lens centres of a front view sit this far into the frame's width from each side. */
const LENS_CENTRE_FRACTION = 0.27;

/** Colour distance (largest channel difference) up to which a pixel is background, and from which it is frame. */
const KEY_NEAR = 14;
const KEY_FAR = 60;

/** Fits width × height within `max` on the longest side, keeping the ratio; never enlarges. */
export function fitWithin(width: number, height: number, max = MAX_PHOTO_SIDE): { width: number; height: number } {
  const scale = Math.min(1, max / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** The face to dress: the detector's best (faces come best first); null when none was found. */
export function pickFace(faces: readonly DetectedFace[]): DetectedFace | null {
  return faces[0] ?? null;
}

/** How much of a pixel is frame (0 background … 1 frame), judged by its colour distance from the background. */
export function keyAlpha(red: number, green: number, blue: number, background: Rgb | null): number {
  if (!background) return 1;
  const distance = Math.max(
    Math.abs(red - background[0]),
    Math.abs(green - background[1]),
    Math.abs(blue - background[2]),
  );
  if (distance <= KEY_NEAR) return 0;
  if (distance >= KEY_FAR) return 1;
  return (distance - KEY_NEAR) / (KEY_FAR - KEY_NEAR);
}

/**
 * Reads a frame picture (RGBA pixels, width × height): the background is the colour of its top-left pixel
 * (none when that pixel is transparent), the frame is every pixel that stands out from it, and the lens
 * centres sit 27 % into the frame from each side, halfway down it.
 */
export function analyseFrame(pixels: ArrayLike<number>, width: number, height: number): FrameAnchor {
  const background: Rgb | null = pixels[3] > 0 ? [pixels[0], pixels[1], pixels[2]] : null;
  let minX = width;
  let minY = height;
  let maxX = -1;
  let maxY = -1;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 4;
      const opacity = (pixels[at + 3] / 255) * keyAlpha(pixels[at], pixels[at + 1], pixels[at + 2], background);
      if (opacity < 0.5) continue;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  if (maxX - minX < width * 0.2) return { ...DEFAULT_ANCHOR, background };
  const frameWidth = maxX + 1 - minX;
  const centreY = (minY + maxY + 1) / 2 / height;
  return {
    left: { x: (minX + frameWidth * LENS_CENTRE_FRACTION) / width, y: centreY },
    right: { x: (maxX + 1 - frameWidth * LENS_CENTRE_FRACTION) / width, y: centreY },
    background,
  };
}

/**
 * The transform that lays a frame picture (frameWidth × frameHeight pixels) over the photo so that its lens
 * centres land on the eyes: scaled by the eye distance, turned by the angle of the line between the eyes.
 */
export function frameTransform(
  face: Pick<DetectedFace, 'left_eye' | 'right_eye'>,
  anchor: Pick<FrameAnchor, 'left' | 'right'>,
  frameWidth: number,
  frameHeight: number,
): Matrix {
  const eyeDx = face.right_eye.x - face.left_eye.x;
  const eyeDy = face.right_eye.y - face.left_eye.y;
  const lensDx = (anchor.right.x - anchor.left.x) * frameWidth;
  const lensDy = (anchor.right.y - anchor.left.y) * frameHeight;
  const scale = Math.hypot(eyeDx, eyeDy) / Math.hypot(lensDx, lensDy);
  const angle = Math.atan2(eyeDy, eyeDx) - Math.atan2(lensDy, lensDx);
  const a = scale * Math.cos(angle);
  const b = scale * Math.sin(angle);
  const lensMid = {
    x: ((anchor.left.x + anchor.right.x) / 2) * frameWidth,
    y: ((anchor.left.y + anchor.right.y) / 2) * frameHeight,
  };
  const eyeMid = { x: (face.left_eye.x + face.right_eye.x) / 2, y: (face.left_eye.y + face.right_eye.y) / 2 };
  return [a, b, -b, a, eyeMid.x - (a * lensMid.x - b * lensMid.y), eyeMid.y - (b * lensMid.x + a * lensMid.y)];
}

/** Where a point of the frame picture lands on the photo under `matrix`. */
export function applyMatrix(matrix: Matrix, point: Point): Point {
  const [a, b, c, d, e, f] = matrix;
  return { x: a * point.x + c * point.y + e, y: b * point.x + d * point.y + f };
}

/**
 * Lays the drawn frame (RGBA, the same size as the photo, transparent where nothing was drawn) over the photo
 * into `out`, with the frame picture's background keyed out.
 */
export function composite(
  photo: ArrayLike<number>,
  frame: ArrayLike<number>,
  background: Rgb | null,
  out: { [index: number]: number; length: number },
): void {
  for (let at = 0; at < out.length; at += 4) {
    const opacity =
      frame[at + 3] === 0 ? 0 : (frame[at + 3] / 255) * keyAlpha(frame[at], frame[at + 1], frame[at + 2], background);
    out[at] = photo[at] + (frame[at] - photo[at]) * opacity;
    out[at + 1] = photo[at + 1] + (frame[at + 1] - photo[at + 1]) * opacity;
    out[at + 2] = photo[at + 2] + (frame[at + 2] - photo[at + 2]) * opacity;
    out[at + 3] = 255;
  }
}

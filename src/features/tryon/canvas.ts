import type { DetectedFace } from '../../../types/api';
import { type FrameAnchor, type Matrix, analyseFrame, composite, fitWithin, frameTransform } from './geometry';
import { tryOnPlatform } from './platform';

/**
 * The try-on canvas on both platforms: on H5 the <canvas> inside Taro's <Canvas>, on weapp the node of a
 * <Canvas type="2d">. Both speak the same 2D context; only finding the node, loading an image and exporting
 * the picture differ (platform.h5.ts, platform.weapp.ts).
 */

export interface TryOnImage {
  width: number;
  height: number;
}

/** An image being loaded (a canvas's own, or the browser's): drawable once `onload` has run. */
export type LoadableImage = TryOnImage & {
  src: string;
  onload: ((...event: never[]) => unknown) | null;
  onerror: ((...error: never[]) => unknown) | null;
};

interface PixelData {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

interface Context2d {
  clearRect(x: number, y: number, width: number, height: number): void;
  drawImage(image: TryOnImage, x: number, y: number, width: number, height: number): void;
  getImageData(x: number, y: number, width: number, height: number): PixelData;
  putImageData(data: PixelData, x: number, y: number): void;
  createImageData(width: number, height: number): PixelData;
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void;
}

export interface TryOnCanvas {
  width: number;
  height: number;
  getContext(kind: '2d'): Context2d | null;
  createImage?(): LoadableImage;
  toDataURL?(type: string, quality: number): string;
}

/** A picture ready to send (base64 JPEG as a data URL) and to save (a file path, or the data URL on H5). */
export interface ExportedPicture {
  dataUrl: string;
  filePath: string;
}

/** The canvas node of the page's <Canvas id={id}>. */
export function findCanvas(id: string): Promise<TryOnCanvas> {
  return tryOnPlatform.findCanvas(id);
}

/** Loads an image (a chosen photo's path or a frame picture's URL) for drawing on `canvas`. */
export function loadImage(canvas: TryOnCanvas, src: string): Promise<TryOnImage> {
  return new Promise((resolve, reject) => {
    const image = tryOnPlatform.newImage(canvas);
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error(`the image ${src} cannot be loaded`));
    image.src = src;
  });
}

function context(canvas: TryOnCanvas): Context2d {
  const found = canvas.getContext('2d');
  if (!found) throw new Error('the canvas has no 2D context');
  return found;
}

/** Sizes the canvas to the photo (at most MAX_PHOTO_SIDE on its longest side) and draws it; hands back its pixels. */
export function drawPhoto(canvas: TryOnCanvas, photo: TryOnImage): PixelData {
  const size = fitWithin(photo.width, photo.height);
  canvas.width = size.width;
  canvas.height = size.height;
  const ctx = context(canvas);
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.drawImage(photo, 0, 0, size.width, size.height);
  return ctx.getImageData(0, 0, size.width, size.height);
}

/** A frame picture's natural size; an SVG without a size gets the seeded pictures' 2:1. */
function frameSize(frame: TryOnImage): { width: number; height: number } {
  return frame.width > 0 && frame.height > 0 ? frame : { width: 800, height: 400 };
}

/** Where the frame picture's lenses are, read from its pixels drawn (fitted) on the canvas. */
function readAnchor(ctx: Context2d, canvas: TryOnCanvas, frame: TryOnImage): FrameAnchor {
  const natural = frameSize(frame);
  const fitted = fitWithin(natural.width, natural.height, Math.min(canvas.width, canvas.height));
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(frame, 0, 0, fitted.width, fitted.height);
  const pixels = ctx.getImageData(0, 0, fitted.width, fitted.height);
  return analyseFrame(pixels.data, fitted.width, fitted.height);
}

/**
 * Draws the photo with the frame on the face's eyes: the frame is drawn alone under its transform, then laid
 * over the photo's pixels with its background keyed out. Returns the transform used.
 */
export function drawTryOn(canvas: TryOnCanvas, photo: PixelData, frame: TryOnImage, face: DetectedFace): Matrix {
  const ctx = context(canvas);
  const anchor = readAnchor(ctx, canvas, frame);
  const natural = frameSize(frame);
  const matrix = frameTransform(face, anchor, natural.width, natural.height);
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.setTransform(...matrix);
  ctx.drawImage(frame, 0, 0, natural.width, natural.height);
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  const drawn = ctx.getImageData(0, 0, canvas.width, canvas.height);
  const out = ctx.createImageData(canvas.width, canvas.height);
  composite(photo.data, drawn.data, anchor.background, out.data);
  ctx.putImageData(out, 0, 0);
  return matrix;
}

/** The canvas as a JPEG: a data URL to send and a path to save. */
export function exportPicture(canvas: TryOnCanvas): Promise<ExportedPicture> {
  return tryOnPlatform.exportPicture(canvas);
}

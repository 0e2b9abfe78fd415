import type { ExportedPicture, LoadableImage, TryOnCanvas } from './canvas';

/**
 * Where the try-on's canvas work differs, one file per platform: `platform.h5.ts` (the <canvas> inside Taro's
 * <Canvas>, data URLs, a download) and `platform.weapp.ts` (a <Canvas type="2d"> node, temp files, the album).
 */
export interface TryOnPlatform {
  /** The canvas node of the page's <Canvas id={id}>. */
  findCanvas(id: string): Promise<TryOnCanvas>;
  /** A new image that can be drawn on `canvas` once its `src` has loaded. */
  newImage(canvas: TryOnCanvas): LoadableImage;
  /** The canvas as a JPEG: a data URL to send and a path to save. */
  exportPicture(canvas: TryOnCanvas): Promise<ExportedPicture>;
  /** Keeps the picture where the shopper finds it again; throws what the platform refused. */
  keepPicture(filePath: string, fileName: string): Promise<void>;
}

export declare const tryOnPlatform: TryOnPlatform;

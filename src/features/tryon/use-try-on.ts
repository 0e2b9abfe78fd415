import { imageUrl } from '@/core/request';
import { useRef, useState } from 'react';
import type { DetectedFace } from '../../../types/api';
import { FRAME_UNREADABLE, type FrameChoice, NO_FACE, PHOTO_UNREADABLE, detectFaces, detectFailure } from './api';
import {
  type ExportedPicture,
  type TryOnCanvas,
  type TryOnImage,
  drawPhoto,
  drawTryOn,
  exportPicture,
  findCanvas,
  loadImage,
} from './canvas';
import { pickFace } from './geometry';

export const TRYON_CANVAS_ID = 'tryon-canvas';

/** start: no photo yet; detecting: the photo is with the face detector; ready: a frame is on the face. */
export type TryOnStage = 'start' | 'detecting' | 'no-face' | 'failed' | 'ready';

/**
 * The try-on on the page's canvas: a chosen photo is drawn, sent to face_detect, and the chosen frame drawn
 * at the eyes; another frame redraws on the same photo and face.
 */
export function useTryOn() {
  const [stage, setStage] = useState<TryOnStage>('start');
  const [message, setMessage] = useState('');
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  const canvas = useRef<TryOnCanvas | null>(null);
  const photo = useRef<ReturnType<typeof drawPhoto> | null>(null);
  const face = useRef<DetectedFace | null>(null);
  const frameImages = useRef(new Map<string, TryOnImage>());
  const latestFrame = useRef('');

  const fail = (next: TryOnStage, text: string) => {
    setStage(next);
    setMessage(text);
  };

  /** Draws `choice` on the face of the current photo; a frame chosen meanwhile wins over a slower one. */
  const dress = async (choice: FrameChoice | null) => {
    const target = canvas.current;
    if (!choice || !target || !photo.current || !face.current) return;
    latestFrame.current = choice.key;
    try {
      const image = frameImages.current.get(choice.key) ?? (await loadImage(target, imageUrl(choice.image)));
      frameImages.current.set(choice.key, image);
      if (latestFrame.current !== choice.key || !photo.current || !face.current) return;
      drawTryOn(target, photo.current, image, face.current);
      setMessage('');
    } catch {
      setMessage(FRAME_UNREADABLE);
    }
  };

  /** Shows the photo at `path`, finds the face in it and dresses it with `choice`. */
  const start = async (path: string, choice: FrameChoice | null) => {
    setStage('detecting');
    setMessage('');
    face.current = null;
    let sent: string;
    try {
      canvas.current ??= await findCanvas(TRYON_CANVAS_ID);
      photo.current = drawPhoto(canvas.current, await loadImage(canvas.current, path));
      setSize({ width: canvas.current.width, height: canvas.current.height });
      sent = (await exportPicture(canvas.current)).dataUrl;
    } catch {
      fail('failed', PHOTO_UNREADABLE);
      return;
    }
    let faces: DetectedFace[];
    try {
      faces = await detectFaces(sent);
    } catch (failure) {
      fail('failed', detectFailure(failure));
      return;
    }
    const found = pickFace(faces);
    if (!found) {
      fail('no-face', NO_FACE);
      return;
    }
    face.current = found;
    setStage('ready');
    await dress(choice);
  };

  /** The picture on the canvas, to save or share. */
  const picture = (): Promise<ExportedPicture> => {
    if (!canvas.current) return Promise.reject(new Error('no picture yet'));
    return exportPicture(canvas.current);
  };

  return { stage, message, size, start, dress, picture };
}

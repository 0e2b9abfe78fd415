import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import * as faceapi from '@vladmandic/face-api/dist/face-api.node-wasm.js';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import type { DetectedFace } from '../../types/api';

/**
 * Face detection for the try-on: face-api's tiny face detector and 68-point landmarks on
 * TensorFlow.js' WebAssembly backend. The models and the .wasm files ship inside the npm packages,
 * so nothing is downloaded at run time.
 */
const require = createRequire(__filename);
const MAX_MEGAPIXELS = 40;

export class ImageUnreadable extends Error {}

let ready: Promise<void> | null = null;

function init(): Promise<void> {
  ready ??= (async () => {
    const wasmDir = dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'));
    // false: read the .wasm files from disk (Node's fetch cannot load file paths).
    setWasmPaths(`${wasmDir}/`, false);
    await tf.setBackend('wasm');
    await tf.ready();
    const modelDir = join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
    await faceapi.nets.tinyFaceDetector.loadFromDisk(modelDir);
    await faceapi.nets.faceLandmark68TinyNet.loadFromDisk(modelDir);
  })();
  return ready;
}

/** RGB pixels of a JPEG or PNG. */
function decode(buffer: Buffer): { data: Uint8Array; width: number; height: number } {
  if (buffer.length > 3 && buffer[0] === 0xff && buffer[1] === 0xd8 && buffer[2] === 0xff) {
    try {
      const image = jpeg.decode(buffer, { useTArray: true, formatAsRGBA: false, maxResolutionInMP: MAX_MEGAPIXELS });
      return { data: image.data, width: image.width, height: image.height };
    } catch {
      throw new ImageUnreadable('the JPEG image cannot be read');
    }
  }
  if (buffer.subarray(0, 8).toString('latin1') === '\x89PNG\r\n\x1a\n') {
    let png: PNG;
    try {
      png = PNG.sync.read(buffer);
    } catch {
      throw new ImageUnreadable('the PNG image cannot be read');
    }
    if (png.width * png.height > MAX_MEGAPIXELS * 1e6)
      throw new ImageUnreadable(`the image is larger than ${MAX_MEGAPIXELS} megapixels`);
    const rgb = new Uint8Array(png.width * png.height * 3);
    for (let pixel = 0; pixel < png.width * png.height; pixel += 1) {
      rgb[pixel * 3] = png.data[pixel * 4];
      rgb[pixel * 3 + 1] = png.data[pixel * 4 + 1];
      rgb[pixel * 3 + 2] = png.data[pixel * 4 + 2];
    }
    return { data: rgb, width: png.width, height: png.height };
  }
  throw new ImageUnreadable('must be a JPEG or PNG image');
}

const centre = (points: { x: number; y: number }[]) => ({
  x: Math.round((points.reduce((sum, p) => sum + p.x, 0) / points.length) * 10) / 10,
  y: Math.round((points.reduce((sum, p) => sum + p.y, 0) / points.length) * 10) / 10,
});

/** Faces in the image, best first, in image pixels. */
export async function detectFaces(buffer: Buffer): Promise<DetectedFace[]> {
  const image = decode(buffer);
  await init();
  const tensor = tf.tensor3d(image.data, [image.height, image.width, 3], 'int32');
  try {
    const options = new faceapi.TinyFaceDetectorOptions({ inputSize: 416, scoreThreshold: 0.5 });
    const results = await faceapi.detectAllFaces(tensor as never, options).withFaceLandmarks(true);
    return results
      .map((result) => {
        const box = result.detection.box;
        return {
          box: {
            x: Math.round(box.x),
            y: Math.round(box.y),
            width: Math.round(box.width),
            height: Math.round(box.height),
          },
          left_eye: centre(result.landmarks.getLeftEye()),
          right_eye: centre(result.landmarks.getRightEye()),
          score: Math.round(result.detection.score * 1000) / 1000,
        };
      })
      .sort((a, b) => b.score - a.score);
  } finally {
    tensor.dispose();
  }
}

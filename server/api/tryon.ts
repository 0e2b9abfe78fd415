import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../auth';
import type { AppContext } from '../context';
import { ApiError, body, ok } from '../http';
import { FaceDetectorFailed } from '../services/face-detector';
import { ImageUnreadable } from '../services/faces';
import { UploadRejected, storeUpload } from '../services/uploads';

const TRY_ON_EXTENSIONS = ['jpg', 'jpeg', 'png', 'webp'];

/** Raw base64 or a data: URL, decoded; a 400 naming the field when it is not base64 or too large. */
function decodeBase64(ctx: AppContext, value: string): Buffer {
  const encoded = value.replace(/^data:[\w/+.-]+;base64,/, '');
  if (!/^[A-Za-z0-9+/=\s]+$/.test(encoded)) throw new ApiError(400, 'image_base64: must be base64');
  const buffer = Buffer.from(encoded, 'base64');
  if (buffer.length > ctx.config.maxUploadBytes) {
    throw new ApiError(400, `image_base64: larger than ${Math.round(ctx.config.maxUploadBytes / 1024 / 1024)} MB`);
  }
  return buffer;
}

export function registerTryOnRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/tryon/face_detect', { bodyLimit: 12 * 1024 * 1024 }, async (request) => {
    await requireUser(ctx, request);
    const input = body(
      request,
      z.object({ image_base64: z.string({ required_error: 'is required' }).min(1, 'is required') }),
    );
    try {
      return ok({ faces: await ctx.faces.detect(decodeBase64(ctx, input.image_base64)) });
    } catch (error) {
      if (error instanceof ImageUnreadable) throw new ApiError(400, `image_base64: ${error.message}`);
      if (error instanceof FaceDetectorFailed) {
        throw new ApiError(503, `Face detection is unavailable (${error.message}), please try again`);
      }
      throw error;
    }
  });

  app.post('/api/upload/try_on_images', { bodyLimit: 12 * 1024 * 1024 }, async (request) => {
    await requireUser(ctx, request);
    const input = body(
      request,
      z.object({
        file_name: z.string({ required_error: 'is required' }).trim().min(1, 'is required').max(200),
        image_base64: z.string({ required_error: 'is required' }).min(1, 'is required'),
      }),
    );
    const buffer = decodeBase64(ctx, input.image_base64);
    try {
      return ok(await storeUpload(ctx.config.uploadDir, 'tryon', input.file_name, buffer, TRY_ON_EXTENSIONS));
    } catch (error) {
      if (error instanceof UploadRejected) throw new ApiError(400, error.message.replace(/^file:/, 'file_name:'));
      throw error;
    }
  });
}

import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { detectFaces, storeTryOnImage } from '../../services/try-on';
import { routeGroup } from '../route';

/** Photos are large (base64 of up to the upload limit). */
const PHOTO_BODY_LIMIT = 12 * 1024 * 1024;

/** The virtual try-on: face detection and the pictures a shopper keeps. */
export function registerTryOnRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'user', tag: 'tryon' }, (group) => {
    group.route(
      'POST /api/tryon/face_detect',
      async ({ input }) => ({ faces: await detectFaces(ctx, input.image_base64) }),
      { bodyLimit: PHOTO_BODY_LIMIT },
    );
    group.route(
      'POST /api/upload/try_on_images',
      ({ input }) => storeTryOnImage(ctx, input.file_name, input.image_base64),
      { bodyLimit: PHOTO_BODY_LIMIT },
    );
  });
}

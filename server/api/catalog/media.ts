import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { storeMedia } from '../../services/media';
import { readParts, requireMultipart } from '../multipart';
import { routeGroup } from '../route';

/** Uploads of media files: avatars and prescription photos for anyone signed in, goods and article media for staff. */
export function registerMediaRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'user', tag: 'catalog' }, (group) => {
    group.route(
      'POST /api/goods/save_goods_media_files',
      async ({ user, request }) => {
        const { file, fields } = await readParts(request);
        return storeMedia(ctx, user, fields.get('save_to'), file);
      },
      {
        preValidation: [requireMultipart('file: send multipart/form-data with the fields file and save_to')],
        description: 'Admin only for save_to GOODS and ARTICLE.',
      },
    );
  });
}

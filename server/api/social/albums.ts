import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { storeSocialImage } from '../../services/media';
import { addImages, albumDetail, albumsOf, createAlbum, deleteAlbum, deleteImage } from '../../services/social/albums';
import { readParts, requireMultipart } from '../multipart';
import { routeGroup, signedIn } from '../route';

/** Albums and their images. */
export function registerAlbumRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'viewer', tag: 'social' }, (group) => {
    group.route('POST /api/social/albums', ({ input, user }) =>
      albumsOf(ctx, user, input.user_id ?? signedIn(user).id),
    );
    group.route('POST /api/social/album', ({ input, user }) => albumDetail(ctx, user, input.album_id));
  });
  routeGroup(app, ctx, { access: 'user', tag: 'social' }, (group) => {
    group.route(
      'POST /api/social/upload_image',
      async ({ request }) => storeSocialImage(ctx, (await readParts(request)).file),
      { preValidation: [requireMultipart('file: send multipart/form-data with the field file')] },
    );
    group.route('POST /api/social/create_album', ({ input, user }) => createAlbum(ctx, user, input));
    group.route('POST /api/social/delete_album', async ({ input, user }) => {
      await deleteAlbum(ctx, user, input.album_id);
      return { deleted: true as const };
    });
    group.route('POST /api/social/add_images', ({ input, user }) => addImages(ctx, user, input));
    group.route('POST /api/social/delete_image', async ({ input, user }) => {
      await deleteImage(ctx, user, input.image_id);
      return { deleted: true as const };
    });
  });
}

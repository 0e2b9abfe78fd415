import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { createTag, findTags, tagImage, tagImages } from '../../services/social/albums';
import { routeGroup } from '../route';

/** Tags and the images they mark. */
export function registerTagRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'public', tag: 'social' }, (group) => {
    group.route('POST /api/social/tags', ({ input }) => findTags(ctx, input.keyword));
  });
  routeGroup(app, ctx, { access: 'viewer', tag: 'social' }, (group) => {
    group.route('POST /api/social/tag_images', ({ input, user }) => tagImages(ctx, user, input));
  });
  routeGroup(app, ctx, { access: 'user', tag: 'social' }, (group) => {
    group.route('POST /api/social/create_tag', ({ input, user }) => createTag(ctx, user, input.name));
    group.route('POST /api/social/tag_image', ({ input, user }) => tagImage(ctx, user, input));
  });
}

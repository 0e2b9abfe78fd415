import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { collectedAlbums, collectedImages, setCollected } from '../../services/social/reactions';
import { routeGroup } from '../route';

/** The signed-in user's collected albums and images. */
export function registerCollectionRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'user', tag: 'social' }, (group) => {
    group.route('POST /api/social/collect', ({ input, user }) => setCollected(ctx, user, input, true));
    group.route('POST /api/social/uncollect', ({ input, user }) => setCollected(ctx, user, input, false));
    group.route('POST /api/social/collected_albums', ({ input, user }) => collectedAlbums(ctx, user, input));
    group.route('POST /api/social/collected_images', ({ input, user }) => collectedImages(ctx, user, input));
  });
}

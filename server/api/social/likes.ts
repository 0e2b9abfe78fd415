import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { likesOf, setLiked } from '../../services/social/reactions';
import { routeGroup } from '../route';

/** Likes of articles and images. */
export function registerLikeRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'viewer', tag: 'social' }, (group) => {
    group.route('POST /api/social/likes', ({ input, user }) => likesOf(ctx, user, input.kind, input.target_id));
  });
  routeGroup(app, ctx, { access: 'user', tag: 'social' }, (group) => {
    group.route('POST /api/social/like', ({ input, user }) => setLiked(ctx, user, input, true));
    group.route('POST /api/social/unlike', ({ input, user }) => setLiked(ctx, user, input, false));
  });
}

import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { followList, setFollowing } from '../../services/social/people';
import { routeGroup, signedIn } from '../route';

/** Following people, and who follows whom. */
export function registerFollowRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'user', tag: 'social' }, (group) => {
    group.route('POST /api/social/follow', ({ input, user }) => setFollowing(ctx, user, input.user_id, true));
    group.route('POST /api/social/unfollow', ({ input, user }) => setFollowing(ctx, user, input.user_id, false));
  });
  routeGroup(app, ctx, { access: 'viewer', tag: 'social' }, (group) => {
    group.route('POST /api/social/followers', ({ input, user }) =>
      followList(ctx, user, input.user_id ?? signedIn(user).id, 'followers', input),
    );
    group.route('POST /api/social/following', ({ input, user }) =>
      followList(ctx, user, input.user_id ?? signedIn(user).id, 'following', input),
    );
  });
}

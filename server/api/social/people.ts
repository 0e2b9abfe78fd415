import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { profile, searchUsers, trends, updateProfile } from '../../services/social/people';
import { routeGroup, signedIn } from '../route';

/** Profiles, the user search and the trends feed. */
export function registerPeopleRoutes(app: FastifyInstance, ctx: AppContext): void {
  // Anyone may look at people; without user_id a route is about the caller, who must be signed in.
  routeGroup(app, ctx, { access: 'viewer', tag: 'social' }, (group) => {
    group.route('POST /api/social/profile', ({ input, user }) =>
      profile(ctx, user, input.user_id ?? signedIn(user).id),
    );
    group.route('POST /api/social/users', ({ input, user }) => searchUsers(ctx, user, input));
    group.route('POST /api/social/trends', ({ input, user }) => trends(ctx, input, () => signedIn(user)));
  });
  routeGroup(app, ctx, { access: 'user', tag: 'social' }, (group) => {
    group.route('POST /api/social/update_profile', ({ input, user }) => updateProfile(ctx, user, input));
  });
}

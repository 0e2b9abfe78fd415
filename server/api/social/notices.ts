import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { notices } from '../../services/social/notices';
import { routeGroup } from '../route';

/** What happened to the signed-in user's content. */
export function registerNoticeRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'user', tag: 'social' }, (group) => {
    group.route('POST /api/social/notifications', ({ input, user }) => notices(ctx, user, input));
  });
}

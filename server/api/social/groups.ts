import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import {
  createGroup,
  groupMembers,
  groupWithMembers,
  groupsOf,
  joinGroupAs,
  leaveGroup,
} from '../../services/social/groups';
import { routeGroup } from '../route';

/** Groups (the member lists of group chats). */
export function registerGroupRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'user', tag: 'social' }, (group) => {
    group.route('POST /api/social/groups', ({ user }) => groupsOf(ctx, user));
    group.route('POST /api/social/group', ({ input, user }) => groupWithMembers(ctx, user, input.group_id));
    group.route('POST /api/social/create_group', ({ input, user }) => createGroup(ctx, user, input));
    group.route('POST /api/social/join_group', ({ input, user }) => joinGroupAs(ctx, user, input.group_id));
    group.route('POST /api/social/leave_group', async ({ input, user }) => {
      await leaveGroup(ctx, user, input.group_id);
      return { left: true as const };
    });
    group.route('POST /api/social/group_members', ({ input, user }) => groupMembers(ctx, user, input.group_id));
  });
}

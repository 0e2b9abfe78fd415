import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { addComment, deleteComment, listComments } from '../../services/social/reactions';
import { routeGroup } from '../route';

/** Comments on articles and images. */
export function registerCommentRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'public', tag: 'social' }, (group) => {
    group.route('POST /api/social/comments', ({ input }) => listComments(ctx, input));
  });
  routeGroup(app, ctx, { access: 'user', tag: 'social' }, (group) => {
    group.route('POST /api/social/add_comment', ({ input, user }) => addComment(ctx, user, input));
    group.route('POST /api/social/delete_comment', async ({ input, user }) => {
      await deleteComment(ctx, user, input.comment_id);
      return { deleted: true as const };
    });
  });
}

import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { listReviews, saveReview } from '../../services/reviews';
import { routeGroup } from '../route';

/** Shoppers' reviews of frames. */
export function registerReviewRoutes(app: FastifyInstance, ctx: AppContext): void {
  // The caller's own review is marked (mine): a token, when sent, must be valid.
  routeGroup(app, ctx, { access: 'viewer', tag: 'review' }, (group) => {
    group.route('POST /api/review/get_reviews', ({ input, user }) =>
      listReviews(ctx, input.goods_id, input.page, input.page_size, user?.id ?? null),
    );
  });
  routeGroup(app, ctx, { access: 'user', tag: 'review' }, (group) => {
    group.route('POST /api/review/save_review', ({ input, user }) => saveReview(ctx, user.id, input));
  });
}

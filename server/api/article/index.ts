import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import {
  adminArticleList,
  articleCategories,
  deleteArticle,
  getArticle,
  listArticles,
  publishArticle,
  updateArticle,
} from '../../services/articles';
import { routeGroup } from '../route';

/** Articles: anyone reads them, admins write them. */
export function registerArticleRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'public', tag: 'article' }, (group) => {
    group.route('GET /api/article/get_article', ({ input }) => getArticle(ctx, input.id));
    group.route('GET /api/article/get_article_category', () => articleCategories(ctx));
    group.route('POST /api/article/get_article_list', ({ input }) => listArticles(ctx, input));
  });
  routeGroup(app, ctx, { access: 'admin', tag: 'article' }, (group) => {
    group.route('POST /api/article/insert_article', ({ user, input }) => publishArticle(ctx, user.id, input));
    group.route('POST /api/admin/article/list', ({ input }) => adminArticleList(ctx, input));
    group.route('POST /api/article/update_article', ({ input }) => updateArticle(ctx, input));
    group.route('POST /api/article/delete_article', async ({ input }) => {
      await deleteArticle(ctx, input.article_id);
      return { deleted: true as const };
    });
  });
}

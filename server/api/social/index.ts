import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { registerAlbumRoutes } from './albums';
import { registerCollectionRoutes } from './collections';
import { registerCommentRoutes } from './comments';
import { registerFollowRoutes } from './follows';
import { registerGroupRoutes } from './groups';
import { registerLikeRoutes } from './likes';
import { registerNoticeRoutes } from './notices';
import { registerPeopleRoutes } from './people';
import { registerTagRoutes } from './tags';

/** The social side, one file per sub-domain. */
export function registerSocialRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerPeopleRoutes(app, ctx);
  registerFollowRoutes(app, ctx);
  registerAlbumRoutes(app, ctx);
  registerTagRoutes(app, ctx);
  registerCollectionRoutes(app, ctx);
  registerLikeRoutes(app, ctx);
  registerCommentRoutes(app, ctx);
  registerGroupRoutes(app, ctx);
  registerNoticeRoutes(app, ctx);
}

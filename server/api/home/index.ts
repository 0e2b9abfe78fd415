import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { homePage, homeSection } from '../../services/home';
import { routeGroup } from '../route';

/** The home page and its sections. */
export function registerHomeRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'public', tag: 'home' }, (group) => {
    group.route('GET /api/index/shop_mainpage', () => homePage(ctx));
    group.route('GET /api/index/shop_mainpage_detail', ({ input }) => homeSection(ctx, input.id));
  });
}

import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import {
  categoryPage,
  colors,
  countries,
  coupons,
  discounts,
  filters,
  recommendedCoupons,
  shippingMethods,
  shopConfig,
} from '../../services/reference';
import { routeGroup } from '../route';

/** The shop's settings and reference lists, for anyone. */
export function registerConfigRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'public', tag: 'config' }, (group) => {
    group.route('GET /api/config/shop_config', () => shopConfig(ctx));
    group.route('GET /api/config/get_category_page', ({ input }) => categoryPage(ctx, input));
    group.route('GET /api/config/get_colors', () => colors(ctx));
    group.route('GET /api/config/get_countries', () => countries(ctx));
    group.route('GET /api/config/get_coupons', () => coupons(ctx));
    group.route('GET /api/config/get_discount', () => discounts(ctx));
    group.route('GET /api/config/get_filters', () => filters(ctx));
    group.route('POST /api/config/get_shipping_method', ({ input }) => shippingMethods(ctx, input.subtotal));
  });
  // A signed-in caller's used coupons are left out: a token, when sent, must be valid.
  routeGroup(app, ctx, { access: 'viewer', tag: 'config' }, (group) => {
    group.route('POST /api/config/get_recommend_coupons', ({ input, user }) =>
      recommendedCoupons(ctx, user?.id ?? null, input.subtotal),
    );
  });
}

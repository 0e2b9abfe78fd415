import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { lensCoatings, lensColors, lensThickness, lensTypes, prismPrice } from '../../services/lenses';
import { routeGroup } from '../route';

/** The lens options and their prices. */
export function registerLensRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'public', tag: 'catalog' }, (group) => {
    group.route('POST /api/goods/get_lens_type', () => lensTypes(ctx));
    group.route('POST /api/goods/get_lens_color', () => lensColors(ctx));
    group.route('POST /api/goods/get_lens_thickness', () => lensThickness(ctx));
    group.route('GET /api/goods/lens_coating', () => lensCoatings(ctx));
    group.route('GET /api/goods/prism_price', () => prismPrice(ctx));
  });
}

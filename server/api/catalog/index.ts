import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { registerGoodsAdminRoutes } from './admin';
import { registerGoodsRoutes } from './goods';
import { registerLensRoutes } from './lenses';
import { registerMediaRoutes } from './media';

export function registerCatalogRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerGoodsRoutes(app, ctx);
  registerLensRoutes(app, ctx);
  registerGoodsAdminRoutes(app, ctx);
  registerMediaRoutes(app, ctx);
}

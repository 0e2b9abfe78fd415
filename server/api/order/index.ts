import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { registerAdminOrderRoutes } from './admin';
import { registerCartRoutes } from './cart';
import { registerOrdersRoutes } from './orders';

export function registerOrderRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerCartRoutes(app, ctx);
  registerOrdersRoutes(app, ctx);
  registerAdminOrderRoutes(app, ctx);
}

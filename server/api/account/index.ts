import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { registerAddressRoutes } from './addresses';
import { type AuthLimits, registerAuthRoutes } from './auth';
import { registerPrescriptionRoutes } from './prescriptions';

export function registerAccountRoutes(app: FastifyInstance, ctx: AppContext, limits: AuthLimits): void {
  registerAuthRoutes(app, ctx, limits);
  registerAddressRoutes(app, ctx);
  registerPrescriptionRoutes(app, ctx);
}

import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { registerBraintreeRoutes } from './braintree';
import { registerCardRoutes } from './card';
import { registerPaypalRoutes } from './paypal';
import { registerSandboxRoutes } from './sandbox';

export function registerPaymentRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerCardRoutes(app, ctx);
  registerPaypalRoutes(app, ctx);
  registerBraintreeRoutes(app, ctx);
  registerSandboxRoutes(app, ctx);
}

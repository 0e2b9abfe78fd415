import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { registerBraintreeRoutes } from './braintree';
import { registerCardRoutes } from './card';
import { registerMethodRoutes } from './methods';
import { registerPaypalRoutes } from './paypal';
import { registerWebhookRoutes } from './webhooks';
import { registerWechatPayRoutes } from './wechat';

export function registerPaymentRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerMethodRoutes(app, ctx);
  registerCardRoutes(app, ctx);
  registerPaypalRoutes(app, ctx);
  registerBraintreeRoutes(app, ctx);
  registerWechatPayRoutes(app, ctx);
  registerWebhookRoutes(app, ctx);
}

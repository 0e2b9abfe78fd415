import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { paymentMethods } from '../../services/checkout';
import { routeGroup } from '../route';

/** Which providers this server has (the payment page offers those its platform can host). */
export function registerMethodRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'public', tag: 'payment' }, (group) => {
    group.route('GET /api/payment/methods', async () => paymentMethods(ctx));
  });
}

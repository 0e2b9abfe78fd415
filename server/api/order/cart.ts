import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { replaceCart, savedCart } from '../../services/cart';
import { routeGroup } from '../route';

/** The shopper's saved cart. */
export function registerCartRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'user', tag: 'order' }, (group) => {
    group.route('GET /api/order/get_cart', ({ user }) => savedCart(ctx, user.id));
    group.route('POST /api/order/upload_cart', ({ user, input }) => replaceCart(ctx, user.id, input.content));
  });
}

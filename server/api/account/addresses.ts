import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { deleteAddress, listAddresses, saveAddress } from '../../services/addresses';
import { routeGroup } from '../route';

/** The signed-in user's delivery addresses. */
export function registerAddressRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'user', tag: 'account' }, (group) => {
    group.route('POST /api/user/get_user_address', ({ user }) => listAddresses(ctx, user.id));
    group.route('POST /api/user/set_user_address', ({ user, input }) => saveAddress(ctx, user.id, input));
    group.route('POST /api/user/delete_user_address', async ({ user, input }) => {
      await deleteAddress(ctx, user.id, input.address_id);
      return { deleted: true as const };
    });
  });
}

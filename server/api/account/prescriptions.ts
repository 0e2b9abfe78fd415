import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { deletePrescription, listPrescriptions, savePrescription } from '../../services/prescriptions';
import { routeGroup } from '../route';

/** The signed-in user's prescriptions. */
export function registerPrescriptionRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'user', tag: 'account' }, (group) => {
    group.route('GET /api/user/get_my_prescription', ({ user }) => listPrescriptions(ctx, user.id));
    group.route('POST /api/user/delete_my_prescription', async ({ user, input }) => {
      await deletePrescription(ctx, user.id, input.prescription_id);
      return { deleted: true as const };
    });
    group.route('POST /api/order/submit_my_prescription', ({ user, input }) => savePrescription(ctx, user.id, input));
  });
}

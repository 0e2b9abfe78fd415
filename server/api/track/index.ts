import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { registerForUser, trackForUser } from '../../services/tracking';
import { routeGroup } from '../route';

/** Parcel tracking, bound to the order: its owner's or staff's. */
export function registerTrackRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'user', tag: 'track' }, (group) => {
    group.route('POST /api/track/track_no_register', async ({ user, input }) => {
      const trackingNo = input.tracking_no.toUpperCase();
      await registerForUser(ctx, user, trackingNo, input.carrier);
      return { registered: true as const, tracking_no: trackingNo };
    });
    group.route('POST /api/track/one_seven_track_data', ({ user, input }) =>
      trackForUser(ctx, user, input.tracking_no.toUpperCase(), input.carrier),
    );
  });
}

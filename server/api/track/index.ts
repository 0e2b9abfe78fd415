import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { registerParcel, trackParcel } from '../../services/tracking';
import { routeGroup } from '../route';

/** Parcel tracking for signed-in shoppers. */
export function registerTrackRoutes(app: FastifyInstance, ctx: AppContext): void {
  routeGroup(app, ctx, { access: 'user', tag: 'track' }, (group) => {
    group.route('POST /api/track/track_no_register', async ({ input }) => {
      const trackingNo = input.tracking_no.toUpperCase();
      await registerParcel(ctx, trackingNo, input.carrier);
      return { registered: true as const, tracking_no: trackingNo };
    });
    group.route('POST /api/track/one_seven_track_data', ({ input }) =>
      trackParcel(ctx, input.tracking_no.toUpperCase(), input.carrier),
    );
  });
}

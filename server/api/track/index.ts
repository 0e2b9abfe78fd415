import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { registerForUser, seventeenTrackWebhook, trackForUser } from '../../services/tracking';
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

  // 17track calls this one: public, believed once its signature over the exact body checks out.
  app.register(async (hooks) => {
    const parseJson = hooks.getDefaultJsonParser('error', 'error');
    hooks.removeContentTypeParser('application/json');
    hooks.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      request.rawBody = body as string;
      parseJson(request, body as string, done);
    });
    routeGroup(hooks, ctx, { access: 'public', tag: 'track' }, (group) => {
      group.route('POST /api/track/webhook/17track', ({ request }) =>
        seventeenTrackWebhook(ctx, request.rawBody ?? '', String(request.headers.sign ?? '')),
      );
    });
  });
}

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../auth';
import type { AppContext } from '../context';
import { ApiError, body, ok } from '../http';

const UNREACHABLE = 'The tracking service is not reachable, try again later';

const trackInput = z.object({
  tracking_no: z
    .string({ required_error: 'is required' })
    .trim()
    .regex(/^[A-Za-z0-9-]{6,40}$/, 'must be 6 to 40 letters, digits or dashes'),
  carrier: z.string().trim().max(60).optional(),
});

export function registerTrackRoutes(app: FastifyInstance, ctx: AppContext): void {
  async function registration(trackingNo: string, carrier: string | undefined) {
    const known = await ctx.db
      .selectFrom('tracking_registrations')
      .selectAll()
      .where('tracking_no', '=', trackingNo)
      .executeTakeFirst();
    if (known) return known;
    try {
      await ctx.tracker.register(trackingNo, carrier);
    } catch {
      throw new ApiError(503, UNREACHABLE);
    }
    const row = { tracking_no: trackingNo, carrier: carrier ?? '', registered_at: ctx.now() };
    await ctx.db.insertInto('tracking_registrations').values(row).execute();
    return row;
  }

  app.post('/api/track/track_no_register', async (request) => {
    await requireUser(ctx, request);
    const input = body(request, trackInput);
    const trackingNo = input.tracking_no.toUpperCase();
    await registration(trackingNo, input.carrier);
    return ok({ registered: true as const, tracking_no: trackingNo });
  });

  app.post('/api/track/one_seven_track_data', async (request) => {
    await requireUser(ctx, request);
    const input = body(request, trackInput);
    const known = await registration(input.tracking_no.toUpperCase(), input.carrier);
    try {
      return ok(await ctx.tracker.track(known.tracking_no, known.registered_at, input.carrier ?? known.carrier));
    } catch {
      throw new ApiError(503, UNREACHABLE);
    }
  });
}

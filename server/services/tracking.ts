import { createHash, timingSafeEqual } from 'node:crypto';
import type { TrackEvent, TrackStatus, Tracking } from '../../types/api';
import type { UserRow } from '../auth';
import type { AppContext } from '../context';
import { ApiError } from '../http';
import { registerProductionCheck } from '../production-mode';
import { CARRIER, deliverOrder } from './order-lifecycle';

export interface Tracker {
  readonly kind: '17track' | 'offline';
  register(trackingNo: string, carrier?: string): Promise<void>;
  /** `registeredAt`: when we first registered the number, which the offline carrier counts from. */
  track(trackingNo: string, registeredAt: number, carrier?: string): Promise<Tracking>;
}

const HOUR = 3600_000;
const ROUTE: { afterHours: number; status: TrackStatus; location: string; description: string }[] = [
  { afterHours: 0, status: 'registered', location: 'Shenzhen, CN', description: 'Shipping label created' },
  { afterHours: 6, status: 'in_transit', location: 'Shenzhen, CN', description: 'Parcel picked up by the carrier' },
  { afterHours: 20, status: 'in_transit', location: 'Hong Kong, HK', description: 'Departed the export hub' },
  { afterHours: 44, status: 'in_transit', location: '{hub}', description: 'Arrived at the destination hub' },
  { afterHours: 60, status: 'in_transit', location: '{hub}', description: 'Cleared customs' },
  { afterHours: 80, status: 'out_for_delivery', location: '{city}', description: 'Out for delivery' },
  { afterHours: 90, status: 'delivered', location: '{city}', description: 'Delivered' },
];
const HUBS = [
  ['Frankfurt, DE', 'Berlin, DE'],
  ['Los Angeles, US', 'San Diego, US'],
  ['London, GB', 'Manchester, GB'],
  ['Paris, FR', 'Lyon, FR'],
  ['Sydney, AU', 'Melbourne, AU'],
];

/**
 * The offline carrier: the tracking number fixes the route and a delay of up to three hours after
 * registration; events appear as their time passes, so one number always tells the same story.
 */
export function offlineTracker(now: () => number = Date.now): Tracker {
  return {
    kind: 'offline',
    async register() {},
    async track(trackingNo, registeredAt, carrier) {
      const digest = createHash('sha256').update(trackingNo).digest();
      const time = now();
      const start = registeredAt + (digest.readUInt32BE(0) % (3 * HOUR));
      const at = (afterHours: number) => (afterHours === 0 ? registeredAt : start + afterHours * HOUR);
      const [hub, city] = HUBS[digest[4] % HUBS.length];
      const events: TrackEvent[] = ROUTE.filter((step) => at(step.afterHours) <= time)
        .map((step) => ({
          time: at(step.afterHours),
          status: step.status,
          location: step.location.replace('{hub}', hub).replace('{city}', city),
          description: step.description,
        }))
        .reverse();
      return {
        tracking_no: trackingNo,
        carrier: carrier || 'Lensmate Post',
        status: events[0]?.status ?? 'registered',
        events,
      };
    },
  };
}

function seventeenStatus(stage: string | undefined): TrackStatus {
  if (stage === 'Delivered') return 'delivered';
  if (stage === 'OutForDelivery' || stage === 'AvailableForPickup') return 'out_for_delivery';
  if (stage === 'InfoReceived' || stage === 'NotFound' || !stage) return 'registered';
  return 'in_transit';
}

/** 17track's v2.2 view of a number (an accepted item of gettrackinfo, or a notification's `data`) as ours. */
export function seventeenTracking(trackingNo: string, info: any): Tracking {
  const providers: any[] = info?.track_info?.tracking?.providers ?? [];
  const events: TrackEvent[] = (providers[0]?.events ?? []).map((event: any) => ({
    time: Date.parse(event.time_utc ?? event.time_iso ?? '') || 0,
    location: String(event.location ?? ''),
    description: String(event.description ?? ''),
    status: seventeenStatus(event.stage),
  }));
  return {
    tracking_no: trackingNo,
    carrier: String(providers[0]?.provider?.name ?? info?.carrier ?? ''),
    status: seventeenStatus(info?.track_info?.latest_status?.status),
    events,
  };
}

/** 17track's answer to a number registered before: not a failure. */
const ALREADY_REGISTERED = -18019901;

/** The 17track API (v2.2, `baseUrl` e.g. https://api.17track.net/track/v2.2): register once, then read the info. */
export function seventeenTracker(apiKey: string, baseUrl = 'https://api.17track.net/track/v2.2'): Tracker {
  async function call(path: string, payload: unknown): Promise<any> {
    const response = await fetch(`${baseUrl}/${path}`, {
      method: 'POST',
      headers: { '17token': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    if (!response.ok) throw new Error(`17track answered HTTP ${response.status}`);
    const answer = await response.json();
    if (answer?.code !== 0) throw new Error(`17track answered code ${answer?.code}`);
    return answer;
  }
  return {
    kind: '17track',
    async register(trackingNo, carrier) {
      const answer = await call('register', [
        { number: trackingNo, ...(carrier && /^\d+$/.test(carrier) ? { carrier: Number(carrier) } : {}) },
      ]);
      const rejected = answer?.data?.rejected?.[0];
      if (rejected && rejected.error?.code !== ALREADY_REGISTERED) {
        throw new Error(`17track refused ${trackingNo}: ${rejected.error?.message ?? rejected.error?.code}`);
      }
    },
    async track(trackingNo) {
      const answer = await call('gettrackinfo', [{ number: trackingNo }]);
      const info = answer?.data?.accepted?.[0];
      if (!info) throw new Error(`17track has no info on ${trackingNo}`);
      return seventeenTracking(trackingNo, info);
    },
  };
}

export const BAD_SIGNATURE = 'sign: does not match the body';

/**
 * 17track's webhook (POST /api/track/webhook/17track): believed once its `sign` header is sha256(`${body}/${key}`);
 * a TRACKING_UPDATED notification of a delivered parcel moves its shipped order to delivered. A number of no order
 * is acknowledged (17track would retry otherwise) and changes nothing.
 */
export async function seventeenTrackWebhook(ctx: AppContext, rawBody: string, sign: string) {
  const key = ctx.config.seventeenTrackKey;
  const expected = createHash('sha256').update(`${rawBody}/${key}`).digest();
  const given = Buffer.from(/^[0-9a-f]{64}$/i.test(sign) ? sign : '', 'hex');
  if (!key || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ApiError(401, BAD_SIGNATURE);
  }
  const notice = JSON.parse(rawBody);
  const number = String(notice?.data?.number ?? '').toUpperCase();
  if (notice?.event !== 'TRACKING_UPDATED' || !number) return { received: true as const, delivered: false };
  const order = await ctx.db.selectFrom('orders').select('id').where('tracking_no', '=', number).executeTakeFirst();
  if (!order) return { received: true as const, delivered: false };
  const delivered = await applyTracking(ctx, order.id, seventeenTracking(number, notice.data));
  return { received: true as const, delivered };
}

export const TRACKING_UNREACHABLE = 'The tracking service is not reachable, try again later';

/** The number's registration with the tracking service: made once, then read from the database. */
export async function registerParcel(ctx: AppContext, trackingNo: string, carrier: string | undefined) {
  const known = await ctx.db
    .selectFrom('tracking_registrations')
    .selectAll()
    .where('tracking_no', '=', trackingNo)
    .executeTakeFirst();
  if (known) return known;
  try {
    await ctx.tracker.register(trackingNo, carrier);
  } catch {
    throw new ApiError(503, TRACKING_UNREACHABLE);
  }
  const now = ctx.now();
  // Polled (without the webhook) first a poll interval after registration.
  const row = { tracking_no: trackingNo, carrier: carrier ?? '', registered_at: now, polled_at: now };
  await ctx.db.insertInto('tracking_registrations').values(row).execute();
  return row;
}

/** The order a tracking number was shipped with, if the caller may read it: its owner, or staff. */
async function boundOrder(ctx: AppContext, user: UserRow, where: { trackingNo: string } | { orderId: number }) {
  let query = ctx.db.selectFrom('orders').select(['id', 'user_id', 'status', 'tracking_no', 'carrier']);
  query =
    'trackingNo' in where ? query.where('tracking_no', '=', where.trackingNo) : query.where('id', '=', where.orderId);
  const order = await query.executeTakeFirst();
  if (!order || (order.user_id !== user.id && user.is_admin !== 1)) return null;
  return order;
}

export const NOT_YOUR_PARCEL = 'tracking_no: no order of yours was shipped with this tracking number';

/**
 * one_seven_track_data and track_no_register: a tracking number is read only by the owner of the order it was
 * shipped with, or by staff (who may also look up a number before it is bound to an order).
 */
export async function trackForUser(ctx: AppContext, user: UserRow, trackingNo: string, carrier: string | undefined) {
  const order = await boundOrder(ctx, user, { trackingNo });
  if (!order && user.is_admin !== 1) throw new ApiError(404, NOT_YOUR_PARCEL);
  const tracking = await trackParcel(ctx, trackingNo, carrier ?? order?.carrier ?? undefined);
  if (order) await applyTracking(ctx, order.id, tracking);
  return tracking;
}

export async function registerForUser(ctx: AppContext, user: UserRow, trackingNo: string, carrier?: string) {
  const order = await boundOrder(ctx, user, { trackingNo });
  if (!order && user.is_admin !== 1) throw new ApiError(404, NOT_YOUR_PARCEL);
  await registerParcel(ctx, trackingNo, carrier);
}

/** get_order_tracking: the parcel of one order, for its owner or staff. */
export async function orderTracking(ctx: AppContext, user: UserRow, orderId: number): Promise<Tracking> {
  const order = await boundOrder(ctx, user, { orderId });
  if (!order) throw new ApiError(404, 'order_id: no such order');
  if (!order.tracking_no) throw new ApiError(409, 'order_id: the order has not shipped yet');
  const tracking = await trackParcel(ctx, order.tracking_no, order.carrier ?? undefined);
  await applyTracking(ctx, order.id, tracking);
  return tracking;
}

/** What the carrier says moves the order: a delivered parcel delivers its shipped order (once). */
export async function applyTracking(ctx: AppContext, orderId: number, tracking: Tracking): Promise<boolean> {
  if (tracking.status !== 'delivered') return false;
  const order = await ctx.db.selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirst();
  if (order?.status !== 'shipped') return false;
  const delivered = tracking.events.find((event) => event.status === 'delivered');
  const note = delivered ? [delivered.description, delivered.location].filter(Boolean).join(', ') : '';
  await deliverOrder(ctx, CARRIER, orderId, note);
  return true;
}

/** A parcel's events (registering the number first when it is new). */
export async function trackParcel(ctx: AppContext, trackingNo: string, carrier: string | undefined): Promise<Tracking> {
  const known = await registerParcel(ctx, trackingNo, carrier);
  try {
    return await ctx.tracker.track(known.tracking_no, known.registered_at, carrier ?? known.carrier);
  } catch {
    throw new ApiError(503, TRACKING_UNREACHABLE);
  }
}

registerProductionCheck({
  id: 'tracking.offline',
  check({ config }) {
    if (!config || config.seventeenTrackKey) return [];
    return [
      {
        name: 'SEVENTEEN_TRACK_KEY',
        reason: 'is not set: shoppers would see simulated parcel events instead of the carrier’s',
      },
    ];
  },
});

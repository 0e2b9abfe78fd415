/**
 * The order job: every ORDER_JOB_SECONDS (and once at start, so orders that expired while the server was down are
 * caught up) it expires unpaid orders (order-lifecycle.ts) and, when 17track's webhook is not configured, polls the
 * shipped orders' parcels, moving a delivered one to delivered. It keeps nothing in memory: what is due is read from
 * the database each run, with the server's clock (ctx.now), so a restart resumes where it stopped and several
 * processes can run it side by side.
 */
import type { AppContext } from '../context';
import { expireUnpaidOrders } from './order-lifecycle';
import { applyTracking } from './tracking';

export interface OrderJobRun {
  expired: number[];
  delivered: number[];
}

export interface OrderJobs {
  /** One run now (what the timer does); resolves when done. */
  runOnce(): Promise<OrderJobRun>;
  start(): void;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/** Asks the tracking provider about the shipped parcels not asked for TRACKING_POLL_MINUTES; answers the delivered orders. */
export async function pollShippedParcels(ctx: AppContext, batch = 50): Promise<number[]> {
  const now = ctx.now();
  const due = await ctx.db
    .selectFrom('orders')
    .innerJoin('tracking_registrations', 'tracking_registrations.tracking_no', 'orders.tracking_no')
    .select([
      'orders.id',
      'orders.carrier',
      'tracking_registrations.tracking_no',
      'tracking_registrations.registered_at',
      'tracking_registrations.polled_at',
    ])
    .where('orders.status', '=', 'shipped')
    .where('tracking_registrations.polled_at', '<=', now - ctx.config.trackingPollMs)
    .orderBy('tracking_registrations.polled_at')
    .limit(batch)
    .execute();
  const delivered: number[] = [];
  for (const parcel of due) {
    // Claimed by moving polled_at from the value read: another process polling at once skips it.
    const claimed = await ctx.db
      .updateTable('tracking_registrations')
      .set({ polled_at: now })
      .where('tracking_no', '=', parcel.tracking_no)
      .where('polled_at', '=', parcel.polled_at)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) continue;
    try {
      const tracking = await ctx.tracker.track(parcel.tracking_no, parcel.registered_at, parcel.carrier ?? undefined);
      if (await applyTracking(ctx, parcel.id, tracking)) delivered.push(parcel.id);
    } catch (error) {
      console.warn(`tracking poll of ${parcel.tracking_no} failed: ${(error as Error).message}`);
    }
  }
  return delivered;
}

export function orderJobs(ctx: AppContext): OrderJobs {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<OrderJobRun> | null = null;
  async function run(): Promise<OrderJobRun> {
    const expired = await expireUnpaidOrders(ctx);
    const delivered = ctx.config.seventeenTrackWebhook ? [] : await pollShippedParcels(ctx);
    return { expired, delivered };
  }
  const jobs: OrderJobs = {
    runOnce() {
      // One run at a time in this process: a tick that comes while one runs waits for it.
      running ??= run().finally(() => {
        running = null;
      });
      return running;
    },
    start() {
      if (timer || ctx.config.orderJobIntervalMs <= 0) return;
      const tick = () => {
        jobs.runOnce().catch((error) => console.warn(`order job failed: ${(error as Error).message}`));
      };
      timer = setInterval(tick, ctx.config.orderJobIntervalMs);
      timer.unref();
      tick();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
  };
  return jobs;
}

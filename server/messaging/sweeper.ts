import { SESSION_PROOF_MAX_AGE_MS } from './connection';
import type { MessagingContext } from './context';
import { OTP_TTL_MS } from './otp';

/**
 * The periodic cleanup: pub/sub history beyond its age or its per-channel count, outbox rows (what the
 * offline push and WeChat adapters handed off) and pending deliveries past their keep time, and
 * revocations no proof or session could still be refused by. Every process runs it; deletes are idempotent.
 */
export async function sweep(ctx: MessagingContext, now = Date.now()): Promise<void> {
  const { db } = ctx;
  const retention = ctx.config.retention;
  await db
    .deleteFrom('msg_pubsub_message')
    .where('created_at', '<', now - retention.pubsubHistoryMs)
    .execute();
  const crowded = await db
    .selectFrom('msg_pubsub_message')
    .select(['channel', (eb) => eb.fn.countAll().as('n')])
    .groupBy('channel')
    .having((eb) => eb.fn.countAll(), '>', retention.pubsubHistoryCount)
    .execute();
  for (const { channel } of crowded) await trimChannel(ctx, channel as string);
  await db
    .deleteFrom('msg_outbox')
    .where('created_at', '<', now - retention.outboxMs)
    .execute();
  await db
    .deleteFrom('msg_im_delivery')
    .where('created_at', '<', now - retention.pendingDeliveryMs)
    .execute();
  await ctx.control.sweep(now - SESSION_PROOF_MAX_AGE_MS - OTP_TTL_MS);
}

/** Keeps a channel's newest `pubsubHistoryCount` messages. */
export async function trimChannel(ctx: MessagingContext, channel: string): Promise<void> {
  const keep = ctx.config.retention.pubsubHistoryCount;
  const oldestKept = await ctx.db
    .selectFrom('msg_pubsub_message')
    .select('created_at')
    .where('channel', '=', channel)
    .orderBy('created_at', 'desc')
    .limit(1)
    .offset(keep - 1)
    .executeTakeFirst();
  if (!oldestKept) return;
  await ctx.db
    .deleteFrom('msg_pubsub_message')
    .where('channel', '=', channel)
    .where('created_at', '<', oldestKept.created_at)
    .execute();
}

export function startSweeper(ctx: MessagingContext): { stop(): void } {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweep(ctx)
      .catch((err) => ctx.log.error({ err }, 'messaging sweep failed'))
      .finally(() => {
        running = false;
      });
  }, ctx.config.retention.sweepIntervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

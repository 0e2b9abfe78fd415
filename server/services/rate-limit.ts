import type { FastifyRateLimitStore } from '@fastify/rate-limit';

/**
 * A fixed-window counter per key (an account e-mail), beside @fastify/rate-limit's per-IP limit:
 * one IP spreading guesses over many accounts and many IPs aiming at one account are both slowed.
 */
export interface RateLimiter {
  /** Counts one attempt; answers the milliseconds to wait when the key is over its limit, else 0. */
  hit(key: string): number;
  reset(key: string): void;
}

interface Window {
  start: number;
  count: number;
}

/** Fixed windows per key: `count` counts one attempt and answers a copy of the key's window after it. */
function fixedWindows(now: () => number) {
  const windows = new Map<string, Window>();
  return {
    count(key: string, windowMs: number): Window {
      const time = now();
      if (windows.size > 100_000) {
        for (const [k, w] of windows) if (time - w.start >= windowMs) windows.delete(k);
      }
      let window = windows.get(key);
      if (!window || time - window.start >= windowMs) {
        window = { start: time, count: 0 };
        windows.set(key, window);
      }
      window.count += 1;
      return { ...window };
    },
    delete(key: string) {
      windows.delete(key);
    },
  };
}

export function createRateLimiter(max: number, windowMs: number, now: () => number = Date.now): RateLimiter {
  const windows = fixedWindows(now);
  return {
    hit(key) {
      const window = windows.count(key, windowMs);
      return window.count > max ? window.start + windowMs - now() : 0;
    },
    reset(key) {
      windows.delete(key);
    },
  };
}

/**
 * The per-IP store for @fastify/rate-limit. Its LocalStore answers its live counter object and the plugin reads
 * it a microtask later, so requests whose hooks run in the same tick (a burst on one connection, app.inject)
 * all read the final count and are all refused. This store answers each request its own count.
 */
export class FixedWindowStore implements FastifyRateLimitStore {
  private readonly windows = fixedWindows(Date.now);

  incr(
    key: string,
    callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
    timeWindow = 60_000,
  ) {
    const window = this.windows.count(key, timeWindow);
    callback(null, { current: window.count, ttl: window.start + timeWindow - Date.now() });
  }

  child(): FastifyRateLimitStore {
    return new FixedWindowStore();
  }
}

export function tooManyMessage(waitMs: number): string {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  return `Too many attempts, try again in ${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/**
 * A fixed-window counter per key (an account e-mail), beside @fastify/rate-limit's per-IP limit:
 * one IP spreading guesses over many accounts and many IPs aiming at one account are both slowed.
 */
export interface RateLimiter {
  /** Counts one attempt; answers the milliseconds to wait when the key is over its limit, else 0. */
  hit(key: string): number;
  reset(key: string): void;
}

export function createRateLimiter(max: number, windowMs: number, now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    hit(key) {
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
      return window.count > max ? window.start + windowMs - time : 0;
    },
    reset(key) {
      windows.delete(key);
    },
  };
}

export function tooManyMessage(waitMs: number): string {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  return `Too many attempts, try again in ${minutes} minute${minutes === 1 ? '' : 's'}`;
}

import type { FastifyRateLimitStore, RateLimitPluginOptions } from '@fastify/rate-limit';
import type Redis from 'ioredis';

/**
 * Fixed-window counters and expiring marks, kept in this process or, with REDIS_URL, in Redis so that every
 * server process counts the same attempts. Both the per-IP limits of @fastify/rate-limit (through
 * `routeLimitStore`) and the per-account limits of the auth routes count here.
 */
export interface LimitCounters {
  /** Counts one attempt on `key`; answers the attempts in its window so far and the milliseconds left in it. */
  hit(key: string, windowMs: number): Promise<{ count: number; ttl: number }>;
  /** The attempts in `key`'s current window (0 when none), without counting one. */
  peek(key: string): Promise<{ count: number; ttl: number }>;
  reset(key: string): Promise<void>;
  /** Sets an expiring mark (a client known to an account). */
  mark(key: string, ttlMs: number): Promise<void>;
  isMarked(key: string): Promise<boolean>;
}

interface Window {
  start: number;
  count: number;
  windowMs: number;
}

/** This process only: the default of a single `npm start`. */
export function memoryCounters(now: () => number): LimitCounters {
  const windows = new Map<string, Window>();
  const marks = new Map<string, number>();
  const live = (key: string): Window | undefined => {
    const window = windows.get(key);
    if (window && now() - window.start >= window.windowMs) {
      windows.delete(key);
      return undefined;
    }
    return window;
  };
  const sweep = () => {
    const time = now();
    for (const [key, window] of windows) if (time - window.start >= window.windowMs) windows.delete(key);
    for (const [key, until] of marks) if (until <= time) marks.delete(key);
  };
  return {
    async hit(key, windowMs) {
      if (windows.size + marks.size > 100_000) sweep();
      let window = live(key);
      if (!window) {
        window = { start: now(), count: 0, windowMs };
        windows.set(key, window);
      }
      window.count += 1;
      return { count: window.count, ttl: window.start + window.windowMs - now() };
    },
    async peek(key) {
      const window = live(key);
      return window ? { count: window.count, ttl: window.start + window.windowMs - now() } : { count: 0, ttl: 0 };
    },
    async reset(key) {
      windows.delete(key);
    },
    async mark(key, ttlMs) {
      marks.set(key, now() + ttlMs);
    },
    async isMarked(key) {
      const until = marks.get(key);
      return until !== undefined && until > now();
    },
  };
}

/** INCR and, for the first hit of a window, PEXPIRE in one step, so concurrent processes never lose a count. */
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}`;

/** Shared by every process on the same Redis: a limit holds however the requests are spread over them. */
export function redisCounters(redis: Redis, prefix: string): LimitCounters {
  const name = (key: string) => `${prefix}${key}`;
  return {
    async hit(key, windowMs) {
      const [count, ttl] = (await redis.eval(HIT_SCRIPT, 1, name(key), windowMs)) as [number, number];
      return { count, ttl };
    },
    async peek(key) {
      const [count, ttl] = await Promise.all([redis.get(name(key)), redis.pttl(name(key))]);
      return { count: Number(count ?? 0), ttl: Math.max(0, ttl) };
    },
    async reset(key) {
      await redis.del(name(key));
    },
    async mark(key, ttlMs) {
      await redis.set(name(key), '1', 'PX', ttlMs);
    },
    async isMarked(key) {
      return (await redis.exists(name(key))) === 1;
    },
  };
}

/**
 * @fastify/rate-limit's store over the same counters, one key space per route. Its own LocalStore answers its live
 * counter object, read a microtask later, so a burst in one tick was refused whole; these counts are per request.
 */
export function routeLimitStore(counters: LimitCounters): NonNullable<RateLimitPluginOptions['store']> {
  class RouteLimitStore implements FastifyRateLimitStore {
    constructor(private readonly prefix = 'route:') {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow = 60_000,
    ) {
      counters.hit(`${this.prefix}${key}`, timeWindow).then(
        ({ count, ttl }) => callback(null, { current: count, ttl }),
        (error: Error) => callback(error),
      );
    }

    // The plugin passes the route's merged limit options, the route itself under routeInfo (its types say otherwise).
    child(options: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      const route = (options as { routeInfo?: { method?: unknown; url?: unknown } }).routeInfo ?? options;
      return new RouteLimitStore(`route:${String(route.method)}:${String(route.url)}:`);
    }
  }
  return RouteLimitStore as unknown as NonNullable<RateLimitPluginOptions['store']>;
}

export function tooManyMessage(waitMs: number): string {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  return `Too many attempts, try again in ${minutes} minute${minutes === 1 ? '' : 's'}`;
}

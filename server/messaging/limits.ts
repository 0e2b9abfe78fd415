import type { Redis } from 'ioredis';
import type { LimitsConfig } from './config';
import { RequestError, TOO_MANY_REQUESTS } from './protocol';

/**
 * Flood limits in fixed windows. What a connection sends is counted in its own process; what a user sends
 * is counted where every process sees it (Redis when the server runs in several processes), so a user
 * cannot multiply the limit by opening connections on each of them.
 */
export interface WindowCounter {
  /** Counts one hit of `key` in the current window of `windowMs` and answers the window's count. */
  hit(key: string, windowMs: number): Promise<number>;
}

export class MemoryCounter implements WindowCounter {
  private readonly windows = new Map<string, { bucket: number; count: number }>();

  async hit(key: string, windowMs: number): Promise<number> {
    const bucket = Math.floor(Date.now() / windowMs);
    const current = this.windows.get(key);
    if (current && current.bucket === bucket) {
      current.count += 1;
      return current.count;
    }
    if (this.windows.size > 50_000) {
      for (const [name, window] of this.windows) if (window.bucket !== bucket) this.windows.delete(name);
    }
    this.windows.set(key, { bucket, count: 1 });
    return 1;
  }
}

const INCREMENT_WITH_EXPIRY = `local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count`;

export class RedisCounter implements WindowCounter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async hit(key: string, windowMs: number): Promise<number> {
    const bucket = Math.floor(Date.now() / windowMs);
    const count = await this.redis.eval(INCREMENT_WITH_EXPIRY, 1, `${this.prefix}:rate:${key}:${bucket}`, windowMs);
    return Number(count);
  }
}

const SECOND_MS = 1000;
const MINUTE_MS = 60_000;

export class FloodLimits {
  private readonly perConnection = new MemoryCounter();

  constructor(
    private readonly limits: LimitsConfig,
    private readonly perUser: WindowCounter,
  ) {}

  /** One publish or IM message; throws 429 when the connection or the user is over its rate. */
  async message(socketId: string, userId: string): Promise<void> {
    const { messagesPerSecondPerConnection: perConnection, messagesPerSecondPerUser: perUser } = this.limits;
    if ((await this.perConnection.hit(socketId, SECOND_MS)) > perConnection) {
      throw new RequestError(
        TOO_MANY_REQUESTS,
        `Too many messages: at most ${perConnection} per second on one connection`,
      );
    }
    if (userId && (await this.perUser.hit(`user:${userId}`, SECOND_MS)) > perUser) {
      throw new RequestError(TOO_MANY_REQUESTS, `Too many messages: at most ${perUser} per second for one user`);
    }
  }

  /** One WeChat template message asked for by this user. */
  async template(userId: string): Promise<void> {
    const max = this.limits.templatesPerMinutePerUser;
    if ((await this.perUser.hit(`wxmp:${userId}`, MINUTE_MS)) > max) {
      throw new RequestError(TOO_MANY_REQUESTS, `Too many template messages: at most ${max} per minute`);
    }
  }
}

import type { Redis } from 'ioredis';
import type { Proof } from './protocol';

/**
 * What survives a reconnect under the same sid: who it was and which channels it had subscribed,
 * because a client that gets its old sid back resubscribes nothing. In memory for one process, in
 * Redis (with a TTL) when several processes share the clients.
 */
export interface SessionRecord {
  userId: string;
  channels: Record<string, boolean>;
  /** The identity proof the session was opened with: a resume is refused once it is revoked or too old. */
  proof: Proof | null;
}

export interface SessionStore {
  /**
   * Whether the record of a session still connected is stored too: with several processes, another one may be
   * asked to resume it (a client that lost its connection before the server noticed). One process reads a
   * connected session off its socket instead, and stores a record only when the socket is gone.
   */
  readonly keepsConnected: boolean;
  load(sid: string): Promise<SessionRecord | null>;
  save(sid: string, record: SessionRecord, ttlMs: number): Promise<void>;
  remove(sid: string): Promise<void>;
}

export class MemorySessionStore implements SessionStore {
  readonly keepsConnected = false;
  private readonly records = new Map<string, { record: SessionRecord; expiresAt: number }>();

  async load(sid: string): Promise<SessionRecord | null> {
    const entry = this.records.get(sid);
    if (!entry) return null;
    if (entry.expiresAt <= Date.now()) {
      this.records.delete(sid);
      return null;
    }
    return structuredClone(entry.record);
  }

  async save(sid: string, record: SessionRecord, ttlMs: number): Promise<void> {
    this.records.set(sid, { record: structuredClone(record), expiresAt: Date.now() + ttlMs });
    if (this.records.size % 1000 === 0) this.sweep();
  }

  async remove(sid: string): Promise<void> {
    this.records.delete(sid);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [sid, entry] of this.records) if (entry.expiresAt <= now) this.records.delete(sid);
  }
}

export class RedisSessionStore implements SessionStore {
  readonly keepsConnected = true;
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private key(sid: string): string {
    return `${this.prefix}:session:${sid}`;
  }

  async load(sid: string): Promise<SessionRecord | null> {
    const raw = await this.redis.get(this.key(sid));
    return raw ? (JSON.parse(raw) as SessionRecord) : null;
  }

  async save(sid: string, record: SessionRecord, ttlMs: number): Promise<void> {
    await this.redis.set(this.key(sid), JSON.stringify(record), 'PX', ttlMs);
  }

  async remove(sid: string): Promise<void> {
    await this.redis.del(this.key(sid));
  }
}

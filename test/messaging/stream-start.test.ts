import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { readingFromStart } from '../../server/messaging/stream-start';

const d = process.env.LENSMATE_TEST_REDIS ? describe : describe.skip;

/** The read the streams adapter sends until it has read one entry. */
const adapterRead = (client: Redis, stream: string) => client.xread('COUNT', 100, 'BLOCK', 100, 'STREAMS', stream, '$');
const values = (result: [string, [string, string[]][]][] | null) =>
  (result?.[0]?.[1] ?? []).map(([, fields]) => fields[1]);

d('the stream reader the Redis adapter is handed', () => {
  const url = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const stream = `lensmate-test:${randomBytes(6).toString('hex')}:stream`;
  let redis: Redis;
  let other: Redis;
  beforeAll(() => {
    redis = new Redis(url);
    other = new Redis(url);
  });
  afterAll(async () => {
    await other.del(stream);
    redis.disconnect();
    other.disconnect();
  });

  it('reads at "$" an entry another process added before the read was sent, and none from before it started', async () => {
    await other.xadd(stream, '*', 'n', 'before start');
    const reader = readingFromStart(redis, stream);
    // Redis has taken the start once it answers a later command on the same connection (it answers in order); without
    // this wait the other connection's entry below could be taken in before the start and be counted as from before.
    await redis.ping();
    // Another process adds its heartbeat while this one is between two reads (busy, or not yet reading).
    await other.xadd(stream, '*', 'n', 'between reads');
    expect(values(await adapterRead(reader, stream))).toEqual(['between reads']);
    // The bare client, as the adapter used it before, has lost that entry.
    expect(await adapterRead(redis, stream)).toBeNull();
  });

  it('starts from the beginning when the stream does not exist yet, and passes other commands through', async () => {
    const fresh = `${stream}:fresh`;
    const reader = readingFromStart(redis, fresh);
    const id = await reader.xadd(fresh, '*', 'n', 'first');
    expect(values(await adapterRead(reader, fresh))).toEqual(['first']);
    expect(await reader.xrange(fresh, '-', '+')).toEqual([[id, ['n', 'first']]]);
    expect(reader.status).toBe('ready');
    await other.del(fresh);
  });
});

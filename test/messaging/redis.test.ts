import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { type Client, connected, removeDir, sleep } from './helpers';
import { type ServerProcess, spawnServer, stopServer } from './process';

const d = process.env.LENSMATE_TEST_REDIS ? describe : describe.skip;

d('two server processes sharing Redis', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lensmate-redis-'));
  const prefix = `lensmate-test:${randomBytes(6).toString('hex')}`;
  const env = {
    MESSAGING_DB: join(dir, 'messaging.sqlite'),
    MESSAGING_UPLOAD_LOCAL_DIR: join(dir, 'oss'),
    REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    MESSAGING_REDIS_PREFIX: prefix,
    MESSAGING_OTP_SECRET: randomBytes(24).toString('base64url'),
  };
  const servers: ServerProcess[] = [];
  const clients: Client[] = [];
  async function user(server: ServerProcess, id: string, extra: Record<string, unknown> = {}) {
    const result = await connected(server.url, id, extra);
    clients.push(result.client);
    return result;
  }

  beforeAll(async () => {
    servers.push(await spawnServer(env));
    servers.push(await spawnServer(env));
  }, 40000);
  afterAll(async () => {
    for (const client of clients) client.close();
    await Promise.all(servers.map((server) => stopServer(server)));
    const redis = new Redis(env.REDIS_URL);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    removeDir(dir);
  });

  it('carries pub/sub, presence and IM between clients on different processes', async () => {
    const { client: a } = await user(servers[0], 'cross-a');
    const { client: b } = await user(servers[1], 'cross-b');
    expect(await b.request('subscribe', { channels: ['shared'], presence: { enable: true } })).toMatchObject({
      code: 200,
    });
    const hereNow = await a.request('PUBSUB_PRESENCE_HERENOW', { channel: 'shared' });
    expect(hereNow.content).toMatchObject({ amount: 1, members: [{ id: 'cross-b' }] });

    await a.request('publish', { channel: 'shared', content: 'across processes', guid: `${prefix}-p1` });
    const [message] = await b.waitFor('message');
    expect(message).toMatchObject({ n: 'shared', c: 'across processes' });

    await a.request('publishIM', {
      mt: 'text',
      to: 'cross-b',
      d: '{}',
      p: JSON.stringify({ text: 'hi from 1' }),
      t: 'private',
      guid: `${prefix}-im1`,
    });
    const [im] = await b.waitFor('imMessage');
    expect(im).toMatchObject({ s: 'cross-a', i: `${prefix}-im1` });
    const online = await a.request('imHereNow', { userIds: ['cross-b'] });
    expect(online.content).toEqual([{ userId: 'cross-b', userData: JSON.stringify({ name: 'cross-b' }) }]);
  });

  it('keeps the sid when a client reconnects to the other process within the window', async () => {
    const first = await user(servers[0], 'mover');
    await first.client.request('subscribe', { channels: ['follow'] });
    first.client.close();
    await sleep(200);
    // The client resends its sid and the proof it connected with.
    const second = await user(servers[1], 'mover', { sid: first.ack.sid, otp: first.otp });
    expect(second.ack.sid).toBe(first.ack.sid);
    const { client: publisher } = await user(servers[0], 'pub');
    await publisher.request('publish', { channel: 'follow', content: 'found you', guid: `${prefix}-p2` });
    const [message] = await second.client.waitFor('message');
    expect(message).toMatchObject({ c: 'found you' });
  });
});

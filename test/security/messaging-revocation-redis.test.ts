import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { type Client, type TestServer, connected, removeDir, sleep, startServer } from '../messaging/helpers';
import { recordReliability } from '../support/reliability';

const d = process.env.LENSMATE_TEST_REDIS ? describe : describe.skip;

/**
 * Revocation with the messaging server in several processes (REDIS_URL): a logout or password change handled
 * by one server closes the user's sessions open on the other, and the other refuses the withdrawn proof.
 */
d('revocation across servers sharing Redis', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lensmate-revoke-'));
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const prefix = `lensmate-test:${randomBytes(6).toString('hex')}`;
  const servers: TestServer[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    // One database and one data directory (so one generated secret), two servers, one Redis.
    const env = { REDIS_URL: redisUrl, MESSAGING_REDIS_PREFIX: prefix };
    servers.push(await startServer(env, dir));
    servers.push(await startServer(env, dir));
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    for (const server of servers) await server.close();
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
    removeDir(dir);
  });

  async function closed(client: Client): Promise<boolean> {
    for (const started = Date.now(); Date.now() - started < 8000; ) {
      if (!client.socket.connected) return true;
      await sleep(25);
    }
    return false;
  }

  it('closes the sessions on the other server and refuses their proofs there', async () => {
    const [first, second] = servers;
    const sessionRef = 'login-1';
    const otp = first.otp('rv-ann', sessionRef);
    const onSecond = await connected(second.url, 'rv-ann', { otp });
    const otherLogin = await connected(second.url, 'rv-ann', { otp: first.otp('rv-ann', 'login-2') });
    clients.push(onSecond.client, otherLogin.client);
    // A logout of one login, handled by the first server.
    await first.control.revoke({ userId: 'rv-ann', sessionRef });
    expect(await closed(onSecond.client)).toBe(true);
    expect(otherLogin.client.socket.connected).toBe(true);
    const replay = await connected(second.url, 'rv-ann', { otp, sid: onSecond.ack.sid }).catch((error) => error);
    expect(String(replay)).toContain('401');
    // A password change: every login of the user.
    await first.control.revoke({ userId: 'rv-ann' });
    expect(await closed(otherLogin.client)).toBe(true);
    recordReliability({ suite: 'attack-messaging-identity', payloads: 3, refused: 3 });
  });
});

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GoEasy } from '../../../src/messaging';
import { eventually } from '../../sdk/support/harness';
import { recordReliability } from '../../support/reliability';
import { type MessagingProcess, RedisProcess, collectPrivate, connectAt, spawnMessaging, tally } from './support';

const RESTARTS = 2;
const ROUNDS = 10;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const dir = mkdtempSync(join(tmpdir(), 'lensmate-redis-restart-'));
const redis = new RedisProcess();
const servers: MessagingProcess[] = [];
const otpSecret = randomBytes(24).toString('base64url');
const clients: GoEasy[] = [];

beforeAll(async () => {
  await redis.start();
  const env = {
    REDIS_URL: redis.url,
    MESSAGING_REDIS_PREFIX: `lensmate-rel:${randomBytes(4).toString('hex')}`,
    MESSAGING_OTP_SECRET: otpSecret,
  };
  // One after the other: both migrate the shared SQLite file.
  servers.push(await spawnMessaging(join(dir, 'messaging.sqlite'), env));
  servers.push(await spawnMessaging(join(dir, 'messaging.sqlite'), env));
}, 60000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.disconnect().catch(() => undefined)));
  await Promise.all(servers.map((server) => server.stop()));
  await redis.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

it(`carries every message between two server processes across ${RESTARTS} Redis restarts`, async () => {
  const ann = await connectAt(servers[0].url, 'rr-ann', otpSecret);
  const bob = await connectAt(servers[1].url, 'rr-bob', otpSecret);
  clients.push(ann, bob);
  await Promise.all([ann.im.latestConversations(), bob.im.latestConversations()]);
  const toBob = collectPrivate(bob);
  const toAnn = collectPrivate(ann);
  const sentToBob: string[] = [];
  const sentToAnn: string[] = [];
  const send = async (from: GoEasy, to: string, sent: string[], text: string) => {
    const message = from.im.createTextMessage({ text, to: { type: 'private', id: to, data: { name: to } } });
    await from.im.sendMessage({ message });
    sent.push(message.messageId);
  };
  const rounds = async (label: string) => {
    for (let i = 0; i < ROUNDS; i += 1) {
      await Promise.all([
        send(ann, 'rr-bob', sentToBob, `${label} ${i} to bob`),
        send(bob, 'rr-ann', sentToAnn, `${label} ${i} to ann`),
      ]);
      await sleep(100);
    }
  };
  const allArrived = () =>
    eventually(() => {
      expect(new Set(toBob.map((message) => message.messageId)).size).toBe(sentToBob.length);
      expect(new Set(toAnn.map((message) => message.messageId)).size).toBe(sentToAnn.length);
    }, 20000);

  await rounds('before');
  await allArrived();
  for (let restart = 1; restart <= RESTARTS; restart += 1) {
    // Redis dies mid-conversation (SIGKILL, no persistence: its streams and sessions are gone) and comes back.
    const sending = rounds(`restart ${restart}`);
    await sleep(300);
    await redis.kill();
    await sleep(1500);
    await redis.start();
    await sending;
    await rounds(`after ${restart}`);
  }

  await allArrived().catch(() => undefined);
  const ids = (messages: { messageId: string }[]) => messages.map((message) => message.messageId);
  const bobFigures = tally(sentToBob, ids(toBob));
  const annFigures = tally(sentToAnn, ids(toAnn));
  const figures = {
    messagesChecked: bobFigures.messagesChecked + annFigures.messagesChecked,
    lost: bobFigures.lost + annFigures.lost,
    duplicated: bobFigures.duplicated + annFigures.duplicated,
  };
  recordReliability({ suite: 'redis-restart', faults: RESTARTS, ...figures });
  expect(figures).toEqual({ messagesChecked: 2 * ROUNDS * (1 + 2 * RESTARTS), lost: 0, duplicated: 0 });
  expect(new Set(ids(toBob))).toEqual(new Set(sentToBob));
  expect(new Set(ids(toAnn))).toEqual(new Set(sentToAnn));
  // Both processes lived through it, and the conversation counts every message once.
  for (const server of servers) expect(server.child.exitCode).toBeNull();
  const [conversation] = (await bob.im.latestConversations()).content.conversations;
  expect(conversation).toMatchObject({ userId: 'rr-ann', unread: sentToBob.length });
}, 180000);

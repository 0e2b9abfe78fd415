import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import type { Server } from 'socket.io';
import { openDb } from '../../server/db/connection';
import { messagingConfigFromEnv } from '../../server/messaging/config';
import { openGroups } from '../../server/messaging/directory';
import { MessagingControl, migrateMessaging, registerMessaging } from '../../server/messaging/index';
import { issueOtp } from '../../server/messaging/otp';
import { Client, removeDir, sleep } from './helpers';

/** Counts every query the messaging server sends to its database. */
class QueryCounter implements KyselyPlugin {
  count = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.count += 1;
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

const IDLE = 1000;
const REDELIVERY_MS = 300;

/**
 * Issue 22 point 5: an idle connection costs the database nothing. 1,000 users connect (IM on, proofs checked,
 * groups joined, missed messages looked up: that is what a connect costs), then sit idle for several redelivery
 * periods: not one query. A message that one of them does not acknowledge is still pushed again, so the
 * redelivery the per-connection 5 s poll used to do is kept.
 */
describe('1,000 idle connections', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lensmate-idle-'));
  const clients: Client[] = [];
  const counter = new QueryCounter();
  let close: () => Promise<void>;
  let url = '';
  let secret = '';
  let io: Server;

  beforeAll(async () => {
    const config = messagingConfigFromEnv(
      {
        MESSAGING_UPLOAD_LOCAL_DIR: join(dir, 'oss'),
        MESSAGING_REDELIVERY_MS: String(REDELIVERY_MS),
        MESSAGING_RATE_PER_CONNECTION: '1000',
        MESSAGING_RATE_PER_USER: '1000',
      } as unknown as NodeJS.ProcessEnv,
      { dataDir: dir },
    );
    secret = config.otpSecret;
    const handle = openDb(join(dir, 'messaging.sqlite'));
    await migrateMessaging(handle.db);
    const db = handle.db.withPlugin(counter);
    const app = Fastify({ logger: false });
    const messaging = await registerMessaging(app, {
      db,
      dialect: handle.dialect,
      config,
      groups: openGroups(db),
      control: new MessagingControl(db),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    io = messaging.io;
    close = async () => {
      await messaging.close();
      await app.close();
      await handle.close();
    };
  });

  afterAll(async () => {
    for (const client of clients) client.close();
    await sleep(100);
    await close();
    removeDir(dir);
  });

  it('make no database query while they sit idle, and unacknowledged messages are still pushed again', async () => {
    for (let start = 0; start < IDLE; start += 50) {
      const batch = Array.from({ length: 50 }, (_, i) => {
        const userId = `idle-${start + i}`;
        // The last one never acknowledges what it receives.
        const client = new Client(url, { autoAckIm: start + i !== IDLE - 1 });
        clients.push(client);
        const payload = { appkey: 'BC-lensmate-demo', modules: ['IM'], userId, userData: '{}' };
        return client.request('authorize', { ...payload, otp: issueOtp(userId, secret) }, 60_000).then((ack) => {
          if (ack.resultCode !== 200) throw new Error(`authorize failed: ${JSON.stringify(ack)}`);
        });
      });
      await Promise.all(batch);
    }
    // Let every connect's own work (group joins, the missed-message lookup) finish.
    await sleep(REDELIVERY_MS);
    counter.count = 0;
    await sleep(REDELIVERY_MS * 8);
    expect({ idleConnections: IDLE, queriesWhileIdle: counter.count }).toEqual({
      idleConnections: IDLE,
      queriesWhileIdle: 0,
    });
    // Nor memory per request it may send: every socket is served by the same three listeners (the server's routes;
    // socket.io adds its own 'error' no-op), with no closure, listener array or timer of its own (these were most of
    // an idle connection's heap).
    const sockets = [...io.sockets.sockets.values()];
    expect(sockets).toHaveLength(IDLE);
    const [first] = sockets;
    const shape = (socket: (typeof sockets)[number]) => ({
      events: socket.eventNames(),
      any: socket.listenersAny().length,
      shared:
        socket.listenersAny()[0] === first.listenersAny()[0] &&
        socket.listeners('disconnect')[0] === first.listeners('disconnect')[0],
    });
    expect(new Set(sockets.map((socket) => JSON.stringify(shape(socket))))).toEqual(
      new Set([JSON.stringify({ events: ['error', 'disconnecting', 'disconnect'], any: 1, shared: true })]),
    );

    const sender = clients[0];
    const silent = clients[IDLE - 1];
    const sent = await sender.request('publishIM', {
      mt: 'text',
      to: `idle-${IDLE - 1}`,
      t: 'private',
      d: '{}',
      p: JSON.stringify({ text: 'are you there?' }),
      guid: 'idle-redelivery-1',
    });
    expect(sent.code).toBe(200);
    // Pushed once at once, then again after each redelivery period until acknowledged.
    await silent.waitFor('imMessage', 3, 10_000);
    expect(silent.received.imMessage.every((push) => push.i === 'idle-redelivery-1')).toBe(true);
    silent.socket.emit('imAck', { publishGuid: 'idle-redelivery-1' });
    await sleep(REDELIVERY_MS * 2);
    // The ack's own write may land late on a loaded machine: wait until a whole period passes without a query
    // (a redelivery still running would query every period and never settle).
    for (let settled = 0, last = -1, tries = 0; settled < 1 && tries < 20; tries += 1) {
      last = counter.count;
      await sleep(REDELIVERY_MS);
      settled = counter.count === last ? settled + 1 : 0;
    }
    const pushed = silent.count('imMessage');
    counter.count = 0;
    await sleep(REDELIVERY_MS * 4);
    expect(silent.count('imMessage')).toBe(pushed);
    expect(counter.count).toBe(0);
  }, 120_000);

  // Runs on the 1,000 connections of the test above.
  it('make no query when a group message all 1,000 acknowledged falls due for redelivery', async () => {
    expect(clients).toHaveLength(IDLE);
    const members = clients.slice(0, IDLE - 1);
    for (let start = 0; start < members.length; start += 100) {
      await Promise.all(
        members.slice(start, start + 100).map((client) => client.request('subscribeGroups', { groupIds: ['all'] })),
      );
    }
    const sent = await members[0].request('publishIM', {
      mt: 'text',
      to: 'all',
      t: 'group',
      d: '{}',
      p: JSON.stringify({ text: 'hello, all' }),
      guid: 'idle-group-1',
    });
    expect(sent.code).toBe(200);
    await Promise.all(members.slice(1).map((client) => client.waitFor('imMessage', 1, 20_000)));
    // The acknowledgements' delete, a moment after they arrive.
    await sleep(200);
    counter.count = 0;
    await sleep(REDELIVERY_MS * 4);
    // It was one query per member: each was watched until the message fell due, then the database was asked.
    expect(counter.count).toBe(0);
    for (const client of members.slice(1)) expect(client.count('imMessage')).toBe(1);
  }, 120_000);
});

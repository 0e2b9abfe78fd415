import fc from 'fast-check';
import { knownEvents } from '../../server/messaging/context';
import { Limits } from '../../server/messaging/protocol';
import { type Ack, Client, type TestServer, connected, removeDir, startServer } from '../messaging/helpers';
import { recordReliability } from '../support/reliability';

const RUNS = Number(process.env.LENSMATE_FUZZ_RUNS || 3) * 4;
const SEED = Number(process.env.LENSMATE_FUZZ_SEED || 20261122);
/** Fire-and-forget events: the server answers them with nothing, so only survival is checked. */
/** Requests a socket may make before it authorizes; every other one must answer 409. */
const BEFORE_AUTHORIZE = new Set(['authorize', 'manualDisconnect']);
const FRAME_LIMIT = Limits.PACKET_BYTES;
/** The packet's own bytes around the payload (type, event name, brackets). */
const FRAME_OVERHEAD = 64;
const NO_ACK = new Set(['ack', 'imAck']);
const FIELDS = [
  'appkey',
  'userId',
  'userData',
  'otp',
  'modules',
  'to',
  'type',
  'payload',
  'scene',
  'id',
  'data',
  'channel',
  'channels',
  'content',
  'message',
  'groupId',
  'groupIds',
  'userIds',
  'lastTimestamp',
  'limit',
  'top',
  'publishGuid',
  'messageId',
  'filename',
  'accessKey',
  '__proto__',
  'constructor',
  'prototype',
];

const leaf = fc.oneof(
  fc.integer(),
  fc.constantFrom(-1, 0, 1e308, -1e308, 0.5, Number.MAX_SAFE_INTEGER + 2),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string(),
  fc.fullUnicodeString({ maxLength: 30 }),
  fc.constantFrom('', 'NaN', 'private', 'group', 'cs', 'text', '{"a":1}', 'BC-lensmate-demo', 'fuzz-b'),
  fc.integer({ min: 1000, max: 200_000 }).map((length) => 'z'.repeat(length)),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...FIELDS), tie('value'), { maxKeys: 5 }),
  ),
})).value;
const payload = fc.oneof(
  { arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 6 }), weight: 4 },
  { arbitrary: value, weight: 1 },
  {
    arbitrary: fc.integer({ min: 20, max: 500 }).map((depth) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`)),
    weight: 1,
  },
);

describe('messaging fuzzing: random payloads for every request', () => {
  let server: TestServer;
  let events: string[];
  const tally = { tried: 0, refused: 0, accepted: 0 };

  beforeAll(async () => {
    server = await startServer();
    // Handlers register their events on a socket's connection; one authorized socket lists them all.
    const { client } = await connected(server.url, 'fuzz-probe');
    client.close();
    events = [...knownEvents].sort();
    console.log(`Messaging fuzz: seed ${SEED}, ${RUNS} payloads per event and role, events ${events.join(', ')}`);
  });
  afterAll(async () => {
    console.log(
      `Messaging fuzz summary: seed ${SEED}, requests tried ${tally.tried}, refused ${tally.refused}, ` +
        `accepted ${tally.accepted}`,
    );
    recordReliability({ suite: 'fuzz-messaging', payloads: tally.tried, refused: tally.refused });
    await server?.close();
    removeDir(server.dir);
  });

  function checkAck(where: string, ack: Ack): void {
    if (!ack || typeof ack !== 'object' || typeof ack.code !== 'number') {
      throw new Error(`${where}: ack without a numeric code: ${JSON.stringify(ack)?.slice(0, 300)}`);
    }
    if (ack.code === 200) {
      tally.accepted++;
      return;
    }
    tally.refused++;
    if (ack.code < 400 || ack.code >= 500) throw new Error(`${where}: code ${ack.code} ${JSON.stringify(ack.content)}`);
    if (typeof ack.content !== 'string' || ack.content.trim() === '')
      throw new Error(`${where}: refusal without content`);
  }

  async function fuzz(role: 'unauthorized' | 'authorized'): Promise<void> {
    let client: Client | undefined;
    const fresh = async () => {
      client?.close();
      if (role === 'authorized') client = (await connected(server.url, 'fuzz-a')).client;
      else {
        client = new Client(server.url);
        await new Promise((resolve) => client?.socket.once('connect', () => resolve(undefined)));
      }
    };
    await fresh();
    for (const [index, event] of events.entries()) {
      await fc.assert(
        fc.asyncProperty(payload, async (body) => {
          if (!client?.socket.connected) await fresh();
          const socket = (client as Client).socket;
          const where = `${role} ${event} <- ${JSON.stringify(body)?.slice(0, 200)}`;
          tally.tried++;
          const oversized = Buffer.byteLength(JSON.stringify(body) ?? '') > FRAME_LIMIT - FRAME_OVERHEAD;
          if (NO_ACK.has(event)) {
            socket.emit(event, body);
            // The server closes a connection on an oversized frame; the next run starts on a fresh one.
            if (oversized) await fresh();
            return;
          }
          let ack: Ack;
          try {
            ack = await socket.timeout(5000).emitWithAck(event, body);
          } catch (error) {
            if (!socket.connected && event === 'manualDisconnect') return;
            // socket.io closes a connection whose frame exceeds maxHttpBufferSize (100 KB); the next run reconnects.
            if (!socket.connected && oversized) {
              tally.refused++;
              return;
            }
            throw new Error(`${where}: no answer (${(error as Error).message})`);
          }
          checkAck(where, ack);
          if (role === 'unauthorized' && !BEFORE_AUTHORIZE.has(event) && ack.code !== 409) {
            throw new Error(`${where}: answered ${ack.code} before authorize`);
          }
          // An accepted authorize may have changed who this socket is; start the next run as the role again.
          if (event === 'authorize' || event === 'manualDisconnect') await fresh();
        }),
        { seed: SEED + index, numRuns: RUNS, endOnFailure: true },
      );
    }
    client?.close();
    const { client: after, ack } = await connected(server.url, 'fuzz-after');
    expect(ack.resultCode).toBe(200);
    const unknown = await after.request('noSuchRequest', {});
    expect(unknown.code).toBe(400);
    after.close();
  }

  test('on a socket that has not authorized', () => fuzz('unauthorized'), 300_000);
  test('on an authorized socket', () => fuzz('authorized'), 300_000);
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as Sdk from '../../src/messaging';
import { type TestServer, eventually, startServer } from './support/harness';

/**
 * Issue 22 point 1, checked mechanically against the real goeasy@2.8.3 package (a devDependency): its module exports,
 * the methods of every object it hands an app (the GoEasy instance, im, pubsub, a csteam) as its runtime has them and
 * as its GoEasy.d.ts declares them, its static values, and the keys of every event payload its client receives from
 * our server, beside ours for the same action. A name GoEasy has and we lack fails here.
 */
const packageDir = join(__dirname, '../../node_modules/goeasy');
const esmSource = readFileSync(join(packageDir, 'goeasy.esm.min.js'), 'utf8');
const typings = readFileSync(join(packageDir, 'GoEasy.d.ts'), 'utf8');

/** The ES module's export list: `export{a as B,...}` at the end of goeasy.esm.min.js. */
function esmExports(): string[] {
  const list = /export\{([^}]*)\};?\s*$/.exec(esmSource.trim());
  if (!list) throw new Error('goeasy.esm.min.js has no export list');
  return list[1].split(',').map(
    (entry) =>
      entry
        .trim()
        .split(/\s+as\s+/)
        .pop() as string,
  );
}

/**
 * Method names a class of GoEasy.d.ts declares (private ones included: they exist at runtime too); `statics` picks
 * the static ones instead.
 */
function declaredMethods(className: string, statics = false): string[] {
  const start = typings.search(new RegExp(`export (default |declare )*class ${className}\\b`));
  if (start < 0) throw new Error(`GoEasy.d.ts declares no class ${className}`);
  const body = typings.slice(typings.indexOf('{', start) + 1, typings.indexOf('\n}', start));
  const names = new Set<string>();
  for (const line of body.split('\n')) {
    const method = /^\s+((?:(?:private|static|readonly)\s+)*)([A-Za-z_]\w*)\s*\(/.exec(line);
    if (!method || method[2] === 'constructor' || method[1].includes('static') !== statics) continue;
    names.add(method[2]);
  }
  return [...names].sort();
}

/** Every function an object answers to, through its prototype chain. */
function methodsOf(target: object): string[] {
  const names = new Set<string>();
  for (let proto = target; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name !== 'constructor' && typeof (target as Record<string, unknown>)[name] === 'function') names.add(name);
    }
  }
  return [...names].sort();
}

const missing = (theirs: string[], ours: string[]) => theirs.filter((name) => !ours.includes(name));

// The real client rewrites the host to `<N>lensmate.test` (browsers); as /etc/hosts would, that name leads to the
// test server. Installed before goeasy loads: its engine.io client takes the WebSocket constructor at load time.
let serverPort = 0;
const NativeWebSocket = globalThis.WebSocket;
class LoopbackWebSocket extends NativeWebSocket {
  constructor(url: string | URL, protocols?: string | string[]) {
    const target = new URL(String(url));
    if (target.hostname.endsWith('lensmate.test')) {
      super(`ws://127.0.0.1:${serverPort}${target.pathname}${target.search}`, protocols);
    } else super(url, protocols);
  }
}
globalThis.WebSocket = LoopbackWebSocket as typeof WebSocket;
(window as unknown as { WebSocket: typeof WebSocket }).WebSocket = LoopbackWebSocket as typeof WebSocket;

/** GoEasy.getInstance keeps the first options it is given: one set for the whole file. */
const REAL_OPTIONS = { host: 'lensmate.test', appkey: 'BC-lensmate-demo', modules: ['im', 'pubsub'], forceTLS: false };

type Goeasy = {
  getInstance(options: Record<string, unknown>): any;
  [key: string]: any;
};
let RealGoEasy: Goeasy;
jest.isolateModules(() => {
  const loaded = require('goeasy');
  RealGoEasy = loaded.default ?? loaded;
});

describe('the exports and objects of goeasy@2.8.3', () => {
  it('exports every name of the package, with the same static values', () => {
    const ours = Object.keys(Sdk);
    expect(missing(esmExports(), ours)).toEqual([]);
    expect(missing(Object.keys(RealGoEasy), Object.getOwnPropertyNames(Sdk.GoEasy))).toEqual([]);
    expect(missing(declaredMethods('GoEasy', true), Object.getOwnPropertyNames(Sdk.GoEasy))).toEqual([]);
    for (const name of ['version', 'IM_EVENT', 'IM_SCENE', 'MEDIA_TYPE']) {
      expect([name, (Sdk.GoEasy as unknown as Record<string, unknown>)[name]]).toEqual([name, RealGoEasy[name]]);
    }
    expect(Sdk.GoEasy.IM_SCENE).toEqual(Sdk.Scene);
    expect(Object.values(Sdk.MessageStatus).sort()).toEqual(['fail', 'new', 'sending', 'success']);
    expect(new Sdk.User('u1', { name: 'U' })).toEqual({ id: 'u1', data: { name: 'U' } });
  });

  it('has every method of every object, as the runtime has them and as GoEasy.d.ts declares them', () => {
    const real = RealGoEasy.getInstance(REAL_OPTIONS);
    const ours = new Sdk.GoEasy({ host: 'http://127.0.0.1:1', appkey: 'BC-x', modules: ['im', 'pubsub'] });
    const pairs: Array<[string, object, object, string]> = [
      ['GoEasy', real, ours, 'GoEasy'],
      ['im', real.im, ours.im, 'GoEasyIM'],
      ['pubsub', real.pubsub, ours.pubsub, 'GoEasyPubSub'],
      ['csteam', real.im.csteam('t'), ours.im.csteam('t'), 'CSTeam'],
    ];
    for (const [what, theirs, mine, declared] of pairs) {
      expect([what, missing(methodsOf(theirs), methodsOf(mine))]).toEqual([what, []]);
      expect([what, missing(declaredMethods(declared), methodsOf(mine))]).toEqual([what, []]);
    }
    // Their instance properties: im, pubsub (and options, which GoEasy keeps private).
    expect(missing(Object.keys(real), Object.keys(ours))).toEqual([]);
  });

  it('answers the same public status strings', () => {
    const real = RealGoEasy.getInstance(REAL_OPTIONS);
    const ours = new Sdk.GoEasy({ host: 'http://127.0.0.1:1', appkey: 'BC-x', modules: ['im'] });
    expect(ours.getConnectionStatus()).toBe(real.getConnectionStatus());
    // GoEasy's ConnectionStatus enum, read from its code: the two the spec spells differently.
    expect(esmSource).toContain('e.EXPIRED_RECONNECTED="reconnected",e.CONNECT_FAILED="connect_failed"');
    expect(Sdk.ConnectionStatus.EXPIRED_RECONNECTED).toBe('reconnected');
    expect(Sdk.ConnectionStatus.CONNECT_FAILED).toBe('connect_failed');
  });
});

/** The keys of a payload, one level into arrays of objects, and into named nested objects. */
function shape(value: unknown, nested: string[] = []): Record<string, string[]> {
  const first = Array.isArray(value) ? value[0] : value;
  if (first === null || typeof first !== 'object') return { '': [] };
  const result: Record<string, string[]> = { '': Object.keys(first).sort() };
  for (const name of nested) {
    const inner = (first as Record<string, unknown>)[name];
    const item = Array.isArray(inner) ? inner[0] : inner;
    if (item && typeof item === 'object') result[name] = Object.keys(item).sort();
  }
  return result;
}

function missingKeys(theirs: Record<string, string[]>, ours: Record<string, string[]>): Record<string, string[]> {
  const gaps: Record<string, string[]> = {};
  for (const [path, keys] of Object.entries(theirs)) {
    const lacking = missing(keys, ours[path] ?? []);
    if (lacking.length) gaps[path] = lacking;
  }
  return gaps;
}

type Callbacks<T = unknown> = { onSuccess(value: T): void; onFailed(error: unknown): void };
const call = <T = unknown>(run: (options: Callbacks<T>) => void) =>
  new Promise<T>((resolve, reject) => run({ onSuccess: resolve, onFailed: reject }));

describe('event payloads, both clients against our server', () => {
  let server: TestServer;
  let real: any;
  let ours: Sdk.GoEasy;
  let peer: Sdk.GoEasy;
  let agent: Sdk.GoEasy;
  const seen: Record<'real' | 'ours', Record<string, unknown[]>> = { real: {}, ours: {} };
  const record = (who: 'real' | 'ours', event: string) => (payload: unknown) => {
    seen[who][event] = [...(seen[who][event] ?? []), payload];
  };

  beforeAll(async () => {
    server = await startServer();
    serverPort = server.port;
    await server.assignAgent('parity-team', 'parity-agent');
    real = RealGoEasy.getInstance(REAL_OPTIONS);
    await call((o) =>
      real.connect({ id: 'parity-real', data: { name: 'Real' }, otp: server.otp('parity-real'), ...o }),
    );
    ours = new Sdk.GoEasy({ host: server.url, appkey: 'BC-lensmate-demo', modules: ['im', 'pubsub'] });
    await ours.connect({ id: 'parity-ours', data: { name: 'Ours' }, otp: server.otp('parity-ours') });
    peer = new Sdk.GoEasy({ host: server.url, appkey: 'BC-lensmate-demo', modules: ['im', 'pubsub'] });
    await peer.connect({ id: 'parity-peer', data: { name: 'Peer' }, otp: server.otp('parity-peer') });
    agent = new Sdk.GoEasy({ host: server.url, appkey: 'BC-lensmate-demo', modules: ['im'] });
    await agent.connect({ id: 'parity-agent', data: { name: 'Agent' }, otp: server.otp('parity-agent') });
    for (const event of Object.values(Sdk.IM_EVENT)) {
      real.im.on(event, record('real', event));
      ours.im.on(event, record('ours', event));
    }
  }, 60_000);

  afterAll(async () => {
    real?.disconnect({ onSuccess() {}, onFailed() {} });
    await Promise.all([ours, peer, agent].map((client) => client?.disconnect().catch(() => undefined)));
    await server.stop();
  });

  it('hands the app the same keys for every event and callback our server can cause', async () => {
    const both = { real: 'parity-real', ours: 'parity-ours' } as const;
    // Conversations first, so CONVERSATIONS_UPDATED fires for both.
    await call((o) => real.im.latestConversations(o));
    await ours.im.latestConversations();
    // Presence of a user and a group.
    await call((o) => real.im.subscribeUserPresence({ userIds: ['parity-peer'], ...o }));
    await ours.im.subscribeUserPresence({ userIds: ['parity-peer'] });
    for (const client of [peer]) await client.im.subscribeGroup({ groupIds: ['parity-group'] });
    await call((o) => real.im.subscribeGroup({ groupIds: ['parity-group'], ...o }));
    await ours.im.subscribeGroup({ groupIds: ['parity-group'] });
    await call((o) => real.im.subscribeGroupPresence({ groupIds: ['parity-group'], ...o }));
    await ours.im.subscribeGroupPresence({ groupIds: ['parity-group'] });
    // Channel messages and presence.
    const channel: Record<'real' | 'ours', unknown[]> = { real: [], ours: [] };
    const channelPresence: Record<'real' | 'ours', unknown[]> = { real: [], ours: [] };
    await call((o) =>
      real.pubsub.subscribe({ channel: 'parity-ch', onMessage: (m: unknown) => channel.real.push(m), ...o }),
    );
    await ours.pubsub.subscribe({ channel: 'parity-ch', onMessage: (m) => channel.ours.push(m) });
    await call((o) =>
      real.pubsub.subscribePresence({
        channel: 'parity-lobby',
        onPresence: (p: unknown) => channelPresence.real.push(p),
        ...o,
      }),
    );
    await ours.pubsub.subscribePresence({ channel: 'parity-lobby', onPresence: (p) => channelPresence.ours.push(p) });

    // The peer writes to each privately and to the group; both read, recall and delete alike.
    for (const id of Object.values(both)) {
      await peer.im.sendMessage({
        message: peer.im.createTextMessage({ text: `hi ${id}`, to: { type: 'private', id, data: { name: id } } }),
      });
    }
    await peer.im.sendMessage({
      message: peer.im.createTextMessage({ text: 'all', to: { type: 'group', id: 'parity-group', data: { n: 1 } } }),
    });
    await peer.pubsub.publish({ channel: 'parity-ch', message: 'news' });
    await peer.pubsub.subscribe({ channel: 'parity-lobby', presence: { enable: true }, onMessage: () => undefined });
    await eventually(() => {
      for (const who of ['real', 'ours'] as const) {
        for (const event of ['PRIVATE_MESSAGE_RECEIVED', 'GROUP_MESSAGE_RECEIVED']) {
          expect([who, event, seen[who][event]?.length ?? 0]).toEqual([who, event, 1]);
        }
        expect(channel[who]).toHaveLength(1);
        expect(channelPresence[who].length).toBeGreaterThan(0);
      }
    }, 15_000);

    // Read receipts: each sends to the peer, the peer reads.
    const realSent = real.im.createTextMessage({
      text: 'read me',
      to: { type: 'private', id: 'parity-peer', data: { name: 'Peer' } },
    });
    await call((o) => real.im.sendMessage({ message: realSent, ...o }));
    const oursSent = ours.im.createTextMessage({
      text: 'read me',
      to: { type: 'private', id: 'parity-peer', data: { name: 'Peer' } },
    });
    await ours.im.sendMessage({ message: oursSent });
    await peer.im.history({ userId: 'parity-real' });
    await peer.im.history({ userId: 'parity-ours' });
    await peer.im.markPrivateMessageAsRead({ userId: 'parity-real' });
    await peer.im.markPrivateMessageAsRead({ userId: 'parity-ours' });
    // Recall and delete arrive from the peer's side.
    const recallReal = peer.im.createTextMessage({
      text: 'oops',
      to: { type: 'private', id: 'parity-real', data: {} },
    });
    const recallOurs = peer.im.createTextMessage({
      text: 'oops',
      to: { type: 'private', id: 'parity-ours', data: {} },
    });
    await peer.im.sendMessage({ message: recallReal });
    await peer.im.sendMessage({ message: recallOurs });
    await eventually(() => {
      expect(seen.real.PRIVATE_MESSAGE_RECEIVED).toHaveLength(2);
      expect(seen.ours.PRIVATE_MESSAGE_RECEIVED).toHaveLength(2);
    });
    await peer.im.recallMessage({ messages: [recallReal] });
    await peer.im.recallMessage({ messages: [recallOurs] });
    // Deleting: each deletes its own copy of the first message (the event reaches the user's other devices only,
    // so each client's answer is compared instead).
    const realHistory = await call<{ content: any[] }>((o) => real.im.history({ userId: 'parity-peer', ...o }));
    const oursHistory = await ours.im.history({ userId: 'parity-peer' });
    // Presence of the peer going away, in the user and the group.
    await peer.pubsub.unsubscribe({ channel: 'parity-lobby' });
    await peer.disconnect();
    await eventually(() => {
      for (const who of ['real', 'ours'] as const) {
        for (const event of ['MESSAGE_READ', 'MESSAGE_RECALLED', 'USER_PRESENCE', 'GROUP_PRESENCE']) {
          expect([who, event, (seen[who][event]?.length ?? 0) > 0]).toEqual([who, event, true]);
        }
      }
    }, 15_000);

    const nested: Record<string, string[]> = {
      CONVERSATIONS_UPDATED: ['conversations'],
      PRIVATE_MESSAGE_RECEIVED: ['payload'],
      GROUP_MESSAGE_RECEIVED: ['payload', 'senderData'],
      MESSAGE_READ: ['payload'],
      MESSAGE_RECALLED: ['recaller'],
    };
    const gaps: Record<string, unknown> = {};
    for (const event of Object.values(Sdk.IM_EVENT)) {
      const theirs = seen.real[event];
      if (!theirs) continue;
      const gap = missingKeys(shape(theirs.at(-1), nested[event]), shape(seen.ours[event]?.at(-1), nested[event]));
      if (Object.keys(gap).length) gaps[event] = gap;
    }
    const callbackShapes: Array<[string, unknown, unknown, string[]]> = [
      ['subscribe onMessage', channel.real[0], channel.ours[0], []],
      ['subscribePresence onPresence', channelPresence.real.at(-1), channelPresence.ours.at(-1), ['member']],
      ['im.history', realHistory.content, oursHistory.content, ['payload']],
    ];
    for (const [what, theirs, mine, inner] of callbackShapes) {
      const gap = missingKeys(shape(theirs, inner), shape(mine, inner));
      if (Object.keys(gap).length) gaps[what] = gap;
    }
    expect(gaps).toEqual({});
    // What the real client received at all (so the comparison above compared something for each).
    expect(Object.keys(seen.real).sort()).toEqual(
      [
        'CONVERSATIONS_UPDATED',
        'GROUP_MESSAGE_RECEIVED',
        'GROUP_PRESENCE',
        'MESSAGE_READ',
        'MESSAGE_RECALLED',
        'PRIVATE_MESSAGE_RECEIVED',
        'USER_PRESENCE',
      ].sort(),
    );
  }, 90_000);

  it('hands an agent the same keys for CS messages and the pending list', async () => {
    const customer = new Sdk.GoEasy({ host: server.url, appkey: 'BC-lensmate-demo', modules: ['im'] });
    await customer.connect({ id: 'parity-customer', data: { name: 'C' }, otp: server.otp('parity-customer') });
    const realAgent = RealGoEasy.getInstance(REAL_OPTIONS);
    // One GoEasy instance per page: the real agent is the same client as above, so it joins the team for this test.
    expect(realAgent).toBe(real);
    await server.assignAgent('parity-team', 'parity-real');
    const team = { teamData: { name: 'T' }, agentData: { name: 'A' } };
    // The real client keeps its team list from CS_MY_TEAMS; it must have asked once before going online.
    await call((o) => real.im.csteam('parity-team').isOnline(o));
    await call((o) => real.im.csteam('parity-team').online({ ...team, ...o }));
    await agent.im.csteam('parity-team').online(team);
    await agent.im.pendingConversations();
    const agentSeen: Record<string, unknown[]> = {};
    for (const event of [Sdk.IM_EVENT.PENDING_CONVERSATIONS_UPDATED, Sdk.IM_EVENT.CS_MESSAGE_RECEIVED]) {
      agent.im.on(event, (payload: unknown) => {
        agentSeen[event] = [...(agentSeen[event] ?? []), payload];
      });
    }
    await customer.im.sendMessage({
      message: customer.im.createTextMessage({ text: 'help', to: { type: 'cs', id: 'parity-team', data: {} } }),
    });
    await eventually(() => {
      expect(seen.real.PENDING_CONVERSATIONS_UPDATED?.length ?? 0).toBeGreaterThan(0);
      expect(agentSeen.PENDING_CONVERSATIONS_UPDATED?.length ?? 0).toBeGreaterThan(0);
    }, 15_000);
    const realPending = seen.real.PENDING_CONVERSATIONS_UPDATED.at(-1);
    const oursPending = agentSeen.PENDING_CONVERSATIONS_UPDATED.at(-1);
    expect(missingKeys(shape(realPending, ['conversations']), shape(oursPending, ['conversations']))).toEqual({});
    await customer.disconnect();
  }, 60_000);
});

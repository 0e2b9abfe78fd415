import type { Socket as ServerSocket } from 'socket.io';
import WS from 'ws';
import { recordReliability } from '../support/reliability';
import { type Client, type TestServer, connected, removeDir, sleep, startServer } from './helpers';

/**
 * The unmodified GoEasy 2.8.3 JavaScript client (engine.io 3) against our server. The only shims are
 * what a browser would provide: navigator, localStorage and a WebSocket whose DNS resolves the
 * client's rewritten host (`<N>lensmate.test:80`) to the test server, as /etc/hosts would.
 */
type GoEasyModule = {
  getInstance(options: Record<string, unknown>): any;
  IM_EVENT: Record<string, string>;
};

function loadGoEasy(): GoEasyModule {
  let loaded: GoEasyModule | undefined;
  jest.isolateModules(() => {
    const module = require('goeasy');
    loaded = module.default ?? module;
  });
  if (!loaded) throw new Error('goeasy did not load');
  return loaded;
}

/** Where the shimmed DNS points the client's host; a test may switch it to its own server. */
let targetPort = '';

function installBrowserShims() {
  const store = new Map<string, string>();
  Object.assign(globalThis, {
    navigator: { cookieEnabled: true, userAgent: 'jest', product: 'Gecko' },
    localStorage: {
      getItem: (key: string) => store.get(key) ?? null,
      setItem: (key: string, value: string) => store.set(key, String(value)),
      removeItem: (key: string) => store.delete(key),
    },
    WebSocket: class extends WS {
      constructor(url: string, protocols?: string | string[]) {
        const target = new URL(url);
        super(`ws://127.0.0.1:${targetPort}${target.pathname}${target.search}`, protocols);
      }
    },
  });
}

/** Connects the unmodified client as `id` with the proof `otp` (what the shop's token route hands out). */
function connectGoEasy(GoEasy: GoEasyModule, id: string, otp: string): Promise<any> {
  const goEasy = GoEasy.getInstance({
    host: 'lensmate.test',
    appkey: 'BC-lensmate-demo',
    modules: ['pubsub', 'im'],
    forceTLS: false,
  });
  return new Promise((resolve, reject) => {
    goEasy.connect({ id, data: { name: id }, otp, onSuccess: () => resolve(goEasy), onFailed: reject });
  });
}

const callback = <T = unknown>(run: (options: { onSuccess(v: T): void; onFailed(e: unknown): void }) => void) =>
  new Promise<T>((resolve, reject) => run({ onSuccess: resolve, onFailed: reject }));

async function until(check: () => boolean, timeoutMs = 8000) {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not reached');
    await sleep(25);
  }
}

describe('the GoEasy 2.8.3 client', () => {
  let server: TestServer;
  const clients: Client[] = [];
  const instances: any[] = [];

  beforeAll(async () => {
    server = await startServer();
    await server.assignAgent('ge-team', 'ge-agent');
    targetPort = new URL(server.url).port;
    installBrowserShims();
  });
  afterAll(async () => {
    for (const goEasy of instances) goEasy.disconnect({});
    for (const client of clients) client.close();
    await sleep(100);
    await server.close();
    removeDir(server.dir);
  });

  it('is refused an id without the proof the shop issues, or with another user’s proof', async () => {
    const attempts: [string, string | undefined][] = [
      ['no proof', undefined],
      ["another user's proof", server.otp('ge-someone-else')],
      ['a forged proof', `${server.otp('ge-victim').split('.')[0]}.forged`],
    ];
    for (const [what, otp] of attempts) {
      const goEasy = loadGoEasy().getInstance({
        host: 'lensmate.test',
        appkey: 'BC-lensmate-demo',
        modules: ['im'],
        forceTLS: false,
      });
      instances.push(goEasy);
      const failure = await new Promise((resolve) =>
        goEasy.connect({ id: 'ge-victim', data: {}, otp, onSuccess: () => resolve('connected'), onFailed: resolve }),
      );
      expect([what, failure]).toEqual([what, expect.objectContaining({ code: 401 })]);
    }
    recordReliability({ suite: 'attack-messaging-identity', payloads: attempts.length, refused: attempts.length });
  });

  it('connects, subscribes, publishes and reads history', async () => {
    const goEasy = await connectGoEasy(loadGoEasy(), 'ge-pub', server.otp('ge-pub'));
    instances.push(goEasy);
    expect(goEasy.getConnectionStatus()).toBe('connected');
    const received: unknown[] = [];
    await callback((o) =>
      goEasy.pubsub.subscribe({ channel: 'ge-channel', onMessage: (m: unknown) => received.push(m), ...o }),
    );
    const { client: other } = await connected(server.url, 'sdk-user');
    clients.push(other);
    await other.request('publish', { channel: 'ge-channel', content: 'from protocol 4', guid: 'ge-g1' });
    await until(() => received.length === 1);
    expect(received[0]).toMatchObject({ channel: 'ge-channel', content: 'from protocol 4' });
    await callback((o) => goEasy.pubsub.publish({ channel: 'ge-channel', message: 'from protocol 3', ...o }));
    await until(() => received.length === 2);
    const history = await callback<any>((o) => goEasy.pubsub.history({ channel: 'ge-channel', ...o }));
    expect(history.content.messages.map((m: { content: string }) => m.content)).toEqual([
      'from protocol 4',
      'from protocol 3',
    ]);
  });

  it('exchanges private messages with our SDK clients, lists the conversation and reads history', async () => {
    const GoEasy = loadGoEasy();
    const goEasy = await connectGoEasy(GoEasy, 'ge-im', server.otp('ge-im'));
    instances.push(goEasy);
    const received: any[] = [];
    goEasy.im.on(GoEasy.IM_EVENT.PRIVATE_MESSAGE_RECEIVED, (message: unknown) => received.push(message));
    const { client: sdk } = await connected(server.url, 'sdk-im');
    clients.push(sdk);
    const message = goEasy.im.createTextMessage({
      text: 'hello sdk',
      to: { type: 'private', id: 'sdk-im', data: { name: 'S' } },
    });
    const sent = await callback<any>((o) => goEasy.im.sendMessage({ message, ...o }));
    expect(sent).toMatchObject({ status: 'success', senderId: 'ge-im', receiverId: 'sdk-im' });
    const [push] = await sdk.waitFor('imMessage');
    expect(push).toMatchObject({ s: 'ge-im', r: 'sdk-im', mt: 'text', ts: sent.timestamp });

    await sdk.request('publishIM', {
      mt: 'text',
      to: 'ge-im',
      d: '{}',
      p: JSON.stringify({ text: 'hello goeasy' }),
      t: 'private',
      guid: 'sdk-to-ge-1',
    });
    await until(() => received.length === 1);
    expect(received[0]).toMatchObject({ senderId: 'sdk-im', payload: { text: 'hello goeasy' }, status: 'success' });

    const history = await callback<any>((o) => goEasy.im.history({ userId: 'sdk-im', limit: 10, ...o }));
    expect(history.content.map((m: { payload: { text: string } }) => m.payload.text)).toEqual([
      'hello sdk',
      'hello goeasy',
    ]);
    const conversations = await callback<any>((o) => goEasy.im.latestConversations(o));
    expect(conversations.content.conversations[0]).toMatchObject({ userId: 'sdk-im', type: 'private', unread: 1 });
  });

  it('runs group chat, read receipts, recall and delete between two GoEasy clients', async () => {
    const GoEasyA = loadGoEasy();
    const a = await connectGoEasy(GoEasyA, 'ge-ga', server.otp('ge-ga'));
    const GoEasyB = loadGoEasy();
    const b = await connectGoEasy(GoEasyB, 'ge-gb', server.otp('ge-gb'));
    instances.push(a, b);
    await callback((o) => a.im.subscribeGroup({ groupIds: ['ge-group'], ...o }));
    await callback((o) => b.im.subscribeGroup({ groupIds: ['ge-group'], ...o }));
    const groupMessages: any[] = [];
    const recalled: any[] = [];
    const read: any[] = [];
    b.im.on(GoEasyB.IM_EVENT.GROUP_MESSAGE_RECEIVED, (message: unknown) => groupMessages.push(message));
    b.im.on(GoEasyB.IM_EVENT.MESSAGE_RECALLED, (messages: unknown) => recalled.push(messages));
    a.im.on(GoEasyA.IM_EVENT.MESSAGE_READ, (messages: unknown) => read.push(messages));

    const groupMessage = a.im.createTextMessage({
      text: 'hello group',
      to: { type: 'group', id: 'ge-group', data: { name: 'G' } },
    });
    await callback((o) => a.im.sendMessage({ message: groupMessage, ...o }));
    await until(() => groupMessages.length === 1);
    expect(groupMessages[0]).toMatchObject({ groupId: 'ge-group', senderId: 'ge-ga', senderData: { name: 'ge-ga' } });
    const count = await callback<any>((o) => a.im.groupOnlineCount({ groupId: 'ge-group', ...o }));
    expect(count.content).toMatchObject({ onlineCount: 2 });

    // Read receipts: B loads the private history and marks it read; A's message becomes read.
    const privateMessage = a.im.createTextMessage({ text: 'read me', to: { type: 'private', id: 'ge-gb', data: {} } });
    await callback((o) => a.im.sendMessage({ message: privateMessage, ...o }));
    await callback((o) => a.im.history({ userId: 'ge-gb', ...o }));
    await callback((o) => b.im.history({ userId: 'ge-ga', ...o }));
    await callback((o) => b.im.markMessageAsRead({ id: 'ge-ga', type: 'private', ...o }));
    await until(() => read.length === 1);
    expect(read[0][0]).toMatchObject({ messageId: privateMessage.messageId, read: true });

    await callback((o) => b.im.history({ groupId: 'ge-group', ...o }));
    await callback((o) => a.im.recallMessage({ messages: [groupMessage], ...o }));
    await until(() => recalled.length === 1);
    expect(recalled[0][0]).toMatchObject({
      messageId: groupMessage.messageId,
      recalled: true,
      recaller: { id: 'ge-ga' },
    });

    await callback((o) => a.im.deleteMessage({ messages: [privateMessage], ...o }));
    const aHistory = await callback<any>((o) => a.im.history({ userId: 'ge-gb', ...o }));
    expect(aHistory.content).toHaveLength(0);
  });

  it('runs a customer-service session between GoEasy agent and customer clients', async () => {
    const GoEasyAgent = loadGoEasy();
    const agent = await connectGoEasy(GoEasyAgent, 'ge-agent', server.otp('ge-agent'));
    const GoEasyCustomer = loadGoEasy();
    const customer = await connectGoEasy(GoEasyCustomer, 'ge-customer', server.otp('ge-customer'));
    instances.push(agent, customer);
    const team = agent.im.csteam('ge-team');
    // The 2.8.3 agent API queries its teams (CS_MY_TEAMS) before going online, as an agent UI does on load.
    expect(await callback((o) => team.isOnline(o))).toBe(false);
    await callback((o) => team.online({ teamData: { name: 'Team' }, agentData: { name: 'Agent' }, ...o }));
    const teamMessage = customer.im.createTextMessage({
      text: 'help please',
      to: { type: 'cs', id: 'ge-team', data: { name: 'Team' } },
    });
    const sent = await callback<any>((o) => customer.im.sendMessage({ message: teamMessage, ...o }));
    expect(sent).toMatchObject({ status: 'success', teamId: 'ge-team' });
    let pending: any;
    const loadPending = () =>
      agent.im.pendingConversations({
        onSuccess: (result: any) => {
          pending = result.content;
        },
        onFailed: () => {},
      });
    await until(() => {
      loadPending();
      return Boolean(pending?.conversations?.length);
    });
    expect(pending.conversations[0]).toMatchObject({ id: 'ge-customer', type: 'cs' });
    await callback((o) => team.accept({ customer: { id: 'ge-customer', data: { name: 'Customer' } }, ...o }));
    const status = await callback<any>((o) => team.customerStatus({ id: 'ge-customer', ...o }));
    expect(status).toMatchObject({ status: 'ACCEPTED', agent: { id: 'ge-agent', data: { name: 'Agent' } } });
    await callback((o) => team.end({ id: 'ge-customer', ...o }));
    const ended = await callback<any>((o) => team.customerStatus({ id: 'ge-customer', ...o }));
    expect(ended).toMatchObject({ status: 'FREE' });
  });

  /** Drops the client's connection and reports what it did on reconnect: its status and whether it resubscribed. */
  async function dropAndReconnect(target: TestServer, id: string) {
    const goEasy = await connectGoEasy(loadGoEasy(), id, target.otp(id));
    instances.push(goEasy);
    const received: unknown[] = [];
    const channel = `${id}-channel`;
    await callback((o) => goEasy.pubsub.subscribe({ channel, onMessage: (m: unknown) => received.push(m), ...o }));
    const { client: publisher } = await connected(target.url, `${id}-pub`);
    clients.push(publisher);
    let resubscribed = false;
    let reauthorized = false;
    target.io.on('connection', (socket: ServerSocket) => {
      socket.onAny((event: string) => {
        if (event === 'authorize') reauthorized = true;
        if (event === 'subscribe') resubscribed = true;
      });
    });
    // The server closing the transport looks like a network drop to the client, which reconnects.
    for (const socket of target.io.of('/').sockets.values()) if (socket.data.userId === id) socket.conn.close();
    await until(() => reauthorized && goEasy.getConnectionStatus() === 'reconnected');
    await sleep(200);
    await publisher.request('publish', { channel, content: 'after reconnect', guid: `${id}-1` });
    await until(() => received.length === 1);
    return { resubscribed };
  }

  // 2.8.3 reports both `reconnected` and `expired-reconnected` as "reconnected"; what differs is the resubscription.
  it('reconnects within the session window under the same sid: nothing resubscribed, messages still arrive', async () => {
    expect(await dropAndReconnect(server, 'ge-re')).toEqual({ resubscribed: false });
  });

  it('reconnects after the window under a new sid: every channel resubscribed, messages still arrive', async () => {
    const short = await startServer({ MESSAGING_SESSION_WINDOW_MS: '100' });
    targetPort = new URL(short.url).port;
    try {
      expect(await dropAndReconnect(short, 'ge-exp')).toEqual({ resubscribed: true });
    } finally {
      for (const goEasy of instances.splice(-1)) goEasy.disconnect({});
      targetPort = new URL(server.url).port;
      await sleep(100);
      await short.close();
      removeDir(short.dir);
    }
  });
});

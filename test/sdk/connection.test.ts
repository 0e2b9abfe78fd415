import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Taro from '@tarojs/taro';
import { Server, type Socket } from 'socket.io';
import { GoEasy } from '../../src/messaging';
import { Connection, Timing, endpointUrl, shiftPrintable } from '../../src/messaging/connection';
import type { IoSocket } from '../../src/messaging/socket';

/**
 * The connection state machine against a scripted socket.io server in this process: it answers
 * authorize with a chosen sid, counts re-sent requests, and can drop every socket.
 */
interface Script {
  sid: string;
  refuse?: { resultCode: number; content: string };
  seen: Array<{ event: string; params: Record<string, unknown> }>;
  answerAfter: number;
  firstTransport?: string;
  /** Fixed answers by event, e.g. a failure without a message. */
  answers?: Record<string, unknown>;
}

let io: Server;
let url: string;
let script: Script;

beforeEach(async () => {
  script = { sid: 'sid-1', seen: [], answerAfter: 0 };
  const http = createServer();
  io = new Server(http, { transports: ['websocket', 'polling'], cors: { origin: true, credentials: true } });
  io.on('connection', (socket: Socket) => {
    script.firstTransport = socket.conn.transport.name;
    socket.onAny((event: string, params: Record<string, unknown>, ack?: (body: unknown) => void) => {
      script.seen.push({ event, params });
      if (event === 'authorize') {
        ack?.(
          script.refuse ?? {
            resultCode: 200,
            sid: script.sid,
            sm: 'marker-1',
            enablePublish: true,
            enableSubscribe: true,
          },
        );
        return;
      }
      if (script.answers?.[event]) {
        ack?.(script.answers[event]);
        return;
      }
      const sent = script.seen.filter((entry) => entry.event === event).length;
      if (event === 'slow' && sent <= script.answerAfter) return;
      if (event === 'never') return;
      ack?.({ code: 200, content: { echo: params } });
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

afterEach(async () => {
  io.disconnectSockets(true);
  await new Promise((resolve) => io.close(resolve));
});

const fields = { appkey: 'k', userId: 'u1', userData: '{}', modules: ['im'], allowNT: false };

function opened(options: { supportOldBrowser?: boolean } = {}): Connection {
  return new Connection({ host: url, ...options });
}

describe('endpoint and fingerprint', () => {
  it('uses TLS on 443 unless forceTLS is false, and takes an explicit URL as is', () => {
    expect(endpointUrl({ host: 'im.example.com' })).toBe('https://im.example.com:443');
    expect(endpointUrl({ host: 'im.example.com', forceTLS: false })).toBe('http://im.example.com:80');
    expect(endpointUrl({ host: 'http://127.0.0.1:3000' })).toBe('http://127.0.0.1:3000');
  });

  it('shifts printable characters by 5 and wraps past 126', () => {
    expect(shiftPrintable('abc', 5)).toBe('fgh');
    expect(shiftPrintable('~', 5)).toBe('%');
    expect(shiftPrintable('é\n', 5)).toBe('é\n');
  });
});

describe('connection states', () => {
  it('connects, authorizes with the stored marker and fingerprint, and queues requests made while connecting', async () => {
    const connection = opened();
    const statuses: string[] = [];
    connection.onStatus((status) => statuses.push(status));
    const connecting = connection.connect(fields);
    const early = connection.request('echo', { n: 1 }, { permission: 'read' });
    expect(connection.status).toBe('connecting');
    await connecting;
    await expect(early).resolves.toMatchObject({ code: 200, content: { echo: { n: 1 } } });
    expect(statuses).toEqual(['connecting', 'connected']);
    const authorize = script.seen.find((entry) => entry.event === 'authorize')?.params ?? {};
    expect(authorize).toMatchObject({ appkey: 'k', userId: 'u1', a: false, artifactVersion: '2.8.3' });
    expect(typeof authorize.z).toBe('string');
    expect(window.localStorage.getItem('GE-SM')).toContain('marker-1');
    await connection.disconnect();
    expect(statuses).toEqual(['connecting', 'connected', 'disconnecting', 'disconnected']);
  });

  it('fails at once while disconnected and refuses a second connect', async () => {
    const connection = opened();
    await expect(connection.request('echo', {}, { permission: 'read' })).rejects.toEqual({
      code: 409,
      content: 'Please connect first',
    });
    await connection.connect(fields);
    expect(script.firstTransport).toBe('websocket');
    await expect(connection.connect(fields)).rejects.toEqual({
      code: 408,
      content: "It is already connected, don't try again until disconnect() is called.",
    });
    await connection.disconnect();
  });

  it('closes the socket and ends in connect-failed when authorize is refused', async () => {
    script.refuse = { resultCode: 401, content: 'Invalid appkey' };
    const connection = opened();
    await expect(connection.connect(fields)).rejects.toEqual({ code: 401, content: 'Invalid appkey' });
    expect(connection.status).toBe('connect-failed');
    await expect(connection.request('echo', {}, { permission: 'read' })).rejects.toEqual({
      code: 408,
      content: 'Failed to connect',
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await io.fetchSockets()).length).toBe(0);
  });

  it('reports reconnected for the same sid and expired-reconnected for a new one', async () => {
    const connection = opened();
    const statuses: string[] = [];
    let expired = 0;
    connection.onExpiredReconnected = () => expired++;
    await connection.connect(fields);
    connection.onStatus((status) => statuses.push(status));
    io.disconnectSockets(true);
    await waitFor(() => connection.status === 'reconnected');
    expect(expired).toBe(0);
    script.sid = 'sid-2';
    io.disconnectSockets(true);
    await waitFor(() => connection.status === 'expired-reconnected');
    expect(statuses).toEqual(['reconnecting', 'reconnected', 'reconnecting', 'expired-reconnected']);
    expect(expired).toBe(1);
    expect(script.seen.filter((entry) => entry.event === 'authorize').map((entry) => entry.params.sid)).toEqual([
      null,
      'sid-1',
      'sid-1',
    ]);
    await connection.disconnect();
  });

  it('comes back with exactly one connection after the server disconnects it, and keeps it', async () => {
    const connection = opened();
    await connection.connect(fields);
    let connections = 0;
    io.on('connection', () => connections++);
    io.disconnectSockets(true);
    await waitFor(() => connection.status === 'reconnected');
    // Longer than the first reconnection delay (at most 1.5 x RECONNECT_DELAY): no second engine opens behind it.
    await new Promise((resolve) => setTimeout(resolve, Timing.RECONNECT_DELAY * 1.5 + 300));
    expect(connections).toBe(1);
    expect((await io.fetchSockets()).length).toBe(1);
    expect(connection.status).toBe('reconnected');
    expect(script.seen.filter((entry) => entry.event === 'authorize')).toHaveLength(2);
    await connection.disconnect();
  });

  it('reconnects when the server closes the socket on purpose', async () => {
    const connection = opened();
    await connection.connect(fields);
    io.disconnectSockets();
    await waitFor(() => connection.status === 'reconnected');
    await connection.disconnect();
  });

  it('hands a push seen twice to the app once, and acknowledges both', async () => {
    const connection = opened();
    const delivered: unknown[] = [];
    connection.onPush('imMessage', (body) => delivered.push(body));
    await connection.connect(fields);
    const [socket] = await io.fetchSockets();
    socket.emit('imMessage', { i: 'm-1', s: 'u2' });
    socket.emit('imMessage', { i: 'm-1', s: 'u2' });
    socket.emit('imMessage', { i: 'm-2', s: 'u2' });
    await waitFor(() => script.seen.filter((entry) => entry.event === 'imAck').length === 3);
    expect(delivered).toEqual([
      { i: 'm-1', s: 'u2' },
      { i: 'm-2', s: 'u2' },
    ]);
    expect(script.seen.filter((entry) => entry.event === 'imAck').map((entry) => entry.params)).toEqual([
      { publishGuid: 'm-1' },
      { publishGuid: 'm-1' },
      { publishGuid: 'm-2' },
    ]);
    await connection.disconnect();
  });

  it('resends an unacked request every 1.7 s with the same guid and retried counting up', async () => {
    script.answerAfter = 2;
    const connection = opened();
    await connection.connect(fields);
    const started = Date.now();
    await connection.request('slow', { guid: 'g-1' }, { permission: 'write', unique: true });
    const elapsed = Date.now() - started;
    const sends = script.seen.filter((entry) => entry.event === 'slow').map((entry) => entry.params);
    expect(sends).toEqual([
      { guid: 'g-1', retried: 0 },
      { guid: 'g-1', retried: 1 },
      { guid: 'g-1', retried: 2 },
    ]);
    expect(elapsed).toBeGreaterThanOrEqual(2 * Timing.REQUEST_SINGLE - 50);
    await connection.disconnect();
  });

  it('gives up with 408 after 12 s without an ack', async () => {
    const connection = opened();
    await connection.connect(fields);
    await expect(connection.request('never', {}, { permission: 'read' })).rejects.toEqual({
      code: 408,
      content: 'Host unreachable or timeout',
    });
    expect(script.seen.filter((entry) => entry.event === 'never').length).toBeGreaterThanOrEqual(6);
    await connection.disconnect();
  }, 20000);

  it('refuses a request without the permission', async () => {
    const connection = opened();
    await connection.connect(fields);
    await connection.disconnect();
    script.seen = [];
    io.removeAllListeners('connection');
    io.on('connection', (socket: Socket) => {
      socket.on('authorize', (_params: unknown, ack: (body: unknown) => void) =>
        ack({ resultCode: 200, sid: 's', enablePublish: false, enableSubscribe: true }),
      );
    });
    await connection.connect(fields);
    await expect(connection.request('publish', {}, { permission: 'write' })).rejects.toEqual({
      code: 401,
      content: 'No permission',
    });
    await connection.disconnect();
  });

  it('hands socket.io the §9 timing: connect 3 s, reconnect delay at most 3 s; one socket through reconnects', async () => {
    expect(Timing).toMatchObject({
      CONNECT: 3000,
      REQUEST_SINGLE: 1700,
      REQUEST_TOTAL: 12000,
      RECONNECT_DELAY_MAX: 3000,
      SOCKET_TIMEOUT: 20000,
    });
    const connection = opened();
    await connection.connect(fields);
    const { settings } = (connection as unknown as { socket: IoSocket }).socket;
    expect(settings.timeout).toBe(Timing.CONNECT);
    expect(settings.reconnectionDelay).toBeLessThanOrEqual(Timing.RECONNECT_DELAY_MAX);
    expect(settings.reconnectionDelayMax).toBe(Timing.RECONNECT_DELAY_MAX);
    io.disconnectSockets(true);
    await waitFor(() => connection.status === 'reconnected');
    expect((await io.fetchSockets()).length).toBe(1);
    await connection.disconnect();
  });

  it('gives up after the 20 s socket timeout when the host never answers', async () => {
    // Only the SDK's own timers are faked: engine.io and socket.io keep the native ones they captured at load.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'Date'] });
    try {
      const connection = new Connection({ host: 'http://127.0.0.1:1' });
      const failure = connection.connect(fields).then(
        () => null,
        (error: unknown) => error,
      );
      jest.advanceTimersByTime(Timing.SOCKET_TIMEOUT - 1);
      expect(connection.status).toBe('connecting');
      jest.advanceTimersByTime(1);
      expect(await failure).toEqual({ code: 408, content: 'Host unreachable or timeout' });
      expect(connection.status).toBe('connect-failed');
    } finally {
      jest.useRealTimers();
    }
  });

  it('waits for a free socket when the five that WeChat and H5 allow are taken', async () => {
    const wsUrl = `${url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`;
    // A socket closed by an earlier test leaves Taro's count of five when its close event arrives, which a
    // loaded machine may deliver late: take the five as they come free.
    const taken: Taro.SocketTask[] = [];
    const started = Date.now();
    while (taken.length < 5) {
      try {
        taken.push((await Taro.connectSocket({ url: wsUrl })) as unknown as Taro.SocketTask);
      } catch (refused) {
        if (Date.now() - started > 10000) throw refused;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    const connection = opened();
    const connecting = connection.connect(fields);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(connection.status).toBe('connecting');
    taken[0].close({});
    await connecting;
    expect(connection.status).toBe('connected');
    await connection.disconnect();
    for (const task of taken.slice(1)) task.close({});
  });

  it('works over polling first when supportOldBrowser is on', async () => {
    const connection = opened({ supportOldBrowser: true });
    await connection.connect(fields);
    await expect(connection.request('echo', { n: 2 }, { permission: 'read' })).resolves.toMatchObject({ code: 200 });
    expect(script.firstTransport).toBe('polling');
    await connection.disconnect();
  });
});

async function waitFor(check: () => boolean, timeoutMs = 10000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not reached');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('messages when the server gives none (messaging.md §8)', () => {
  it('answers the catalogue fallbacks, and 500 for a storage vendor other than ALI or TX', async () => {
    const silent = { code: 408 };
    script.answers = {
      subscribeGroups: silent,
      unsubscribeGroup: silent,
      imGroupHereNow: silent,
      unsubscribeUserPresence: silent,
      unsubscribeGroupPresence: silent,
      uploadToken: { code: 200, content: { vendor: 'QN', host: 'https://upload.example.com' } },
    };
    const client = new GoEasy({ host: url, appkey: 'k', modules: ['im'] });
    await client.connect({ id: 'u1', data: {} });
    await expect(client.im.subscribeGroup({ groupIds: ['g'] })).rejects.toEqual({
      code: 408,
      content: 'Failed to subscribe group message',
    });
    await expect(client.im.unsubscribeGroup({ groupId: 'g' })).rejects.toEqual({
      code: 408,
      content: 'Failed to unsubscribe group message',
    });
    await expect(client.im.groupHereNow({ groupId: 'g' })).rejects.toEqual({
      code: 408,
      content: 'Failed to query online group users',
    });
    for (const failed of [
      client.im.unsubscribeUserPresence({ userId: 'u2' }),
      client.im.unsubscribeGroupPresence({ groupId: 'g' }),
    ]) {
      await expect(failed).rejects.toEqual({ code: 408, content: 'Failed to unsubscribe presence' });
    }
    const message = client.im.createFileMessage({
      file: { path: 'http://127.0.0.1:1/a.pdf', name: 'a.pdf', size: 10, type: 'application/pdf' },
      to: { type: 'private', id: 'u2', data: {} },
    });
    await expect(client.im.sendMessage({ message })).rejects.toEqual({
      code: 500,
      content: 'Only Ali OSS and Tencent COS are supported',
    });
    expect(message.status).toBe('fail');
    await client.disconnect();
  });
});

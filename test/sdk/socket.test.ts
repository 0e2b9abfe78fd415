import { createServer } from 'node:http';
import { Server, type Socket } from 'socket.io';
import { WebSocketServer } from 'ws';
import { type Ack, type IoSocket, ioSocket } from '../../src/messaging/socket';
import { eventually } from './support/harness';
import { listen } from './support/storage-front';

/**
 * The SDK's Socket.IO client on Taro's H5 socket and request APIs, against a real socket.io 4 server in this
 * process, and against a bare WebSocket server that breaks the protocol on purpose.
 */

const fast = { timeout: 3000, reconnectionDelay: 100, reconnectionDelayMax: 200 };
const servers: Array<{ close(): Promise<unknown> }> = [];
const clients: IoSocket[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.disconnect();
  // Their goodbyes (a POST on polling) reach the servers before those close.
  await new Promise((resolve) => setTimeout(resolve, 50));
  for (const server of servers.splice(0)) await server.close();
});

async function socketIoServer(
  transports: Array<'polling' | 'websocket'> = ['polling', 'websocket'],
  maxHttpBufferSize = 1e6,
) {
  const http = createServer();
  const io = new Server(http, {
    transports,
    cors: { origin: true, credentials: true },
    pingInterval: 1000,
    maxHttpBufferSize,
  });
  const url = await listen(http);
  servers.push({ close: () => new Promise((resolve) => io.close(resolve)) });
  return { io, url, http };
}

/** A WebSocket server that speaks just enough engine.io to be let in, then does what the test says. */
async function bareServer(onSocket: (send: (text: string) => void, received: string[]) => void) {
  const http = createServer();
  const wss = new WebSocketServer({ server: http });
  let connections = 0;
  wss.on('connection', (ws) => {
    connections++;
    const received: string[] = [];
    ws.on('message', (data) => received.push(String(data)));
    onSocket((text) => ws.send(text), received);
  });
  const url = await listen(http);
  servers.push({
    close: () =>
      new Promise((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close();
        http.close(resolve);
      }),
  });
  return { url, connections: () => connections };
}

function client(url: string, settings: Partial<IoSocket['settings']> = {}): IoSocket {
  const socket = ioSocket(url, { ...fast, ...settings });
  clients.push(socket);
  return socket;
}

function next(socket: IoSocket, event: string): Promise<unknown[]> {
  return new Promise((resolve) => {
    let done = false;
    socket.on(event, (...args: unknown[]) => {
      if (!done) resolve(args);
      done = true;
    });
  });
}

function ask(socket: IoSocket, event: string, data: unknown, timeoutMs?: number): Promise<unknown[]> {
  return new Promise((resolve) => socket.emit(event, data, ((...args) => resolve(args)) as Ack, timeoutMs));
}

describe('the SDK socket against socket.io 4', () => {
  it('connects over the socket and carries events and acks both ways', async () => {
    const { io, url } = await socketIoServer(['websocket']);
    const serverSide = new Promise<Socket>((resolve) => io.on('connection', resolve));
    io.on('connection', (socket: Socket) =>
      socket.on('echo', (data: unknown, ack: (body: unknown) => void) => ack({ code: 200, echo: data })),
    );
    const socket = client(url);
    await next(socket, 'connect');
    expect(socket.connected).toBe(true);
    expect(await ask(socket, 'echo', { text: 'héllo "quoted" \u2028' })).toEqual([
      null,
      { code: 200, echo: { text: 'héllo "quoted" \u2028' } },
    ]);
    // The server asks; the listener gets its data and an ack function last.
    socket.on('question', (data: { n: number }, ack: (answer: unknown) => void) => ack({ doubled: data.n * 2 }));
    const server = await serverSide;
    expect(await server.timeout(2000).emitWithAck('question', { n: 21 })).toEqual({ doubled: 42 });
    // A plain push.
    const pushed = next(socket, 'imMessage');
    server.emit('imMessage', { i: 'm1' });
    expect(await pushed).toEqual([{ i: 'm1' }]);
  });

  it('opens over polling, upgrades to the socket, and loses none of the emits made meanwhile', async () => {
    const { io, url } = await socketIoServer();
    const transports: string[] = [];
    io.on('connection', (socket: Socket) => {
      transports.push(socket.conn.transport.name);
      socket.conn.on('upgrade', (transport: { name: string }) => transports.push(transport.name));
      socket.on('echo', (data: unknown, ack: (body: unknown) => void) => ack(data));
    });
    const socket = client(url, { polling: true });
    await next(socket, 'connect');
    const answers = await Promise.all(Array.from({ length: 30 }, (_, n) => ask(socket, 'echo', n)));
    expect(answers).toEqual(Array.from({ length: 30 }, (_, n) => [null, n]));
    await eventually(() => expect(transports.length).toBe(2));
    expect(transports).toEqual(['polling', 'websocket']);
    expect(await ask(socket, 'echo', 'after the upgrade')).toEqual([null, 'after the upgrade']);
  });

  it('stays on polling when the server offers no upgrade', async () => {
    const { io, url } = await socketIoServer(['polling']);
    io.on('connection', (socket: Socket) =>
      socket.on('echo', (data: unknown, ack: (body: unknown) => void) => ack(data)),
    );
    const socket = client(url, { polling: true });
    await next(socket, 'connect');
    const [first] = await io.fetchSockets();
    expect(await ask(socket, 'echo', 'over polling')).toEqual([null, 'over polling']);
    // Long enough for a few polls and a server ping (pingInterval 1 s).
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(await ask(socket, 'echo', 'still here')).toEqual([null, 'still here']);
    expect((await io.fetchSockets()).map((s) => s.id)).toEqual([first.id]);
  });

  it('stays on polling when the upgrade probe fails', async () => {
    const { io, url, http } = await socketIoServer();
    // The handshake still offers the upgrade, but no socket gets through.
    http.removeAllListeners('upgrade');
    http.on('upgrade', (_request, raw) => raw.destroy());
    io.on('connection', (socket: Socket) =>
      socket.on('echo', (data: unknown, ack: (body: unknown) => void) => ack(data)),
    );
    const socket = client(url, { polling: true });
    await next(socket, 'connect');
    expect(await ask(socket, 'echo', 'before')).toEqual([null, 'before']);
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect(await ask(socket, 'echo', 'after')).toEqual([null, 'after']);
    const sockets = [...io.sockets.sockets.values()];
    expect(sockets.map((one) => one.conn.transport.name)).toEqual(['polling']);
    expect(socket.connected).toBe(true);
  });

  it('splits what it posts over polling to fit the maxPayload of the handshake', async () => {
    const { io, url } = await socketIoServer(['polling'], 3000);
    const lost: string[] = [];
    io.on('connection', (socket: Socket) => {
      socket.on('disconnect', (reason: string) => lost.push(reason));
      socket.on('echo', (data: unknown, ack: (body: unknown) => void) => ack(data));
    });
    const socket = client(url, { polling: true });
    await next(socket, 'connect');
    // 20 packets of about 800 bytes each, sent at once: one POST of them all would be refused.
    const text = 'é'.repeat(400);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, n) => ask(socket, 'echo', `${n}${text}`)));
    expect(answers.map(([, echoed]) => String(echoed).length)).toEqual(
      Array.from({ length: 20 }, (_, n) => String(n).length + 400),
    );
    expect(lost).toEqual([]);
  });

  it('comes back after a network drop with a reconnect_attempt, and not after disconnect()', async () => {
    const { io, url } = await socketIoServer(['websocket']);
    const reasons: string[] = [];
    io.on('connection', (socket: Socket) => socket.on('disconnect', (reason: string) => reasons.push(reason)));
    const socket = client(url);
    await next(socket, 'connect');
    const lost = next(socket, 'disconnect');
    const attempt = next(socket, 'reconnect_attempt');
    const back = new Promise((resolve) => socket.on('connect', resolve));
    socket.drop();
    expect(await lost).toEqual(['transport close']);
    expect(await attempt).toEqual([1]);
    await back;
    expect(socket.connected).toBe(true);
    expect((await io.fetchSockets()).length).toBe(1);
    const gone = next(socket, 'disconnect');
    socket.disconnect();
    expect(await gone).toEqual(['io client disconnect']);
    await eventually(() => expect(reasons.length).toBe(2));
    expect(reasons[1]).toBe('client namespace disconnect');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(socket.connected).toBe(false);
    expect((await io.fetchSockets()).length).toBe(0);
  });

  it('treats a server-side disconnect as final until connect() is called', async () => {
    const { io, url } = await socketIoServer(['websocket']);
    const socket = client(url);
    await next(socket, 'connect');
    const lost = next(socket, 'disconnect');
    io.disconnectSockets();
    expect(await lost).toEqual(['io server disconnect']);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(socket.connected).toBe(false);
    const back = next(socket, 'connect');
    socket.connect();
    await back;
    expect(socket.connected).toBe(true);
  });

  it('answers a timed ack with an Error when the time passes or the connection is lost first', async () => {
    const { io, url } = await socketIoServer(['websocket']);
    io.on('connection', (socket: Socket) => socket.on('never', () => undefined));
    const socket = client(url);
    await next(socket, 'connect');
    const [late] = await ask(socket, 'never', {}, 200);
    expect((late as Error).message).toBe('operation has timed out');
    const pending = ask(socket, 'never', {}, 10000);
    socket.drop();
    const [lost] = await pending;
    expect((lost as Error).message).toBe('socket has been disconnected');
    // Made while disconnected: dropped, and its timed ack still answers.
    const [offline] = await ask(socket, 'never', {}, 100);
    expect((offline as Error).message).toBe('operation has timed out');
  });
});

describe('the SDK socket against a server that breaks the protocol', () => {
  const handshake = (pingInterval: number, pingTimeout: number) =>
    `0${JSON.stringify({ sid: 'bare', upgrades: [], pingInterval, pingTimeout, maxPayload: 100000 })}`;

  /** Lets the client into the namespace once it asks (`40`), then does `then`. */
  const admit = (send: (text: string) => void, received: string[], then?: () => void) => {
    const asked = setInterval(() => {
      if (!received.includes('40')) return;
      clearInterval(asked);
      send('40{"sid":"ns"}');
      then?.();
    }, 10);
  };

  it('closes with "ping timeout" when the pings stop, and reconnects', async () => {
    const server = await bareServer((send, received) => {
      send(handshake(200, 100));
      admit(send, received);
    });
    const socket = client(server.url);
    await next(socket, 'connect');
    expect(await next(socket, 'disconnect')).toEqual(['ping timeout']);
    await eventually(() => expect(server.connections()).toBe(2));
  });

  it('answers the heartbeat: a pong for every ping keeps the connection', async () => {
    const pongs: number[] = [];
    await bareServer((send, received) => {
      send(handshake(100, 100));
      let pinged = 0;
      const ping = setInterval(() => {
        if (received.includes('40') && pinged === 0) send('40{"sid":"ns"}');
        pongs.push(received.filter((packet) => packet === '3').length);
        if (pinged++ < 6) send('2');
        else clearInterval(ping);
      }, 100);
    }).then(async (server) => {
      const socket = client(server.url);
      const dropped: unknown[] = [];
      socket.on('disconnect', (reason: string) => dropped.push(reason));
      await next(socket, 'connect');
      await eventually(() => expect(pongs.length).toBeGreaterThanOrEqual(7));
      expect(pongs[6]).toBe(6);
      expect(dropped).toEqual([]);
    });
  });

  it('closes on a malformed packet ("parse error") and reconnects', async () => {
    const server = await bareServer((send, received) => {
      send(handshake(10000, 10000));
      admit(send, received, () => setTimeout(() => send('42["imMessage",{"broken'), 50));
    });
    const socket = client(server.url);
    await next(socket, 'connect');
    expect(await next(socket, 'disconnect')).toEqual(['parse error']);
    await eventually(() => expect(server.connections()).toBe(2));
  });

  it('counts a connect that gets no handshake within the timeout as failed, and tries again', async () => {
    const server = await bareServer(() => undefined);
    const socket = client(server.url, { timeout: 300 });
    const [error] = await next(socket, 'connect_error');
    expect((error as Error).message).toBe('timeout');
    expect(await next(socket, 'reconnect_attempt')).toEqual([1]);
    await eventually(() => expect(server.connections()).toBe(2));
  });
});

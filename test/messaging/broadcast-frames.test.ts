import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdapter } from '@socket.io/redis-streams-adapter';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { type Socket, io as connect } from 'socket.io-client';
import WebSocket from 'ws';
import { fastBroadcastWrites, writeBroadcastsDirectly } from '../../server/messaging/broadcast-frames';
import { readingFromStart } from '../../server/messaging/stream-start';
import { sleep } from './helpers';

/** Waits until `done()` holds (the test's own timeout ends a wait that never does). */
async function until(done: () => boolean, ms = 5): Promise<void> {
  while (!done()) await sleep(ms);
}

/** A socket.io-client connected to `url` (no reconnection: a test that loses it fails). */
async function open(url: string, transports: string[] = ['websocket']): Promise<Socket> {
  const socket = connect(url, { path: '/socket.io/', transports, forceNew: true, reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/** A raw websocket joined to the namespace "/": every later text frame, as it came, and the socket.io id. */
async function raw(url: string): Promise<{ ws: WebSocket; frames: string[]; sid: string }> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`);
  const frames: string[] = [];
  const sid = await new Promise<string>((resolve) => {
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      expect(isBinary).toBe(false);
      const text = data.toString();
      if (text.startsWith('0')) ws.send('40');
      else if (text.startsWith('40')) resolve(JSON.parse(text.slice(2)).sid);
      else frames.push(text);
    });
  });
  return { ws, frames, sid };
}

/**
 * server/messaging/broadcast-frames.ts on a plain socket.io server with real clients: which writes take the direct
 * path, and that every client still gets every packet, once, in the order the server sent them.
 */
describe('broadcast frames written straight to the websocket', () => {
  let io: Server;
  let url: string;
  const clients: Socket[] = [];

  beforeAll(async () => {
    const http = createServer();
    io = new Server(http, { path: '/socket.io/', transports: ['polling', 'websocket'] });
    io.on('connection', (socket) => {
      writeBroadcastsDirectly(socket);
      socket.join('room');
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.disconnect();
  });
  afterAll(async () => {
    await io.close();
  });

  async function client(transports?: string[]): Promise<Socket> {
    const socket = await open(url, transports);
    clients.push(socket);
    return socket;
  }

  function collect(socket: Socket, count: number): Promise<unknown[]> {
    const got: unknown[] = [];
    return new Promise((resolve) => {
      socket.on('m', (value: unknown) => {
        got.push(value);
        if (got.length === count) resolve(got);
      });
    });
  }

  it('writes a room broadcast once per websocket member, and each gets it once', async () => {
    const members = await Promise.all(Array.from({ length: 20 }, () => client()));
    const received = members.map((member) => collect(member, 3));
    const before = fastBroadcastWrites();
    for (let i = 0; i < 3; i += 1) io.to('room').emit('m', { i, text: 'hé ✓' });
    const got = await Promise.all(received);
    for (const list of got) expect(list).toEqual([0, 1, 2].map((i) => ({ i, text: 'hé ✓' })));
    // Had socket.io or engine.io moved what this reaches into, every write would take engine.io's path: 0.
    expect(fastBroadcastWrites() - before).toBe(60);
  });

  it('sends the bytes engine.io would: one text frame holding the socket.io packet', async () => {
    const { ws, frames } = await raw(url);
    // The server joins the room on connection, after the connect packet: wait for it to be in.
    await until(() => (io.of('/').adapter.rooms.get('room')?.size ?? 0) >= 1);
    const before = fastBroadcastWrites();
    io.to('room').emit('m', { text: 'ü'.repeat(200) });
    await until(() => frames.length >= 1);
    expect(fastBroadcastWrites() - before).toBe(1);
    expect(frames).toEqual([`42${JSON.stringify(['m', { text: 'ü'.repeat(200) }])}`]);
    ws.close();
  });

  it('keeps the order of broadcasts and single emits to a socket whose engine.io queue is not empty', async () => {
    const socket = await client();
    const [server] = await io.in(socket.id as string).fetchSockets();
    const received = collect(socket, 300);
    const before = fastBroadcastWrites();
    // A single emit makes the transport unwritable until its write is done, and the broadcasts after it queue
    // behind it in engine.io: written directly they would overtake it.
    for (let i = 0; i < 300; i += 1) {
      if (i % 3 === 0) server.emit('m', i);
      else io.to('room').emit('m', i);
    }
    expect(await received).toEqual(Array.from({ length: 300 }, (_, i) => i));
    // The first broadcasts follow a single emit still being written: they take engine.io's path.
    expect(fastBroadcastWrites() - before).toBeLessThan(200);
  });

  it('leaves a client that reads slower than it is sent to on engine.io, which drops volatile packets meanwhile', async () => {
    const { ws, frames, sid } = await raw(url);
    await until(() => io.of('/').adapter.rooms.has(sid));
    const server = io.of('/').sockets.get(sid) as unknown as { conn: { transport: { socket: WebSocket } } };
    const serverWs = server.conn.transport.socket;
    ws.pause();
    const pad = 'x'.repeat(64 * 1024);
    let sent = 0;
    // Until the kernel's buffers are full and the server's websocket holds what it could not hand over.
    while (serverWs.bufferedAmount === 0 && sent < 2000) {
      io.to(sid).emit('m', { i: sent, pad });
      sent += 1;
      if (sent % 20 === 0) await sleep(1);
    }
    expect(serverWs.bufferedAmount).toBeGreaterThan(0);
    const before = fastBroadcastWrites();
    for (let k = 0; k < 10; k += 1) {
      io.to(sid).emit('m', { i: sent, pad });
      sent += 1;
    }
    io.volatile.to(sid).emit('v', 'dropped while the client is behind');
    expect(fastBroadcastWrites() - before).toBe(0);
    ws.resume();
    await until(() => frames.length >= sent, 10);
    await sleep(50);
    const order = frames.map((text) => {
      const [event, body] = JSON.parse(text.slice(2)) as [string, { i: number }];
      return event === 'm' ? body.i : event;
    });
    expect(order).toEqual(Array.from({ length: sent }, (_, i) => i));
    ws.close();
  });

  it('keeps the order across a client upgrading from long-polling to websocket mid-stream', async () => {
    let i = 0;
    const timer = setInterval(() => io.to('room').emit('m', i++), 1);
    try {
      // Not awaited: the upgrade may come before the connect would be seen.
      const socket = connect(url, { path: '/socket.io/', forceNew: true, reconnection: false });
      clients.push(socket);
      const got: number[] = [];
      socket.on('m', (value: number) => got.push(value));
      await new Promise<void>((resolve) => socket.io.engine.once('upgrade', () => resolve()));
      const before = fastBroadcastWrites();
      const enough = got.length + 200;
      await until(() => got.length >= enough);
      clearInterval(timer);
      await sleep(50);
      expect(socket.io.engine.transport.name).toBe('websocket');
      // From its first packet on, every broadcast once and in order, on both sides of the upgrade.
      expect(got).toEqual(Array.from({ length: got.length }, (_, k) => got[0] + k));
      expect(fastBroadcastWrites()).toBeGreaterThan(before);
    } finally {
      clearInterval(timer);
    }
  });

  it('leaves long-polling clients, volatile broadcasts and single emits to engine.io', async () => {
    const polling = await client(['polling']);
    const websocket = await client();
    const [onPolling, onWebsocket] = [collect(polling, 3), collect(websocket, 3)];
    const before = fastBroadcastWrites();
    io.to('room').emit('m', 1);
    io.to(polling.id as string).emit('m', 2);
    io.to(websocket.id as string).emit('m', 2);
    const [server] = await io.in(websocket.id as string).fetchSockets();
    await sleep(50);
    server.emit('m', 3);
    expect(await onWebsocket).toEqual([1, 2, 3]);
    io.to(polling.id as string).emit('m', 3);
    expect(await onPolling).toEqual([1, 2, 3]);
    // The room broadcast and the broadcast to the websocket client's own room: 2. Not the polling client's, not
    // the single emit.
    expect(fastBroadcastWrites() - before).toBe(2);
    const volatileBefore = fastBroadcastWrites();
    const third = new Promise((resolve) => websocket.once('v', resolve));
    io.volatile.to(websocket.id as string).emit('v', 'x');
    expect(await third).toBe('x');
    expect(fastBroadcastWrites()).toBe(volatileBefore);
  });
});

const withRedis = process.env.LENSMATE_TEST_REDIS ? describe : describe.skip;

withRedis('broadcast frames with the Redis streams adapter (two servers in one process)', () => {
  const streamName = `lensmate-test:frames:${process.pid}:${Date.now()}`;
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const redis: Redis[] = [];
  const servers: Server[] = [];
  const urls: string[] = [];
  const sockets: Socket[] = [];

  beforeAll(async () => {
    for (let k = 0; k < 2; k += 1) {
      const client = new Redis(redisUrl, { maxRetriesPerRequest: null });
      redis.push(client);
      const http = createServer();
      const server = new Server(http, {
        path: '/socket.io/',
        transports: ['websocket'],
        adapter: createAdapter(readingFromStart(client, streamName), { streamName }),
      });
      server.on('connection', (socket) => {
        writeBroadcastsDirectly(socket);
        socket.join('room');
      });
      await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
      servers.push(server);
      urls.push(`http://127.0.0.1:${(http.address() as AddressInfo).port}`);
    }
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    for (const server of servers) {
      await server.of('/').adapter.close();
      await server.close();
    }
    await redis[0].del(streamName);
    for (const client of redis) client.disconnect();
  });

  it('writes a broadcast from either process straight to the members on both', async () => {
    for (const url of urls) sockets.push(await open(url));
    const received = sockets.map(
      (socket) => new Promise((resolve) => socket.on('m', (value: unknown) => value === 'from B' && resolve(value))),
    );
    const before = fastBroadcastWrites();
    servers[1].to('room').emit('m', 'from B');
    expect(await Promise.all(received)).toEqual(['from B', 'from B']);
    expect(fastBroadcastWrites() - before).toBe(2);
  });
});

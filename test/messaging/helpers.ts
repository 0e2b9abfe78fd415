import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Server } from 'socket.io';
import { type Socket, io as connect } from 'socket.io-client';
import { type DbHandle, openDb } from '../../server/db/connection';
import { type MessagingConfig, messagingConfigFromEnv } from '../../server/messaging/config';
import { registerMessaging } from '../../server/messaging/index';
import { migrateMessaging } from '../../server/messaging/migrations';

export interface TestServer {
  app: FastifyInstance;
  url: string;
  db: DbHandle;
  dir: string;
  config: MessagingConfig;
  io: Server;
  close(): Promise<void>;
}

export async function startServer(
  env: Record<string, string> = {},
  dir = mkdtempSync(join(tmpdir(), 'lensmate-msg-')),
  dbUrl = join(dir, 'messaging.sqlite'),
) {
  const config = messagingConfigFromEnv({
    MESSAGING_UPLOAD_LOCAL_DIR: join(dir, 'oss'),
    MESSAGING_REDELIVERY_MS: '400',
    ...env,
  } as unknown as NodeJS.ProcessEnv);
  const db = openDb(dbUrl);
  await migrateMessaging(db.db);
  const app = Fastify({ logger: false });
  const messaging = await registerMessaging(app, { db: db.db, dialect: db.dialect, config });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const server: TestServer = {
    app,
    url: `http://127.0.0.1:${port}`,
    db,
    dir,
    config,
    io: messaging.io,
    async close() {
      await messaging.close();
      await app.close();
      await db.close();
    },
  };
  return server;
}

export function removeDir(dir: string) {
  rmSync(dir, { recursive: true, force: true });
}

export interface Ack {
  resultCode?: number;
  code?: number;
  content?: any;
  [key: string]: any;
}

export class Client {
  readonly socket: Socket;
  readonly received: Record<string, any[]> = {};

  constructor(url: string, options: { transports?: string[]; autoAckIm?: boolean } = {}) {
    this.socket = connect(url, {
      path: '/socket.io/',
      transports: options.transports ?? ['websocket'],
      forceNew: true,
      reconnection: false,
    });
    this.socket.onAny((event: string, body: unknown) => {
      this.record(event, body);
      if (event === 'imMessage' && options.autoAckIm !== false) {
        this.socket.emit('imAck', { publishGuid: (body as { i: string }).i });
      }
    });
  }

  private record(event: string, body: unknown) {
    if (!this.received[event]) this.received[event] = [];
    this.received[event].push(body);
  }

  request(event: string, payload: Record<string, unknown> = {}, timeoutMs = 5000): Promise<Ack> {
    return this.socket.timeout(timeoutMs).emitWithAck(event, payload);
  }

  authorize(payload: Record<string, unknown> = {}): Promise<Ack> {
    return this.request('authorize', { appkey: 'BC-lensmate-demo', modules: ['IM', 'PUBSUB'], ...payload });
  }

  /** Waits until `count` pushes of `event` have arrived, and returns them. */
  async waitFor(event: string, count = 1, timeoutMs = 5000): Promise<any[]> {
    const started = Date.now();
    while ((this.received[event]?.length ?? 0) < count) {
      if (Date.now() - started > timeoutMs) {
        throw new Error(`timed out waiting for ${count} ${event}, got ${this.received[event]?.length ?? 0}`);
      }
      await sleep(20);
    }
    return this.received[event];
  }

  count(event: string): number {
    return this.received[event]?.length ?? 0;
  }

  close() {
    this.socket.disconnect();
  }
}

export async function connected(url: string, userId?: string, extra: Record<string, unknown> = {}) {
  const client = new Client(url, { autoAckIm: extra.autoAckIm !== false });
  const { autoAckIm: _ignored, ...payload } = extra;
  const ack = await client.authorize({ userId, userData: JSON.stringify({ name: userId ?? 'anon' }), ...payload });
  if (ack.resultCode !== 200) throw new Error(`authorize failed: ${JSON.stringify(ack)}`);
  return { client, ack };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

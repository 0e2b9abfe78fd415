import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import type { Server } from 'socket.io';
import { type Socket, io as connect } from 'socket.io-client';
import { type DbHandle, openDb } from '../../server/db/connection';
import { migrateMessaging } from '../../server/db/messaging-migrations';
import { type MessagingConfig, messagingConfigFromEnv } from '../../server/messaging/config';
import { openGroups } from '../../server/messaging/directory';
import { MessagingControl, registerMessaging } from '../../server/messaging/index';
import { issueOtp } from '../../server/messaging/otp';

export interface TestServer {
  app: FastifyInstance;
  url: string;
  db: DbHandle;
  dir: string;
  config: MessagingConfig;
  io: Server;
  control: MessagingControl;
  /** A valid identity proof for the user, signed with this server's own (generated) secret. */
  otp(userId: string, sessionRef?: string): string;
  /** Makes the user an agent of the team, as the shop's admins do. */
  assignAgent(teamId: string, userId: string): Promise<void>;
  close(): Promise<void>;
}

/** Each running test server's OTP secret by URL, so `connected` proves the ids it connects. */
const secrets = new Map<string, string>();

/** Lets `connected` prove ids on a server started elsewhere (a child process) with this secret. */
export function rememberSecret(url: string, otpSecret: string): void {
  secrets.set(url, otpSecret);
}

/**
 * The messaging server alone on a free port, with its default configuration: proofs required, secrets
 * generated into the temporary data directory, GoEasy's open groups.
 */
export async function startServer(
  env: Record<string, string> = {},
  dir = mkdtempSync(join(tmpdir(), 'lensmate-msg-')),
  dbUrl = join(dir, 'messaging.sqlite'),
) {
  const config = messagingConfigFromEnv(
    {
      MESSAGING_UPLOAD_LOCAL_DIR: join(dir, 'oss'),
      MESSAGING_REDELIVERY_MS: '400',
      ...env,
    } as unknown as NodeJS.ProcessEnv,
    { dataDir: dir },
  );
  const db = openDb(dbUrl);
  await migrateMessaging(db.db);
  const app = Fastify({ logger: false });
  const control = new MessagingControl(db.db);
  const messaging = await registerMessaging(app, {
    db: db.db,
    dialect: db.dialect,
    config,
    groups: openGroups(db.db),
    control,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  secrets.set(url, config.otpSecret);
  const server: TestServer = {
    app,
    url,
    db,
    dir,
    config,
    io: messaging.io,
    control,
    otp: (userId, sessionRef = '') => issueOtp(userId, config.otpSecret, undefined, undefined, sessionRef),
    assignAgent: (teamId, userId) => control.assignAgent(teamId, userId),
    async close() {
      secrets.delete(url);
      await messaging.close();
      await app.close();
      await db.close();
    },
  };
  return server;
}

/** A proof for `userId` on the test server at `url` (none for an anonymous connection). */
export function proofFor(url: string, userId: string | undefined): string | undefined {
  const secret = secrets.get(url);
  if (userId === undefined || userId === '' || !secret) return undefined;
  return issueOtp(userId, secret);
}

export function removeDir(dir: string) {
  rmSync(dir, { recursive: true, force: true });
}

/** The PostgreSQL the suites use when LENSMATE_TEST_PG is set. */
export const PG_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

async function onPostgres(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** A new, empty PostgreSQL schema: its name, the URL that works in it, and how to drop it afterwards. */
export async function pgSchema(prefix: string): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const schema = `${prefix}_${randomBytes(5).toString('hex')}`;
  await onPostgres(`create schema ${schema}`);
  return {
    name: schema,
    url: `${PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    drop: () => onPostgres(`drop schema ${schema} cascade`),
  };
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

/** A client authorized as `userId` with a valid proof (anonymous without an id). */
export async function connected(url: string, userId?: string, extra: Record<string, unknown> = {}) {
  const client = new Client(url, { autoAckIm: extra.autoAckIm !== false });
  const { autoAckIm: _ignored, ...payload } = extra;
  const otp = proofFor(url, userId);
  const ack = await client.authorize({ userId, userData: JSON.stringify({ name: userId ?? 'anon' }), otp, ...payload });
  if (ack.resultCode !== 200) throw new Error(`authorize failed: ${JSON.stringify(ack)}`);
  return { client, ack, otp };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

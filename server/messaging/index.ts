import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { Server } from 'socket.io';
import { monotonicClock } from '../clock';
import { createAdapters } from './adapters';
import type { MessagingConfig } from './config';
import { type ConnectionHooks, registerConnection } from './connection';
import { type MessagingContext, type MessagingSocket, knownEvents } from './context';
import { registerCs } from './cs';
import { registerIm } from './im';
import { failure } from './protocol';
import { registerPubSub, trackQos1 } from './pubsub';
import { MemorySessionStore, RedisSessionStore } from './state';
import { readingFromStart } from './stream-start';
import { registerUploadRoutes, registerUploadToken } from './upload';

export type { MessagingConfig } from './config';
export { messagingConfigFromEnv } from './config';
export { messagingMigrations, migrateMessaging } from './migrations';

const AUTHORIZE_TIMEOUT_MS = 30_000;

export interface MessagingDeps {
  db: Kysely<any>;
  dialect: 'sqlite' | 'postgres';
  config: MessagingConfig;
}

/**
 * Attaches the messaging server (socket.io on `/socket.io/`, engine.io 3 and 4 clients, websocket and
 * polling) and its upload endpoint to a fastify instance. Call before `listen`; `close()` stops it
 * without closing the shared HTTP server.
 */
export async function registerMessaging(
  app: FastifyInstance,
  deps: MessagingDeps,
): Promise<{ io: Server; close(): Promise<void> }> {
  const { db, dialect, config } = deps;
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: null }) : null;
  const streamName = `${config.redisPrefix}:stream`;
  const io = new Server(app.server, {
    path: '/socket.io/',
    allowEIO3: true,
    transports: ['polling', 'websocket'],
    cors: { origin: true, credentials: true },
    ...(redis
      ? {
          adapter: createAdapter(readingFromStart(redis, streamName), {
            streamName,
            sessionKeyPrefix: `${config.redisPrefix}:sio-session:`,
          }),
        }
      : {}),
  });
  const adapters = createAdapters(db, config.wechat);
  const ctx: MessagingContext = {
    io,
    db,
    dialect,
    config,
    sessions: redis ? new RedisSessionStore(redis, config.redisPrefix) : new MemorySessionStore(),
    push: adapters.push,
    wechat: adapters.wechat,
    log: app.log,
    now: monotonicClock(),
    external(task) {
      task().catch((err) => app.log.error({ err }, 'messaging hand-off to an external service failed'));
    },
  };

  const hooks: ConnectionHooks = { authorized: [], disconnected: [] };
  const im = registerIm(ctx, hooks);
  const cs = registerCs(ctx, hooks, im);
  await registerUploadRoutes(app, ctx);

  io.on('qos1', (channel: string, body: Record<string, unknown>) => trackQos1(ctx, channel, body));
  io.on('connection', (raw) => {
    const socket = raw as MessagingSocket;
    socket.data = { authorized: false };
    // A connection that never authorizes holds a socket for nothing.
    const authorizeDeadline = setTimeout(() => {
      if (!socket.data.authorized) socket.disconnect(true);
    }, AUTHORIZE_TIMEOUT_MS);
    socket.once('disconnect', () => clearTimeout(authorizeDeadline));
    registerConnection(ctx, socket, hooks);
    registerPubSub(ctx, socket);
    im.registerSocket(socket);
    cs.registerSocket(socket);
    registerUploadToken(ctx, socket);
    socket.onAny((event: string, ...args: unknown[]) => {
      const ack = args.at(-1);
      if (!knownEvents.has(event) && typeof ack === 'function') ack(failure(400, `Unsupported request: ${event}`));
    });
  });

  return {
    io,
    async close() {
      im.stop();
      io.local.disconnectSockets(true);
      io.engine.close();
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}

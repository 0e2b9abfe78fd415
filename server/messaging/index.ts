import { createAdapter } from '@socket.io/redis-streams-adapter';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { Server } from 'socket.io';
import { monotonicClock } from '../clock';
import type { MessagingDatabase } from '../db/messaging-schema';
import { createAdapters } from './adapters';
import { writeBroadcastsDirectly } from './broadcast-frames';
import type { MessagingConfig } from './config';
import { type ConnectionHooks, closeRevoked, registerConnection } from './connection';
import { type MessagingContext, type MessagingSocket, SocketRoutes } from './context';
import { MessagingControl } from './control';
import { registerCs } from './cs';
import type { GroupDirectory } from './directory';
import { FileGrants } from './files';
import { registerIm } from './im';
import { FloodLimits, MemoryCounter, RedisCounter } from './limits';
import { Limits } from './protocol';
import { registerPubSub, trackQos1 } from './pubsub';
import { MemorySessionStore, RedisSessionStore } from './state';
import { readingFromStart } from './stream-start';
import { startSweeper } from './sweeper';
import { registerUploadRoutes, registerUploadToken } from './upload';

export type { MessagingConfig } from './config';
export { messagingConfigFromEnv } from './config';
export { openGroups, shopGroups } from './directory';
export { messagingMigrations, migrateMessaging } from '../db/messaging-migrations';
export { MessagingControl, type SentSystemMessage, type SystemMessage } from './control';

const AUTHORIZE_TIMEOUT_MS = 30_000;

export interface MessagingDeps {
  db: Kysely<MessagingDatabase>;
  dialect: 'sqlite' | 'postgres';
  config: MessagingConfig;
  /** Who belongs to which group: the shop's groups in the shop, GoEasy's open groups on a server alone. */
  groups: GroupDirectory;
  /** Shared with the product API: its logout and password change revoke proofs, its admins remove agents. */
  control?: MessagingControl;
}

/**
 * Attaches the messaging server (socket.io on `/socket.io/`, engine.io 3 and 4 clients, websocket and
 * polling) and its upload endpoint to a fastify instance. Call before `listen`; `close()` stops it
 * without closing the shared HTTP server.
 */
function disconnectUnauthorized(socket: MessagingSocket): void {
  if (!socket.data.authorized) socket.disconnect(true);
}

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
    maxHttpBufferSize: Limits.PACKET_BYTES,
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
  const control = deps.control ?? new MessagingControl(db);
  const { storage } = config.upload;
  const ctx: MessagingContext = {
    io,
    db,
    dialect,
    config,
    sessions: redis ? new RedisSessionStore(redis, config.redisPrefix) : new MemorySessionStore(),
    connected: new Map(),
    groups: deps.groups,
    control,
    limits: new FloodLimits(config.limits, redis ? new RedisCounter(redis, config.redisPrefix) : new MemoryCounter()),
    files:
      storage.vendor === 'ALI' && !storage.host
        ? new FileGrants(storage.accessKeySecret, storage.dir.replace(/^\/+|\/+$/g, ''), config.upload.fileUrlTtlMs)
        : null,
    push: adapters.push,
    wechat: adapters.wechat,
    log: app.log,
    now: monotonicClock(),
    external(task) {
      task().catch((err) => app.log.error({ err }, 'messaging hand-off to an external service failed'));
    },
    routes: new SocketRoutes(app.log),
  };

  const hooks: ConnectionHooks = { authorized: [], disconnected: [] };
  const authorizeDeadlines = new WeakMap<MessagingSocket, NodeJS.Timeout>();
  const dropDeadline = (socket: MessagingSocket) => {
    clearTimeout(authorizeDeadlines.get(socket));
    authorizeDeadlines.delete(socket);
  };
  hooks.authorized.push(async (socket) => dropDeadline(socket));
  ctx.routes.onGone(dropDeadline);
  registerConnection(ctx, hooks);
  registerPubSub(ctx);
  const im = registerIm(ctx, hooks);
  const cs = registerCs(ctx, hooks, im);
  registerUploadToken(ctx);
  await registerUploadRoutes(app, ctx);
  const detachSystem = control.attachSystemSender((message) => im.sendSystem(message));
  const stopListening = control.listen(async (event) => {
    if (event.kind === 'revoked') closeRevoked(ctx, event.revocation);
    else cs.agentRemoved(event.teamId, event.agentId);
  });
  const sweeper = startSweeper(ctx);

  io.on('qos1', (channel: string, body: Record<string, unknown>) => trackQos1(ctx, channel, body));
  io.on('connection', (raw) => {
    const socket = raw as MessagingSocket;
    socket.data = { authorized: false };
    // A connection that never authorizes holds a socket for nothing. (No closure per socket: the timer is dropped
    // when the socket authorizes or leaves.)
    authorizeDeadlines.set(socket, setTimeout(disconnectUnauthorized, AUTHORIZE_TIMEOUT_MS, socket));
    ctx.routes.attach(socket);
    writeBroadcastsDirectly(socket);
  });

  return {
    io,
    async close() {
      stopListening();
      detachSystem();
      sweeper.stop();
      im.stop();
      io.local.disconnectSockets(true);
      io.engine.close();
      // The streams adapter polls Redis until its namespace adapter closes; left open, its poll loop retries
      // at once on the quit connection and starves everything else in the process.
      await io.of('/').adapter.close();
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}

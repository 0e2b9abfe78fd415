import type { FastifyInstance } from 'fastify';
import type { Server } from 'socket.io';
import { type AppDeps, buildApp } from './app';
import type { ServerConfig } from './config';
import { messagingDb } from './db/messaging-schema';
import { MessagingControl, registerMessaging, shopGroups } from './messaging/index';
import { joinGroup } from './services/social/groups';

export interface Shop {
  app: FastifyInstance;
  /** The messaging server on the same instance; null when the configuration leaves it out. */
  messaging: { io: Server; close(): Promise<void> } | null;
}

/**
 * The product API and the messaging server on one fastify instance, wired together: one control, so a
 * logout or a password change in the API closes that user's messaging sessions and admins' agent changes
 * reach the open ones, and the shop's groups as the authority on group chat membership. Not listening yet.
 */
export async function buildShop(config: ServerConfig, deps: AppDeps): Promise<Shop> {
  const db = messagingDb(deps.db);
  const control = deps.messaging ?? new MessagingControl(db);
  const app = await buildApp(config, { ...deps, messaging: control });
  const messaging = config.messaging
    ? await registerMessaging(app, {
        db,
        dialect: deps.dialect,
        config: config.messaging,
        groups: shopGroups(db, (groupId, userId) => joinGroup(deps.db, groupId, userId, Date.now())),
        control,
      })
    : null;
  return { app, messaging };
}

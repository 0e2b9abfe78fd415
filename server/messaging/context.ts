import type { Kysely } from 'kysely';
import type { Server, Socket } from 'socket.io';
import type { MessagingDatabase } from '../db/messaging-schema';
import type { PushAdapter, WechatTemplateAdapter } from './adapters';
import type { MessagingConfig } from './config';
import type { MessagingControl } from './control';
import type { GroupDirectory } from './directory';
import type { FileGrants } from './files';
import type { FloodLimits } from './limits';
import {
  type Ack,
  type AckBody,
  Call,
  type Permission,
  Push,
  RequestError,
  type SocketIdentity,
  Text,
  failure,
  ok,
} from './protocol';
import type { SessionStore } from './state';

export interface MessagingContext {
  io: Server;
  db: Kysely<MessagingDatabase>;
  dialect: 'sqlite' | 'postgres';
  config: MessagingConfig;
  sessions: SessionStore;
  /** Who belongs to which group: the embedding application decides (directory.ts). */
  groups: GroupDirectory;
  control: MessagingControl;
  limits: FloodLimits;
  /** Read grants of the built-in upload endpoint; null when files live in a real bucket. */
  files: FileGrants | null;
  push: PushAdapter;
  wechat: WechatTemplateAdapter;
  log: { error(obj: unknown, msg?: string): void };
  /** Runs a hand-off to an external service (push, WeChat) without holding the request; failures are logged. */
  external(task: () => Promise<void>): void;
  /** A per-process strictly increasing clock, so two messages of one conversation never share a timestamp. */
  now(): number;
}

export type MessagingSocket = Socket & { data: Partial<SocketIdentity> };

/** A handler answers with the ack content, or with a whole ack body through `Reply`. */
export class Reply {
  constructor(readonly body: AckBody) {}
}

export type Handler = (socket: MessagingSocket, payload: Record<string, any>) => unknown;

export function identity(socket: MessagingSocket): SocketIdentity {
  return socket.data as SocketIdentity;
}

/** Every request name a handler answers; anything else gets a 400 instead of a silent timeout. */
export const knownEvents = new Set<string>([Push.ACK, Push.IM_ACK]);

/**
 * What a connection without a user id may do: pub/sub on channels, nothing else (no IM, conversations,
 * history of conversations, presence or uploads), since nobody answers for it.
 */
const ANONYMOUS_REQUESTS = new Set<string>([
  Call.SUBSCRIBE,
  Call.UNSUBSCRIBE,
  Call.PUBLISH,
  Call.HISTORY,
  // Its handler refuses an anonymous connection with the spec's own words.
  Call.PRESENCE_SUBSCRIBE,
]);

/**
 * Registers one request: checks that the socket is authorized and holds the permission, turns
 * RequestError into `{code, content}`, and never lets a handler's crash go unanswered.
 */
export function handle(
  ctx: MessagingContext,
  socket: MessagingSocket,
  event: string,
  permission: Permission | 'none',
  handler: Handler,
): void {
  knownEvents.add(event);
  socket.on(event, async (payload: unknown, maybeAck?: unknown) => {
    const ack: Ack =
      typeof maybeAck === 'function' ? (maybeAck as Ack) : typeof payload === 'function' ? (payload as Ack) : () => {};
    const body =
      payload && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Record<string, any>) : {};
    try {
      if (permission !== 'none') {
        const who = identity(socket);
        if (!who.authorized) throw new RequestError(409, Text.CONNECT_FIRST);
        if (who.anonymous && !ANONYMOUS_REQUESTS.has(event)) throw new RequestError(401, Text.NO_PERMISSION);
        if ((permission === 'write' && !who.publish) || (permission === 'read' && !who.subscribe)) {
          throw new RequestError(401, Text.NO_PERMISSION);
        }
      }
      const result = await handler(socket, body);
      ack(result instanceof Reply ? result.body : ok(result));
    } catch (error) {
      if (error instanceof RequestError) {
        ack(failure(error.code, error.content));
      } else {
        ctx.log.error({ err: error, event }, 'messaging request failed');
        ack(failure(500, Text.INTERNAL));
      }
    }
  });
}

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
  /**
   * This process's authorized sockets by session id (sid): a connected session's record is read off its socket
   * (connection.ts `sessionRecord`), so the memory store keeps none while it is connected.
   */
  connected: Map<string, MessagingSocket>;
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
  /** The requests and client events every socket is served by (registered once). */
  routes: SocketRoutes;
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

/** Every event name the server answers or listens to (for the fuzz suite); anything else gets a 400. */
export const knownEvents = new Set<string>();

/** A client event that is no request (an acknowledgement of a push): no answer is expected. */
export type Listener = (socket: MessagingSocket, payload: unknown) => void;
/** What runs when a socket is leaving (`disconnecting`: its rooms still known) or gone (`disconnect`). */
export type Lifecycle = (socket: MessagingSocket) => void;

interface Route {
  permission: Permission | 'none';
  handler: Handler;
}

/**
 * The messaging server's requests, client events and lifecycle handlers, registered once per server. Every socket
 * is served by the same three functions (`attach`): a connection costs no closure, listener array or context per
 * request it may send, which is what an idle connection's memory was mostly made of.
 */
export class SocketRoutes {
  private readonly requests = new Map<string, Route>();
  private readonly events = new Map<string, Listener>();
  private readonly leaving: Lifecycle[] = [];
  private readonly gone: Lifecycle[] = [];
  private readonly dispatch: (this: MessagingSocket, event: string, ...args: unknown[]) => void;
  private readonly onDisconnecting: (this: MessagingSocket) => void;
  private readonly onDisconnect: (this: MessagingSocket) => void;

  constructor(private readonly log: MessagingContext['log']) {
    const routes = this;
    this.dispatch = function (this: MessagingSocket, event: string, ...args: unknown[]) {
      routes.receive(this, event, args);
    };
    this.onDisconnecting = function (this: MessagingSocket) {
      for (const handler of routes.leaving) handler(this);
    };
    this.onDisconnect = function (this: MessagingSocket) {
      for (const handler of routes.gone) handler(this);
    };
  }

  /** A request, answered through its ack (see `answer`). */
  request(event: string, permission: Permission | 'none', handler: Handler): void {
    if (this.requests.has(event) || this.events.has(event)) throw new Error(`messaging: ${event} registered twice`);
    this.requests.set(event, { permission, handler });
    knownEvents.add(event);
  }

  /** A client event without an answer. */
  on(event: string, listener: Listener): void {
    if (this.requests.has(event) || this.events.has(event)) throw new Error(`messaging: ${event} registered twice`);
    this.events.set(event, listener);
    knownEvents.add(event);
  }

  onLeaving(handler: Lifecycle): void {
    this.leaving.push(handler);
  }

  onGone(handler: Lifecycle): void {
    this.gone.push(handler);
  }

  /** Serves a new socket. */
  attach(socket: MessagingSocket): void {
    socket.onAny(this.dispatch);
    socket.on('disconnecting', this.onDisconnecting);
    socket.on('disconnect', this.onDisconnect);
  }

  private receive(socket: MessagingSocket, event: string, args: unknown[]): void {
    const route = this.requests.get(event);
    if (route) {
      void this.answer(socket, event, route, args[0], args[1]);
      return;
    }
    const listener = this.events.get(event);
    if (listener) {
      listener(socket, args[0]);
      return;
    }
    // Anything else gets a 400 instead of a silent timeout.
    const ack = args.at(-1);
    if (typeof ack === 'function') (ack as Ack)(failure(400, Text.unsupportedRequest(event)));
  }

  /**
   * Checks that the socket is authorized and holds the permission, turns RequestError into `{code, content}`, and
   * never lets a handler's crash go unanswered.
   */
  private async answer(
    socket: MessagingSocket,
    event: string,
    { permission, handler }: Route,
    payload: unknown,
    maybeAck: unknown,
  ): Promise<void> {
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
        this.log.error({ err: error, event }, 'messaging request failed');
        ack(failure(500, Text.INTERNAL));
      }
    }
  }
}

/** Registers one request with the server's routes (`ctx.routes`). */
export function handle(ctx: MessagingContext, event: string, permission: Permission | 'none', handler: Handler): void {
  ctx.routes.request(event, permission, handler);
}

/** The user id of an authorized socket. */
export function userOf(socket: MessagingSocket): string {
  return identity(socket).userId;
}

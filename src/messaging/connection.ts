import Taro from '@tarojs/taro';
import { type MessagingError, messagingError, toMessagingError } from './errors';
import { RecentIds } from './model';
import { ErrorCode } from './protocol';
import * as Call from './protocol/calls';
import * as Text from './protocol/texts';
import { type IoSocket, ioSocket } from './socket';

/** The connection's state machine: the eight states of messaging.md §4. */
export const ConnectionState = {
  CONNECTING: 'connecting',
  CONNECTED: 'connected',
  RECONNECTING: 'reconnecting',
  RECONNECTED: 'reconnected',
  EXPIRED_RECONNECTED: 'expired-reconnected',
  DISCONNECTING: 'disconnecting',
  DISCONNECTED: 'disconnected',
  CONNECT_FAILED: 'connect-failed',
} as const;
export type ConnectionState = (typeof ConnectionState)[keyof typeof ConnectionState];

/**
 * What `getConnectionStatus()` answers: GoEasy 2.8.3's public strings. The spec's `expired-reconnected` is
 * `reconnected` to the app (the SDK resubscribes by itself) and `connect-failed` is `connect_failed`.
 */
export const ConnectionStatus = {
  ...ConnectionState,
  EXPIRED_RECONNECTED: 'reconnected',
  CONNECT_FAILED: 'connect_failed',
} as const;
export type ConnectionStatus = (typeof ConnectionStatus)[keyof typeof ConnectionStatus];

export function publicStatus(state: ConnectionState): ConnectionStatus {
  if (state === ConnectionState.EXPIRED_RECONNECTED) return ConnectionStatus.EXPIRED_RECONNECTED;
  return state === ConnectionState.CONNECT_FAILED ? ConnectionStatus.CONNECT_FAILED : state;
}

/** messaging.md §9 timing. */
export const Timing = {
  CONNECT: 3000,
  REQUEST_SINGLE: 1700,
  QUERY_SINGLE: 2500,
  REQUEST_TOTAL: 12000,
  RECONNECT_DELAY: 1000,
  RECONNECT_DELAY_MAX: 3000,
  SOCKET_TIMEOUT: 20000,
} as const;

export const SESSION_MARKER_KEY = 'GE-SM';
const DEVICE_ID_KEY = 'GE-DID';
export const ARTIFACT_VERSION = '2.8.3';

export type Permission = 'read' | 'write' | 'none';

export interface AckBody {
  resultCode?: number | string;
  code?: number | string;
  content?: unknown;
  [key: string]: unknown;
}

export interface RequestOptions {
  permission: Permission;
  /** Publish-like requests carry `retried` and are de-duplicated by guid on the server. */
  unique?: boolean;
  query?: boolean;
}

/** The requests the SDK makes: a query (a read, re-emitted at the slower query pace), a read, a write, and a send
 *  (a write the server de-duplicates by guid). */
export const QUERY: RequestOptions = { permission: 'read', query: true };
export const READ: RequestOptions = { permission: 'read' };
export const WRITE: RequestOptions = { permission: 'write' };
export const SEND: RequestOptions = { permission: 'write', unique: true };

export interface EndpointOptions {
  host: string;
  forceTLS?: boolean;
  supportOldBrowser?: boolean;
}

/** `host` names a server on 443 (TLS) or 80; an explicit `http(s)://host:port` is taken as is. */
export function endpointUrl(options: EndpointOptions): string {
  if (/^https?:\/\//i.test(options.host)) return options.host;
  return options.forceTLS === false ? `http://${options.host}:80` : `https://${options.host}:443`;
}

/** Each printable ASCII character moved `by` places, wrapping past 126 as the 2.8.3 client does. */
export function shiftPrintable(text: string, by: number): string {
  let shifted = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 32 || code > 126) {
      shifted += text[i];
      continue;
    }
    const moved = code + by;
    shifted += String.fromCharCode(moved > 126 ? moved - 126 + 32 : moved);
  }
  return shifted;
}

function readStorage(key: string): string | undefined {
  try {
    const value = Taro.getStorageSync(key);
    return typeof value === 'string' && value ? value : undefined;
  } catch {
    return undefined;
  }
}

function writeStorage(key: string, value: string): void {
  try {
    Taro.setStorageSync(key, value);
  } catch {
    // Storage can be full or unavailable; the marker is an optimisation, not a requirement.
  }
}

export function deviceFingerprint(): string {
  let deviceId = readStorage(DEVICE_ID_KEY);
  if (!deviceId) {
    deviceId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
    writeStorage(DEVICE_ID_KEY, deviceId);
  }
  return shiftPrintable(JSON.stringify({ p: Taro.getEnv(), f: 'TARO', pdi: deviceId, vc: null }), 5);
}

export interface AuthorizeFields {
  appkey: string;
  userId: string | null;
  userData: string;
  otp?: string;
  wxmpId?: { appid: string; openid: string };
  modules: string[];
  allowNT: boolean;
}

interface PendingRequest {
  name: string;
  params: Record<string, unknown>;
  options: RequestOptions;
  retried: number;
  done: boolean;
  singleTimer?: ReturnType<typeof setTimeout>;
  totalTimer?: ReturnType<typeof setTimeout>;
  resolve(body: AckBody): void;
  reject(error: MessagingError): void;
}

type PushHandler = (body: unknown) => void;
type StatusListener = (status: ConnectionState) => void;

const CONNECTED_STATES: ConnectionState[] = ['connected', 'reconnected', 'expired-reconnected'];
const CONNECTING_STATES: ConnectionState[] = ['connecting', 'reconnecting'];

const noop = () => undefined;

function ackSucceeded(body: AckBody | undefined): boolean {
  return !!body && (Number(body.resultCode) === 200 || Number(body.code) === 200);
}

/**
 * One socket per client: authorize on every (re)connect, requests re-emitted until acked,
 * pushes de-duplicated by id and acknowledged.
 */
export class Connection {
  status: ConnectionState = ConnectionState.DISCONNECTED;
  sid: string | null = null;
  private socket: IoSocket | null = null;
  private permissions = new Set<Permission>();
  /** Every request not yet settled: queued while connecting, or emitted and waiting for its ack. */
  private readonly waiting = new Set<PendingRequest>();
  private readonly pushHandlers = new Map<string, PushHandler[]>();
  private readonly statusListeners: StatusListener[] = [];
  private readonly seenMessages = new RecentIds();
  private readonly seenImMessages = new RecentIds();
  private authorizeFields: AuthorizeFields | null = null;
  private firstConnect: { resolve(): void; reject(error: MessagingError): void } | null = null;
  private failTimer?: ReturnType<typeof setTimeout>;
  private attempts = 0;
  /** What the client does on these moments; nothing until it says. */
  onConnecting: (attempts: number) => void = noop;
  onExpiredReconnected: () => void = noop;
  onConnected: (status: ConnectionState) => void = noop;
  onDisconnected: () => void = noop;

  constructor(private readonly endpoint: EndpointOptions) {}

  onStatus(listener: StatusListener): () => void {
    this.statusListeners.push(listener);
    return () => {
      const index = this.statusListeners.indexOf(listener);
      if (index >= 0) this.statusListeners.splice(index, 1);
    };
  }

  isConnected(): boolean {
    return CONNECTED_STATES.includes(this.status);
  }

  isConnecting(): boolean {
    return CONNECTING_STATES.includes(this.status);
  }

  can(permission: Permission): boolean {
    return this.permissions.has(permission);
  }

  private setStatus(status: ConnectionState): void {
    if (this.status === status) return;
    this.status = status;
    for (const listener of [...this.statusListeners]) listener(status);
  }

  /** Registers a handler for a server push; `message` and `imMessage` are de-duplicated and acked. */
  onPush(event: string, handler: PushHandler): void {
    const handlers = this.pushHandlers.get(event);
    if (handlers) {
      handlers.push(handler);
      return;
    }
    this.pushHandlers.set(event, [handler]);
    this.socket?.on(event, (body: unknown) => this.dispatchPush(event, body));
  }

  private dispatchPush(event: string, body: unknown): void {
    if (event === 'message' || event === 'imMessage') {
      const id = (body as { i?: unknown })?.i;
      if (typeof id === 'string' || typeof id === 'number') {
        this.socket?.emit(event === 'message' ? 'ack' : 'imAck', { publishGuid: String(id) });
        const recent = event === 'message' ? this.seenMessages : this.seenImMessages;
        if (!recent.add(String(id))) return;
      }
    }
    for (const handler of this.pushHandlers.get(event) || []) handler(body);
  }

  connect(fields: AuthorizeFields): Promise<void> {
    if (this.isConnected() || this.isConnecting()) {
      return Promise.reject(messagingError(ErrorCode.TIMEOUT, Text.ALREADY_CONNECTED));
    }
    this.authorizeFields = fields;
    this.attempts = 0;
    this.permissions = new Set();
    this.setStatus(ConnectionState.CONNECTING);
    const socket = ioSocket(endpointUrl(this.endpoint), {
      polling: this.endpoint.supportOldBrowser,
      timeout: Timing.CONNECT,
      reconnectionDelay: Timing.RECONNECT_DELAY,
      reconnectionDelayMax: Timing.RECONNECT_DELAY_MAX,
    });
    this.socket = socket;
    socket.on('connect', () => this.authorize(socket));
    socket.on('disconnect', (reason: string) => {
      this.onSocketLost(socket);
      // socket.io does not come back by itself after a server-side disconnect (a redeploy, a kick).
      if (reason === 'io server disconnect' && this.socket === socket) socket.connect();
    });
    socket.on('connect_error', () => this.onSocketLost(socket));
    socket.on('reconnect_attempt', (attempt: number) => this.onConnecting(attempt));
    this.pushHandlers.forEach((_handlers, event) =>
      socket.on(event, (body: unknown) => this.dispatchPush(event, body)),
    );
    this.onConnecting(0);
    return new Promise<void>((resolve, reject) => {
      this.firstConnect = { resolve, reject };
      this.failTimer = setTimeout(
        () => this.failConnect(messagingError(ErrorCode.TIMEOUT, Text.HOST_UNREACHABLE)),
        Timing.SOCKET_TIMEOUT,
      );
    });
  }

  private onSocketLost(socket: IoSocket): void {
    if (socket !== this.socket) return;
    this.attempts++;
    if (this.status === 'disconnecting' || this.status === 'disconnected' || this.status === 'connect-failed') return;
    if (this.isConnected() || this.status === 'reconnecting') this.setStatus(ConnectionState.RECONNECTING);
    else this.setStatus(ConnectionState.CONNECTING);
    this.onDisconnected();
  }

  private authorize(socket: IoSocket): void {
    const fields = this.authorizeFields;
    if (!fields || socket !== this.socket) return;
    const params = {
      appkey: fields.appkey,
      userId: fields.userId,
      userData: fields.userData,
      otp: fields.otp,
      artifactVersion: ARTIFACT_VERSION,
      sid: this.sid,
      allowNT: fields.allowNT,
      regId: null,
      wxmpId: fields.wxmpId,
      modules: fields.modules,
      a: fields.userId === null,
      z: deviceFingerprint(),
      sm: readStorage(SESSION_MARKER_KEY) ?? null,
    };
    socket.emit(
      Call.AUTHORIZE,
      params,
      (timeout: Error | null, body: AckBody) => {
        if (socket !== this.socket) return;
        if (timeout) {
          if (socket.connected) this.authorize(socket);
          return;
        }
        if (!ackSucceeded(body)) {
          this.failConnect({
            code: Number(body?.resultCode ?? body?.code) || ErrorCode.TIMEOUT,
            content: typeof body?.content === 'string' && body.content ? body.content : Text.HOST_UNREACHABLE,
          });
          return;
        }
        this.onAuthorized(body);
      },
      Timing.REQUEST_TOTAL,
    );
  }

  private onAuthorized(body: AckBody): void {
    if (typeof body.sm === 'string' && body.sm) writeStorage(SESSION_MARKER_KEY, body.sm);
    const sid = typeof body.sid === 'string' ? body.sid : null;
    const wasReconnecting = this.status === 'reconnecting';
    const expired = wasReconnecting && sid !== this.sid;
    this.sid = sid;
    this.permissions = new Set<Permission>(['none']);
    if (body.enablePublish) this.permissions.add('write');
    if (body.enableSubscribe) this.permissions.add('read');
    clearTimeout(this.failTimer);
    const status = !wasReconnecting
      ? ConnectionState.CONNECTED
      : expired
        ? ConnectionState.EXPIRED_RECONNECTED
        : ConnectionState.RECONNECTED;
    this.setStatus(status);
    this.attempts = 0;
    const first = this.firstConnect;
    this.firstConnect = null;
    first?.resolve();
    if (expired) this.onExpiredReconnected();
    this.onConnected(status);
    this.flush();
  }

  private failConnect(error: MessagingError): void {
    clearTimeout(this.failTimer);
    const socket = this.socket;
    this.socket = null;
    socket?.disconnect();
    this.setStatus(ConnectionState.CONNECT_FAILED);
    this.failWaiting(messagingError(ErrorCode.TIMEOUT, Text.FAILED_TO_CONNECT));
    const first = this.firstConnect;
    this.firstConnect = null;
    first?.reject(error);
  }

  async disconnect(): Promise<void> {
    if (this.status === 'disconnected') return;
    if (this.authorizeFields?.allowNT && this.isConnected()) {
      await this.request(Call.MANUAL_DISCONNECT, {}, { permission: 'none' }).catch(() => undefined);
    }
    this.setStatus(ConnectionState.DISCONNECTING);
    clearTimeout(this.failTimer);
    const socket = this.socket;
    this.socket = null;
    socket?.disconnect();
    this.sid = null;
    this.permissions = new Set();
    this.failWaiting(messagingError(ErrorCode.NOT_CONNECTED, Text.CONNECT_FIRST));
    const first = this.firstConnect;
    this.firstConnect = null;
    first?.reject(messagingError(ErrorCode.NOT_CONNECTED, Text.CONNECT_FIRST));
    this.setStatus(ConnectionState.DISCONNECTED);
  }

  /**
   * One named request with an ack. Re-emitted every 1.7 s (2.5 s for queries) with the same
   * params until acked; after 12 s it fails with 408. Waits while connecting, fails at once when disconnected.
   */
  request(name: string, params: Record<string, unknown>, options: RequestOptions): Promise<AckBody> {
    if (this.status === 'disconnected' || this.status === 'disconnecting') {
      return Promise.reject(messagingError(ErrorCode.NOT_CONNECTED, Text.CONNECT_FIRST));
    }
    if (this.status === 'connect-failed') {
      return Promise.reject(messagingError(ErrorCode.TIMEOUT, Text.FAILED_TO_CONNECT));
    }
    return new Promise<AckBody>((resolve, reject) => {
      const pending: PendingRequest = { name, params, options, retried: 0, done: false, resolve, reject };
      pending.totalTimer = setTimeout(
        () => this.settle(pending, messagingError(ErrorCode.TIMEOUT, Text.HOST_UNREACHABLE)),
        Timing.REQUEST_TOTAL,
      );
      this.waiting.add(pending);
      this.emitRequest(pending);
    });
  }

  private settle(pending: PendingRequest, error: MessagingError | null, body?: AckBody): void {
    if (pending.done) return;
    pending.done = true;
    clearTimeout(pending.singleTimer);
    clearTimeout(pending.totalTimer);
    this.waiting.delete(pending);
    if (error) pending.reject(error);
    else pending.resolve(body as AckBody);
  }

  private emitRequest(pending: PendingRequest): void {
    if (pending.done) return;
    const socket = this.socket;
    if (!this.isConnected() || !socket) return;
    if (pending.options.permission !== 'none' && !this.can(pending.options.permission)) {
      this.settle(pending, messagingError(ErrorCode.NO_PERMISSION, Text.NO_PERMISSION));
      return;
    }
    const single = pending.options.query ? Timing.QUERY_SINGLE : Timing.REQUEST_SINGLE;
    pending.singleTimer = setTimeout(() => this.emitRequest(pending), single);
    const params = pending.options.unique ? { ...pending.params, retried: pending.retried } : pending.params;
    pending.retried++;
    socket.emit(pending.name, params, (_error, body: AckBody) => {
      if (pending.done) return;
      if (ackSucceeded(body)) this.settle(pending, null, body);
      else this.settle(pending, toMessagingError(body ?? {}, ErrorCode.TIMEOUT));
    });
  }

  private flush(): void {
    for (const pending of Array.from(this.waiting)) {
      clearTimeout(pending.singleTimer);
      this.emitRequest(pending);
    }
  }

  private failWaiting(error: MessagingError): void {
    for (const pending of Array.from(this.waiting)) this.settle(pending, error);
  }
}

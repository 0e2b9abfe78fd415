import Taro from '@tarojs/taro';

/**
 * The SDK's Socket.IO v4 client (engine.io protocol 4), written for the SDK's one use of it: one connection to the
 * default namespace, text frames only, named events with acks. It takes the place of socket.io-client and
 * engine.io-client, whose general-purpose stacks (binary packets, namespaces, multiplexing, transports the
 * mini-program has no globals for) were 35 KB of the SDK's share of the mini-program bundle; this is about 4.
 *
 * - Transport: `Taro.connectSocket`, the same code in the mini-program and on H5. With `polling` (the SDK's
 *   `supportOldBrowser`) it opens over long-polling on `Taro.request` first and then upgrades to the socket as
 *   engine.io does (`2probe` / `3probe`, pause the polling, `5`), staying on polling when the probe fails.
 * - Heartbeat: the server pings every `pingInterval`; no ping within `pingInterval + pingTimeout` closes the
 *   transport ("ping timeout").
 * - Reconnection as socket.io-client's: after any loss that neither side asked for, again after
 *   `reconnectionDelay * 2^attempt` (±50 %, at most `reconnectionDelayMax`), with a `reconnect_attempt` event.
 *   A connect that does not complete within `timeout` counts as lost. A server-side disconnect (`41`) is final
 *   until `connect()` is called, as in socket.io-client.
 * - Emits made while disconnected are dropped (the SDK re-emits its requests after every reconnect); an ack with
 *   a timeout answers an Error when the time passes or the connection is lost first.
 *
 * Events: `connect`, `disconnect` (reason), `connect_error` (Error), `reconnect_attempt` (n), and every event the
 * server emits, with its arguments and, when the server asked for one, an ack function last.
 */

/** Timers as the module found them when it loaded: tests fake the SDK's own timers, never the transport's. */
const later = setTimeout;
const cancel = clearTimeout;

type Timer = ReturnType<typeof setTimeout>;
type Listener = (...args: any[]) => void;
export type Ack = (error: Error | null, ...args: any[]) => void;

/** The SDK's socket (see above). */
export interface IoSocket {
  readonly connected: boolean;
  /** Read at every (re)connect: tests shorten the backoff through it. */
  readonly settings: IoSettings;
  on(event: string, listener: Listener): void;
  /** Opens the connection (again, after a server-side disconnect); nothing when it is open or opening. */
  connect(): void;
  /**
   * Emits an event with one argument. With `ack`, the server's answer comes back to it; with `timeoutMs` too, an
   * Error does when no answer came in time or the connection was lost first. Dropped while not connected.
   */
  emit(event: string, data: unknown, ack?: Ack, timeoutMs?: number): void;
  /** Closes for good (until connect()): tells the server, and reports "io client disconnect". */
  disconnect(): void;
  /** Drops the transport as a network failure would: the connection comes back by itself. For tests. */
  drop(): void;
}

export interface IoSettings {
  /** Start over long-polling on Taro.request, then upgrade to the socket. */
  polling?: boolean;
  /** How long a connect may take before it counts as lost. */
  timeout: number;
  reconnectionDelay: number;
  reconnectionDelayMax: number;
}

/** engine.io packet types (protocol 4). */
const OPEN = '0';
const CLOSE = '1';
const PING = '2';
const PONG = '3';
const MESSAGE = '4';
const UPGRADE = '5';
/** Socket.IO packet types (protocol 5), inside an engine.io message: connect, disconnect, event, ack, error. */
const CONNECT = '40';
const DISCONNECT = '41';
const EVENT = '42';
const ACK = '43';
const CONNECT_ERROR = '44';
/** What separates packets in a polling payload. */
const SEPARATOR = '\x1e';

let cacheBuster = 0;

/** Bytes of a string in UTF-8 (a surrogate pair counts 6, over by 2: the limit it is held to stays safe). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
  }
  return bytes;
}

interface Channel {
  send(text: string): void;
  close(): void;
}

/** A task from Taro.connectSocket: the SDK's one socket (WeChat allows five). */
function openSocket(
  url: string,
  onOpen: () => void,
  onData: (data: unknown) => void,
  onClose: (reason: string) => void,
): Channel {
  let task: Taro.SocketTask | null = null;
  let open = false;
  let closed = false;
  const end = (reason: string) => {
    if (!closed) onClose(reason);
    closed = true;
  };
  const fail = () => end('transport error');
  Promise.resolve(Taro.connectSocket({ url, fail })).then((opened) => {
    // A refused socket (H5 and WeChat allow five at once) answers through `fail`, and the promise resolves with
    // that error instead of a task.
    if (typeof opened?.onOpen !== 'function') return;
    if (closed) return opened.close({});
    task = opened;
    opened.onOpen(() => {
      open = true;
      if (!closed) onOpen();
    });
    opened.onMessage((event) => closed || onData(event.data));
    opened.onClose(() => end('transport close'));
    opened.onError(fail);
  }, fail);
  return {
    // Taro's send refuses a socket that is not open (and so would a closing one): only an open one is written to.
    send: (text) => open && !closed && Promise.resolve(task?.send({ data: text })).catch(() => undefined),
    close() {
      closed = true;
      task?.close({});
    },
  };
}

/** One Taro.request round of long-polling: the response's text, or an error. */
function pollRequest(url: string, body?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    // Taro's request both calls `fail` and rejects the promise it returns: that one is answered here.
    const request = Taro.request({
      url: `${url}&t=${Date.now().toString(36)}${cacheBuster++}`,
      method: body === undefined ? 'GET' : 'POST',
      data: body,
      header: { 'content-type': 'text/plain;charset=UTF-8' },
      dataType: 'text',
      responseType: 'text',
      success: (response) =>
        response.statusCode >= 200 && response.statusCode < 300
          ? resolve(typeof response.data === 'string' ? response.data : JSON.stringify(response.data))
          : reject(new Error(`xhr poll error ${response.statusCode}`)),
      fail: reject,
    });
    Promise.resolve(request).catch(() => undefined);
  });
}

interface Engine {
  send(packet: string): void;
  /** Ends the session once: tells the server when the client asked for it, and reports the reason. */
  close(reason: string, tellServer?: boolean): void;
}

/**
 * One engine.io session: the handshake, the heartbeat, the socket or the polling (and its upgrade), and the
 * close. It reports the Socket.IO payloads it receives and its one close, with socket.io-client's reasons.
 * (Closures rather than a class: the minifier can shorten what is private.)
 */
function openEngine(
  base: string,
  usePolling: boolean,
  onOpen: () => void,
  onMessage: (payload: string) => void,
  onClose: (reason: string) => void,
): Engine {
  let sid = '';
  let closed = false;
  let pingTimer: Timer | undefined;
  /** pingInterval + pingTimeout of the handshake, and the most the server takes in one POST. */
  let heartbeat = 0;
  let maxPayload = 1e6;
  /** The socket, once it carries the session (from the start, or after an upgrade). */
  let socket: Channel | null = null;
  /** The socket being probed for an upgrade from polling. */
  let probe: Channel | null = null;
  /** Polling: packets waiting for the next POST, whether a GET or a POST is out, whether an upgrade waits. */
  let outbox: string[] = [];
  let polling = false;
  let posting = false;
  let pausing = false;

  const url = (transport: string) => `${base}/socket.io/?EIO=4&transport=${transport}${sid ? `&sid=${sid}` : ''}`;

  const websocket = (asProbe: boolean): Channel => {
    let probing = asProbe;
    const channel = openSocket(
      url('websocket').replace(/^http/, 'ws'),
      () => probing && channel.send(`${PING}probe`),
      (data) => {
        if (typeof data !== 'string') return;
        if (!probing) return receive(data);
        if (data !== `${PONG}probe`) return;
        probing = false;
        pausing = true;
        upgrade(channel);
      },
      (reason) => {
        if (socket === channel) engine.close(reason);
        // A failed probe leaves the session on polling.
        else if (pausing) {
          pausing = false;
          poll();
        }
      },
    );
    return channel;
  };

  /** Moves the session to the probed socket once no GET or POST is out (the server ends the GET with a noop). */
  const upgrade = (channel: Channel): void => {
    if (closed || !pausing) return;
    if (polling || posting) {
      later(() => upgrade(channel), 25);
      return;
    }
    pausing = false;
    probe = null;
    socket = channel;
    channel.send(UPGRADE);
    for (const packet of outbox) channel.send(packet);
    outbox = [];
  };

  const failed = () => engine.close('transport error');

  const poll = (): void => {
    if (closed || polling || pausing || socket) return;
    polling = true;
    pollRequest(url('polling')).then((body) => {
      polling = false;
      for (const packet of body.split(SEPARATOR)) receive(packet);
      poll();
    }, failed);
  };

  const post = (): void => {
    if (closed || posting || !outbox.length || socket || pausing) return;
    posting = true;
    // As many packets as the server takes in one POST (its maxPayload; always at least one).
    let count = 0;
    for (let size = 0; count < outbox.length; count++) {
      size += utf8Length(outbox[count]) + 1;
      if (count && size > maxPayload) break;
    }
    const body = outbox.splice(0, count).join(SEPARATOR);
    pollRequest(url('polling'), body).then(() => {
      posting = false;
      post();
    }, failed);
  };

  const alive = (): void => {
    cancel(pingTimer);
    pingTimer = later(() => engine.close('ping timeout'), heartbeat);
  };

  const receive = (packet: string): void => {
    if (closed) return;
    const type = packet[0];
    const data = packet.slice(1);
    try {
      if (type === OPEN) {
        const handshake = JSON.parse(data) as {
          sid: string;
          pingInterval: number;
          pingTimeout: number;
          upgrades?: string[];
          maxPayload?: number;
        };
        sid = handshake.sid;
        heartbeat = handshake.pingInterval + handshake.pingTimeout;
        maxPayload = handshake.maxPayload || maxPayload;
        alive();
        if (!socket && handshake.upgrades?.includes('websocket')) probe = websocket(true);
        onOpen();
      } else if (type === PING) {
        alive();
        engine.send(PONG);
      } else if (type === MESSAGE) onMessage(packet);
      else if (type === CLOSE) engine.close('transport close');
    } catch {
      engine.close('parse error');
    }
  };

  const engine: Engine = {
    send(packet) {
      if (closed) return;
      if (socket) return socket.send(packet);
      outbox.push(packet);
      post();
    },
    close(reason, tellServer) {
      if (closed) return;
      if (tellServer) engine.send(CLOSE);
      closed = true;
      cancel(pingTimer);
      // What was just sent goes first: some sockets (jsdom's, and so possibly others) write on the next tick.
      const last = socket;
      if (tellServer) later(() => last?.close(), 0);
      else last?.close();
      probe?.close();
      onClose(reason);
    },
  };
  if (usePolling) poll();
  else socket = websocket(false);
  return engine;
}

/** The Socket.IO socket of the default namespace, with socket.io-client's reconnection. */
export function ioSocket(base: string, settings: IoSettings): IoSocket {
  let engine: Engine | null = null;
  const listeners: Record<string, Listener[]> = {};
  const acks = new Map<number, { ack: Ack; timer?: Timer }>();
  let nextAck = 0;
  /** Whether a lost connection comes back by itself: off after disconnect() or the server's `41`. */
  let active = false;
  let attempts = 0;
  let connectTimer: Timer | undefined;
  let reconnectTimer: Timer | undefined;

  const fire = (event: string, ...args: unknown[]): void => {
    for (const listener of listeners[event] || []) listener(...args);
  };

  const open = (): void => {
    reconnectTimer = undefined;
    const current: Engine = openEngine(
      base.replace(/\/+$/, ''),
      !!settings.polling,
      () => current.send(CONNECT),
      // A packet of an engine this socket has moved on from is nobody's.
      (packet) => current === engine && receive(packet),
      (reason) => lost(current, reason),
    );
    engine = current;
    connectTimer = later(() => current.close('timeout'), settings.timeout);
  };

  /** One engine.io message: a Socket.IO packet (its type, an ack id for events and acks, and its JSON). */
  const receive = (packet: string): void => {
    const type = packet.slice(0, 2);
    const id = /^\d*/.exec(packet.slice(2))?.[0] ?? '';
    const json = packet.slice(2 + id.length);
    const parsed: unknown = json ? JSON.parse(json) : [];
    const args = Array.isArray(parsed) ? parsed : [parsed];
    if (type === CONNECT) {
      cancel(connectTimer);
      socket.connected = true;
      attempts = 0;
      fire('connect');
    } else if (type === EVENT && typeof args[0] === 'string') {
      if (id) {
        let answered = false;
        args.push((...answer: unknown[]) => {
          if (!answered) engine?.send(`${ACK}${id}${JSON.stringify(answer)}`);
          answered = true;
        });
      }
      fire(...(args as [string, ...unknown[]]));
    } else if (type === ACK) {
      const pending = acks.get(Number(id));
      if (!pending) return;
      acks.delete(Number(id));
      cancel(pending.timer);
      pending.ack(null, ...args);
    } else if (type === DISCONNECT) {
      active = false;
      engine?.close('io server disconnect');
    } else engine?.close(type === CONNECT_ERROR ? 'connect error' : 'parse error');
  };

  /** The engine closed: report it, answer the timed acks with an error, and come back unless told not to. */
  const lost = (closedEngine: Engine, reason: string): void => {
    if (closedEngine !== engine) return;
    engine = null;
    cancel(connectTimer);
    const wasConnected = socket.connected;
    socket.connected = false;
    const pending = [...acks.values()];
    acks.clear();
    for (const { ack, timer } of pending) {
      if (timer === undefined) continue;
      cancel(timer);
      ack(new Error('socket has been disconnected'));
    }
    if (wasConnected) fire('disconnect', reason);
    else fire('connect_error', new Error(reason));
    // A listener may have called connect() already (after the server's `41`): one engine at a time.
    if (!active || engine || reconnectTimer) return;
    const jitter = (Math.random() * 2 - 1) * 0.5;
    const delay = Math.min(settings.reconnectionDelay * 2 ** attempts * (1 + jitter), settings.reconnectionDelayMax);
    attempts++;
    reconnectTimer = later(() => {
      reconnectTimer = undefined;
      if (!active || engine) return;
      fire('reconnect_attempt', attempts);
      open();
    }, delay);
  };

  const socket = {
    connected: false,
    settings,
    on(event: string, listener: Listener) {
      listeners[event] = [...(listeners[event] || []), listener];
    },
    connect() {
      active = true;
      if (!engine && !reconnectTimer) open();
    },
    emit(event: string, data: unknown, ack?: Ack, timeoutMs?: number) {
      let id = '';
      if (ack && (socket.connected || timeoutMs !== undefined)) {
        const n = nextAck++;
        id = String(n);
        const timer =
          timeoutMs === undefined
            ? undefined
            : later(() => {
                if (acks.delete(n)) ack(new Error('operation has timed out'));
              }, timeoutMs);
        acks.set(n, { ack, timer });
      }
      if (socket.connected) engine?.send(`${EVENT}${id}${JSON.stringify([event, data])}`);
    },
    disconnect() {
      active = false;
      cancel(reconnectTimer);
      reconnectTimer = undefined;
      if (socket.connected) engine?.send(DISCONNECT);
      engine?.close('io client disconnect', true);
    },
    drop() {
      engine?.close('transport close');
    },
  };
  socket.connect();
  return socket;
}

import type { Socket } from 'socket.io';

/**
 * A room broadcast written to each websocket in one call, instead of through engine.io's per-socket packet queue.
 *
 * socket.io encodes a broadcast once: the adapter builds the WebSocket frame of the packet (`wsPreEncodedFrame`, a
 * header and a body) and hands it to every member's `client.writeToEngine`. From there engine.io, for each member,
 * makes a packet object and queues it, emits `packetCreate`, then `flush` and `drain` on the socket and on the server,
 * marks the transport unwritable until the write's callback (which emits `drain` and `ready` again), and writes the
 * header and the body as two buffers (a cork and a writev). To 1,000 members of a channel that is most of the
 * server's own work for a message.
 *
 * Where nothing is queued ahead of it, the frame can go to the websocket as it is: the same bytes, in the same order
 * on that socket (the transport is writable and engine.io's queue is empty, so nothing of engine.io's is waiting to
 * go before it), one buffer per broadcast shared by every member. Everything else takes engine.io's own path: a
 * socket on long-polling, one upgrading or with packets queued, per-message deflate, a volatile packet, a packet
 * sent to one socket (it has no pre-encoded frame), and any engine.io whose transport does not look as expected.
 * So does a socket whose earlier writes are still buffered (a client reading slower than it is sent to): engine.io
 * then marks the transport unwritable until they are out, as it always did, and drops volatile packets meanwhile.
 *
 * This reaches into engine.io's transport (`transport.socket._sender.sendFrame`, which engine.io's own
 * `WebSocket.send` calls for the same frame) and socket.io's `Client.writeToEngine`; `fastBroadcastWrites` counts
 * the frames it wrote so that a test notices when an upgrade of either makes every write take the slow path.
 */

const ONE_BUFFER = Symbol('lensmate.oneBufferFrame');

interface FrameSender {
  sendFrame(list: Buffer[], cb?: (err?: Error) => void): void;
}

interface EngineWebSocketTransport {
  name: string;
  writable: boolean;
  perMessageDeflate: unknown;
  socket?: { readyState: number; bufferedAmount: number; _sender?: FrameSender };
}

interface EngineSocket {
  readyState: string;
  upgrading: boolean;
  writeBuffer: unknown[];
  transport: EngineWebSocketTransport;
}

interface BroadcastOptions {
  volatile?: boolean;
  wsPreEncodedFrame?: Buffer[];
  [ONE_BUFFER]?: Buffer[];
}

interface EngineClient {
  conn: EngineSocket;
  writeToEngine(encodedPackets: unknown, opts: BroadcastOptions): void;
}

const WS_OPEN = 1;
let written = 0;

/** How many broadcast frames went straight to a websocket since the process started (read by tests). */
export function fastBroadcastWrites(): number {
  return written;
}

/** Writes a broadcast's frame to the client's websocket if nothing stands in the way; false to take engine.io's path. */
function sendDirect(client: EngineClient, opts: BroadcastOptions): boolean {
  const frame = opts.wsPreEncodedFrame;
  if (frame === undefined || opts.volatile) return false;
  const conn = client.conn;
  const transport = conn.transport;
  const ws = transport.socket;
  const sender = ws?._sender;
  if (
    conn.readyState !== 'open' ||
    conn.upgrading ||
    conn.writeBuffer.length !== 0 ||
    transport.name !== 'websocket' ||
    !transport.writable ||
    transport.perMessageDeflate ||
    ws?.readyState !== WS_OPEN ||
    ws.bufferedAmount !== 0 ||
    typeof sender?.sendFrame !== 'function'
  ) {
    return false;
  }
  // One buffer for every member of this broadcast: a single write per socket instead of a cork, two writes and a
  // writev. The options object is the broadcast's own, made once per emit.
  let whole = opts[ONE_BUFFER];
  if (whole === undefined) {
    whole = frame.length === 1 ? frame : [Buffer.concat(frame)];
    opts[ONE_BUFFER] = whole;
  }
  sender.sendFrame(whole);
  written += 1;
  return true;
}

/** Takes the place of socket.io's `Client.writeToEngine` (one function for every client: nothing kept per socket). */
function writeToEngine(this: EngineClient, encodedPackets: unknown, opts: BroadcastOptions): void {
  if (sendDirect(this, opts)) return;
  (Object.getPrototypeOf(this) as EngineClient).writeToEngine.call(this, encodedPackets, opts);
}

/** Gives a connected socket's client the direct broadcast write (a client can carry several namespaces' sockets). */
export function writeBroadcastsDirectly(socket: Socket): void {
  const client = socket.client as unknown as EngineClient;
  if (client.writeToEngine !== writeToEngine) client.writeToEngine = writeToEngine;
}

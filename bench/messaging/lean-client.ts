import WebSocket from 'ws';

/**
 * The bench's load generator: a socket.io v4 client over one raw websocket (engine.io protocol 4), with only what the
 * bench calls (`emit`, `emitWithAck`, `on`, `disconnect`). Every frame a server pushes is parsed as socket.io-client
 * parses it (one JSON.parse of the packet); what it leaves out is socket.io-client's and engine.io-client's layers
 * of emitters, buffers and timers around each packet.
 *
 * Why: with socket.io-client, the bench's one process receiving for 1,000 clients spent about 23 ms of CPU per
 * channel message against a server's 11-17, so the fan-out measured the bench's client, the same for both servers,
 * and not the servers. `BENCH_CLIENT=socket.io` still runs the bench on socket.io-client.
 */
export interface BenchSocket {
  emit(event: string, data: unknown): void;
  emitWithAck(event: string, data: unknown): Promise<Record<string, unknown>>;
  on(event: string, handler: (body: never) => void): void;
  disconnect(): void;
}

type Handler = (body: unknown) => void;

export class LeanSocket implements BenchSocket {
  private readonly ws: WebSocket;
  private readonly handlers = new Map<string, Handler[]>();
  private readonly acks = new Map<number, (body: Record<string, unknown>) => void>();
  private nextAck = 0;

  private constructor(ws: WebSocket) {
    this.ws = ws;
  }

  /** Opens the websocket and joins the default namespace; resolves once the server has answered the connect. */
  static connect(url: string): Promise<LeanSocket> {
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`, {
      perMessageDeflate: false,
    });
    const socket = new LeanSocket(ws);
    let connected = false;
    return new Promise((resolve, reject) => {
      // Before the connect, an error refuses it; after, the close that follows ends the socket (as the servers see).
      ws.on('error', (error) => {
        if (!connected) reject(error);
      });
      ws.on('message', (data: Buffer) => {
        const text = data.toString();
        switch (text.charCodeAt(0)) {
          case 48: // "0": engine.io open; join the namespace "/"
            ws.send('40');
            return;
          case 50: // "2": ping
            ws.send('3');
            return;
          case 52: // "4": a socket.io packet
            if (text.charCodeAt(1) === 48) {
              connected = true; // "40": connected to "/"
              resolve(socket);
            } else if (text.charCodeAt(1) === 52) reject(new Error(`connect refused: ${text.slice(2)}`));
            else socket.packet(text);
            return;
          default:
        }
      });
    });
  }

  /** `42[event, body]` (an event) or `43<id>[body]` (an ack). */
  private packet(text: string): void {
    if (text.charCodeAt(1) === 50) {
      const [event, body] = JSON.parse(text.slice(2)) as [string, unknown];
      const handlers = this.handlers.get(event);
      if (handlers) for (const handler of handlers) handler(body);
    } else if (text.charCodeAt(1) === 51) {
      const bracket = text.indexOf('[');
      const id = Number(text.slice(2, bracket));
      const [body] = JSON.parse(text.slice(bracket)) as [Record<string, unknown>];
      const resolve = this.acks.get(id);
      this.acks.delete(id);
      resolve?.(body);
    }
  }

  on(event: string, handler: (body: never) => void): void {
    const list = this.handlers.get(event) ?? [];
    list.push(handler as Handler);
    this.handlers.set(event, list);
  }

  emit(event: string, data: unknown): void {
    this.ws.send(`42${JSON.stringify([event, data])}`);
  }

  emitWithAck(event: string, data: unknown): Promise<Record<string, unknown>> {
    const id = this.nextAck++;
    return new Promise((resolve) => {
      this.acks.set(id, resolve);
      this.ws.send(`42${id}${JSON.stringify([event, data])}`);
    });
  }

  disconnect(): void {
    this.ws.close();
  }
}

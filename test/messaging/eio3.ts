import WebSocket from 'ws';

/**
 * A protocol-3 client the way the GoEasy 2.8.3 client speaks on the wire: engine.io 3 over a
 * websocket (`EIO=3&transport=websocket&b64=1`), text frames, socket.io packets `42[...]` with ack ids
 * answered by `43<id>[...]`, and pings sent by the client.
 */
export class Eio3Client {
  private readonly ws: WebSocket;
  private nextId = 0;
  private readonly pendingAcks = new Map<number, (body: any) => void>();
  readonly received: Record<string, any[]> = {};
  readonly ready: Promise<void>;
  private pingTimer?: NodeJS.Timeout;

  constructor(httpUrl: string) {
    const url = `${httpUrl.replace(/^http/, 'ws')}/socket.io/?EIO=3&transport=websocket&b64=1`;
    this.ws = new WebSocket(url);
    this.ready = new Promise((resolve, reject) => {
      this.ws.once('error', reject);
      this.ws.on('message', (data) => {
        const text = data.toString();
        if (text.startsWith('0')) {
          const { pingInterval } = JSON.parse(text.slice(1)) as { pingInterval: number };
          this.pingTimer = setInterval(() => this.ws.send('2'), pingInterval);
        } else if (text === '40') {
          resolve();
        } else if (text.startsWith('42')) {
          const [event, body] = JSON.parse(text.slice(2)) as [string, unknown];
          if (!this.received[event]) this.received[event] = [];
          this.received[event].push(body);
        } else if (text.startsWith('43')) {
          const match = /^43(\d+)(.*)$/.exec(text);
          if (!match) return;
          const [body] = JSON.parse(match[2]) as [unknown];
          this.pendingAcks.get(Number(match[1]))?.(body);
          this.pendingAcks.delete(Number(match[1]));
        }
      });
    });
  }

  request(event: string, payload: Record<string, unknown>, timeoutMs = 5000): Promise<any> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ack for ${event}`)), timeoutMs);
      this.pendingAcks.set(id, (body) => {
        clearTimeout(timer);
        resolve(body);
      });
      this.ws.send(`42${id}${JSON.stringify([event, payload])}`);
    });
  }

  emit(event: string, payload: Record<string, unknown>): void {
    this.ws.send(`42${JSON.stringify([event, payload])}`);
  }

  async waitFor(event: string, count = 1, timeoutMs = 5000): Promise<any[]> {
    const started = Date.now();
    while ((this.received[event]?.length ?? 0) < count) {
      if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${event}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.received[event];
  }

  close(): void {
    clearInterval(this.pingTimer);
    this.ws.close();
  }
}

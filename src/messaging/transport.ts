import Taro from '@tarojs/taro';
import { Fetch, Transport } from 'engine.io-client';
import { type Packet, encodePacket } from 'engine.io-parser';

/**
 * engine.io transports over Taro's network APIs, so socket.io-client runs unchanged in the
 * mini-program (which has no WebSocket/XMLHttpRequest globals) and on H5.
 */

type Frame = string | ArrayBuffer;

/** Mini-program sockets only take strings and ArrayBuffers, never typed-array views. */
export function toFrame(data: unknown): Frame {
  if (typeof data === 'string' || data instanceof ArrayBuffer) return data;
  if (ArrayBuffer.isView(data)) {
    const view = data as ArrayBufferView;
    return view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength) as ArrayBuffer;
  }
  return String(data);
}

export class TaroWebSocket extends Transport {
  private task: Taro.SocketTask | null = null;

  get name(): string {
    return 'websocket';
  }

  protected doOpen(): void {
    const query: Record<string, unknown> = { ...this.query };
    if (!this.supportsBinary) query.b64 = 1;
    const url = this.createUri(this.opts.secure ? 'wss' : 'ws', query);
    const opening = Taro.connectSocket({ url, fail: (error: unknown) => this.onError('websocket error', error) });
    Promise.resolve(opening).then(
      (task) => {
        // A refused socket (H5 and WeChat allow five at once) answers through `fail` above, and the promise
        // resolves with that error instead of a task.
        if (typeof task?.onOpen !== 'function') return;
        if (this.readyState === 'closed') {
          task.close({});
          return;
        }
        this.task = task;
        task.onOpen(() => this.onOpen());
        task.onMessage((event: { data: string | ArrayBuffer }) => this.onData(event.data));
        task.onClose(() => this.onClose({ description: 'websocket connection closed' }));
        task.onError((error: unknown) => this.onError('websocket error', error));
      },
      () => undefined,
    );
  }

  protected write(packets: Packet[]): void {
    this.writable = false;
    packets.forEach((packet, index) => {
      encodePacket(packet, this.supportsBinary, (encoded) => {
        this.task?.send({ data: toFrame(encoded) as string | ArrayBuffer, fail: () => undefined });
        if (index === packets.length - 1) {
          setTimeout(() => {
            this.writable = true;
            this.emitReserved('drain');
          }, 0);
        }
      });
    });
  }

  protected doClose(): void {
    const task = this.task;
    this.task = null;
    task?.close({});
  }
}

interface PollingInternals {
  uri(): string;
}

/** Long-polling over Taro.request: the fetch transport with its one network call replaced. */
export class TaroPolling extends (Fetch as unknown as new (opts: unknown) => object) {
  get name(): string {
    return 'polling';
  }

  _fetch(data?: string): Promise<{ ok: boolean; status: number; text(): Promise<string> }> {
    const url = (this as unknown as PollingInternals).uri();
    return new Promise((resolve, reject) => {
      Taro.request({
        url,
        method: data === undefined ? 'GET' : 'POST',
        data,
        header: { 'content-type': 'text/plain;charset=UTF-8' },
        dataType: 'text',
        responseType: 'text',
        success: (response) => {
          const body = typeof response.data === 'string' ? response.data : JSON.stringify(response.data);
          const ok = response.statusCode >= 200 && response.statusCode < 300;
          resolve({ ok, status: response.statusCode, text: () => Promise.resolve(body) });
        },
        fail: (error) => reject(error),
      });
    });
  }
}

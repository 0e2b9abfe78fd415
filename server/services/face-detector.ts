import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DetectedFace } from '../../types/api';
import { ImageUnreadable } from './faces';

/** A detection sent to the worker; the image's bytes are transferred, not copied. */
export interface FaceJob {
  id: number;
  image: ArrayBuffer;
}

export type FaceJobAnswer = { id: number; faces: DetectedFace[] } | { id: number; error: string; unreadable: boolean };

/** The detector could not answer: its worker stopped (crashed, ran out of memory) or the detection threw. */
export class FaceDetectorFailed extends Error {}

export interface FaceDetector {
  /** Faces in a JPEG or PNG, best first; rejects with ImageUnreadable or FaceDetectorFailed. */
  detect(image: Buffer): Promise<DetectedFace[]>;
  /** Ends the worker; jobs still queued are refused. */
  close(): Promise<void>;
}

export interface FaceDetectorOptions {
  /** Worker code to run instead of the detector's (tests: a worker that crashes). */
  source?: string;
  /** Tests: a shared Int32Array; while hold[0] is 1 each job waits in the worker (see face-worker.ts). */
  hold?: Int32Array;
}

interface Pending {
  id: number;
  image: ArrayBuffer;
  resolve(faces: DetectedFace[]): void;
  reject(error: Error): void;
}

/**
 * The worker runs TypeScript: jest (swc) and tsx only transform the main thread, so the worker registers tsx's
 * require hook itself unless one is already there (the server started with tsx inherits it).
 */
function workerSource(): string {
  const entry = join(__dirname, 'face-worker.ts');
  return [
    `if (!require.extensions['.ts']) require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register();`,
    `require(${JSON.stringify(entry)});`,
  ].join('\n');
}

/**
 * Face detection off the event loop: one long-lived worker thread (started on the first detection, models loaded
 * once), jobs queued and sent one at a time. When the worker dies, the job in it is refused with
 * FaceDetectorFailed and the queue goes on in a new worker.
 */
export function createFaceDetector(options: FaceDetectorOptions = {}): FaceDetector {
  const queue: Pending[] = [];
  let worker: Worker | null = null;
  let current: Pending | null = null;
  let nextId = 1;
  let closed = false;

  /** The worker died: its job is refused and the queue goes on in a new worker. */
  function lost(thread: Worker, reason: string): void {
    if (worker !== thread) return;
    worker = null;
    const job = current;
    current = null;
    job?.reject(new FaceDetectorFailed(reason));
    next();
  }

  function start(): Worker {
    const thread = new Worker(options.source ?? workerSource(), {
      eval: true,
      workerData: { hold: options.hold },
    });
    thread.on('message', (answer: FaceJobAnswer) => {
      const job = current;
      if (!job || job.id !== answer.id) return;
      current = null;
      if ('faces' in answer) job.resolve(answer.faces);
      else job.reject(answer.unreadable ? new ImageUnreadable(answer.error) : new FaceDetectorFailed(answer.error));
      next();
    });
    thread.on('error', (error) => lost(thread, error.message));
    thread.on('exit', (code) => lost(thread, `the worker exited with code ${code}`));
    return thread;
  }

  function next(): void {
    if (current || closed) return;
    const job = queue.shift();
    if (!job) {
      worker?.unref();
      return;
    }
    worker ??= start();
    worker.ref();
    current = job;
    worker.postMessage({ id: job.id, image: job.image } satisfies FaceJob, [job.image]);
  }

  return {
    detect(image) {
      if (closed) return Promise.reject(new FaceDetectorFailed('the detector is closed'));
      return new Promise((resolve, reject) => {
        // A copy the worker can own: the request's buffer may be a slice of a larger pooled one.
        const bytes = new ArrayBuffer(image.byteLength);
        new Uint8Array(bytes).set(image);
        queue.push({ id: nextId++, image: bytes, resolve, reject });
        next();
      });
    },
    async close() {
      closed = true;
      const thread = worker;
      worker = null;
      for (const job of [...(current ? [current] : []), ...queue.splice(0)]) {
        job.reject(new FaceDetectorFailed('the server is closing'));
      }
      current = null;
      await thread?.terminate();
    },
  };
}

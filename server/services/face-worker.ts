import { parentPort, workerData } from 'node:worker_threads';
import type { FaceJob, FaceJobAnswer } from './face-detector';
import { ImageUnreadable, detectFaces } from './faces';

/**
 * The face detector's thread: one job at a time (the main thread sends the next one after each answer), the
 * models loaded on the first job and kept. With `workerData.hold` (tests), each job waits while hold[0] is 1,
 * after setting hold[1] to 1, so a test can act while a job is inside this thread.
 */
const hold = (workerData as { hold?: Int32Array } | undefined)?.hold;

async function run(job: FaceJob): Promise<FaceJobAnswer> {
  if (hold) {
    Atomics.store(hold, 1, 1);
    Atomics.notify(hold, 1);
    Atomics.wait(hold, 0, 1);
  }
  try {
    return { id: job.id, faces: await detectFaces(Buffer.from(job.image)) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { id: job.id, error: message, unreadable: error instanceof ImageUnreadable };
  }
}

parentPort?.on('message', (job: FaceJob) => {
  run(job).then((answer) => parentPort?.postMessage(answer));
});

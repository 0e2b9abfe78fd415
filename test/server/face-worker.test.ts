import { readFileSync } from 'node:fs';
import { createFaceDetector } from '../../server/services/face-detector';
import { ADA, type TestServer, startServer } from './helpers';

/** Atomics.waitAsync (Node 16+), which TypeScript's lib for this project does not declare. */
const waitAsync = (
  Atomics as unknown as { waitAsync(array: Int32Array, index: number, value: number): { value: unknown } }
).waitAsync;

const photo = (name: string) => readFileSync(require.resolve(`@vladmandic/face-api/demo/${name}`)).toString('base64');

describe('face_detect runs in a worker thread', () => {
  let s: TestServer;
  let ada: string;
  // hold[0] = 1 parks each job in the worker; the worker sets hold[1] = 1 when a job reaches it.
  const hold = new Int32Array(new SharedArrayBuffer(8));
  beforeAll(async () => {
    s = await startServer('sqlite', {}, { faces: createFaceDetector({ hold }) });
    ada = await s.login(ADA.email, ADA.password);
  });
  afterAll(async () => {
    await s.close();
  });

  test('while a detection is in the worker, other endpoints answer', async () => {
    const events: string[] = [];
    Atomics.store(hold, 0, 1);
    const detection = s
      .call('POST', '/api/tryon/face_detect', { image_base64: photo('sample2.jpg') }, ada)
      .then((answer) => {
        events.push('detection answered');
        return answer;
      });
    await waitAsync(hold, 1, 0).value;
    events.push('detection in the worker');
    const [filters, me] = await Promise.all([
      s.call('GET', '/api/config/get_filters'),
      s.call('GET', '/api/user/get_my_prescription', undefined, ada),
    ]);
    expect([filters.body.status, me.body.status]).toEqual([200, 200]);
    events.push('other endpoints answered');
    Atomics.store(hold, 0, 0);
    Atomics.notify(hold, 0);
    const answer = await detection;
    expect(answer.body.status).toBe(200);
    expect(answer.body.data.faces.length).toBeGreaterThan(0);
    expect(events).toEqual(['detection in the worker', 'other endpoints answered', 'detection answered']);
  });

  test('concurrent detections are queued and each gets its own answer', async () => {
    const names = ['sample2.jpg', 'sample1.jpg', 'sample2.jpg'];
    const alone = [];
    for (const name of names) {
      alone.push((await s.call('POST', '/api/tryon/face_detect', { image_base64: photo(name) }, ada)).body);
    }
    const together = await Promise.all(
      names.map((name) => s.call('POST', '/api/tryon/face_detect', { image_base64: photo(name) }, ada)),
    );
    expect(together.map((answer) => answer.body)).toEqual(alone);
    expect(alone[0]).toEqual(alone[2]);
    expect(alone[0]).not.toEqual(alone[1]);
  });
});

describe('a failing face detector worker', () => {
  test.each([
    ['throws', "throw new Error('out of wasm memory')", 'out of wasm memory'],
    ['exits', 'process.exit(7)', 'the worker exited with code 7'],
  ])('that %s is answered 503 with the reason, and the server goes on', async (_name, crash, reason) => {
    const source = `require('node:worker_threads').parentPort.on('message', () => { ${crash}; });`;
    const s = await startServer('sqlite', {}, { faces: createFaceDetector({ source }) });
    try {
      const ada = await s.login(ADA.email, ADA.password);
      const image_base64 = photo('sample2.jpg');
      const answers = await Promise.all(
        [1, 2].map(() => s.call('POST', '/api/tryon/face_detect', { image_base64 }, ada)),
      );
      for (const answer of answers) {
        expect([answer.http, answer.body]).toEqual([
          503,
          { status: 503, msg: `Face detection is unavailable (${reason}), please try again`, data: null },
        ]);
      }
      expect((await s.call('GET', '/api/config/get_filters')).body.status).toBe(200);
    } finally {
      await s.close();
    }
  });

  test('a closed detector refuses new jobs', async () => {
    const faces = createFaceDetector();
    await faces.close();
    await expect(faces.detect(Buffer.from('x'))).rejects.toThrow('the detector is closed');
  });
});

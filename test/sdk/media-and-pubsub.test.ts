import { type Server, createServer, get } from 'node:http';
import { type AnyMessage, type GoEasy, IM_EVENT, type ImagePayload } from '../../src/messaging';
import { type TestServer, connectUser, eventually, startServer } from './support/harness';
import { listen, storageFront } from './support/storage-front';

const picture = Buffer.from(`89504e470d0a1a0a${'00'.repeat(600)}`, 'hex');
let files: Server;
let filesUrl: string;
let storage: Server;
let server: TestServer;
const clients: GoEasy[] = [];

beforeAll(async () => {
  storage = storageFront(() => server.url);
  const storageUrl = await listen(storage);
  server = await startServer({ MESSAGING_PUBLIC_URL: storageUrl });
  /** Stands in for the device's local files: H5 reads a file path with a GET before uploading it. */
  files = createServer((request, response) => {
    response.setHeader('Access-Control-Allow-Origin', request.headers.origin ?? '*');
    response.setHeader('Access-Control-Allow-Credentials', 'true');
    if (request.url === '/frame.png') {
      response.setHeader('Content-Type', 'image/png');
      response.end(picture);
      return;
    }
    response.statusCode = 404;
    response.end();
  });
  filesUrl = await listen(files);
});

// H5, like WeChat, allows five sockets at once: each test ends its clients.
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.disconnect().catch(() => undefined)));
});

afterAll(async () => {
  await new Promise((resolve) => files.close(resolve));
  await new Promise((resolve) => storage.close(resolve));
  await server.stop();
});

async function user(id: string, data?: Record<string, unknown>): Promise<GoEasy> {
  const client = await connectUser(server, id, data);
  clients.push(client);
  return client;
}

describe('media messages', () => {
  it('uploads an image with progress and delivers its payload with a thumbnail at most 200 high', async () => {
    const ann = await user('m-ann');
    const bob = await user('m-bob');
    const received: AnyMessage[] = [];
    bob.im.on(IM_EVENT.PRIVATE_MESSAGE_RECEIVED, (message: AnyMessage) => received.push(message));
    const progress: number[] = [];
    const file = {
      path: `${filesUrl}/frame.png`,
      name: 'frame.png',
      size: picture.length,
      type: 'image/png',
      width: 400,
      height: 300,
    };
    const message = ann.im.createImageMessage({
      file,
      to: { type: 'private', id: 'm-bob', data: {} },
      onProgress: (value) => progress.push(value),
    });
    await ann.im.sendMessage({ message });
    const payload = message.payload as ImagePayload;
    expect(payload).toMatchObject({
      name: 'frame.png',
      size: picture.length,
      contentType: 'image/png',
      width: 400,
      height: 300,
    });
    // A signed, expiring path to a key under the sender's own prefix.
    expect(payload.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oss\/~s\/\d+\/[\w-]{32}\/im\/u-m-ann\/\d{8}\/\w+\.png$/);
    expect(payload.thumbnail).toBe(`${payload.url}?x-oss-process=image/resize,h_200`);
    expect(progress.length).toBeGreaterThan(0);
    const stored = await fetchBinary(payload.url);
    expect(stored.equals(picture)).toBe(true);
    // The receiver gets the same file under a grant of its own, which reads it too.
    const unsigned = (url: string) => url.replace(/\/oss\/~s\/\d+\/[\w-]+\//, '/oss/');
    await eventually(() => expect(received[0]?.payload).toBeDefined());
    const delivered = received[0].payload as ImagePayload;
    expect({ ...delivered, url: unsigned(delivered.url), thumbnail: unsigned(delivered.thumbnail) }).toEqual({
      ...payload,
      url: unsigned(payload.url),
      thumbnail: unsigned(payload.thumbnail),
    });
    expect((await fetchBinary(delivered.url)).equals(picture)).toBe(true);
  });

  it('fails with code 500 when the upload fails, and the message ends in fail', async () => {
    const ann = await user('m-cat');
    const message = ann.im.createFileMessage({
      file: { path: `${filesUrl}/missing.pdf`, name: 'missing.pdf', size: 10, type: 'application/pdf' },
      to: { type: 'private', id: 'm-bob', data: {} },
    });
    const error = await ann.im.sendMessage({ message }).catch((failure) => failure);
    expect(error.code).toBe(500);
    expect(message.status).toBe('fail');
  });
});

describe('publish and subscribe', () => {
  it('subscribes, publishes, reads history, tracks presence and unsubscribes', async () => {
    const ann = await user('p-ann');
    const bob = await user('p-bob');
    const got: string[] = [];
    await bob.pubsub.subscribe({
      channel: 'deals',
      presence: { enable: true },
      onMessage: (message) => got.push(message.content),
    });
    const presence: unknown[] = [];
    await ann.pubsub.subscribePresence({ channel: 'deals', onPresence: (events) => presence.push(events) });
    await ann.pubsub.publish({ channel: 'deals', message: '20% off', notification: { title: 'Deal', body: 'Frames' } });
    await eventually(() => expect(got).toEqual(['20% off']));
    const history = await ann.pubsub.history({ channel: 'deals', limit: 5 });
    expect(history.content.messages.map((message) => message.content)).toEqual(['20% off']);
    const here = await ann.pubsub.hereNow({ channel: 'deals' });
    expect(here.content.members.map((member) => member.id)).toContain('p-bob');
    await expect(bob.pubsub.unsubscribe({ channel: 'other' })).rejects.toEqual({
      code: 400,
      content: 'channel[other] is not subscribed',
    });
    await bob.pubsub.unsubscribe({ channel: 'deals' });
    await eventually(() => expect(presence.length).toBeGreaterThan(0));
    await ann.pubsub.publish({ channel: 'deals', message: 'second' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(got).toEqual(['20% off']);
  });

  it('stops channel presence events after unsubscribePresence', async () => {
    const watcher = await user('p-watcher');
    const control = await user('p-control');
    const seen: unknown[] = [];
    const controlSeen: unknown[] = [];
    await watcher.pubsub.subscribePresence({ channel: 'lobby', onPresence: (events) => seen.push(events) });
    await control.pubsub.subscribePresence({
      channel: 'lobby',
      membersLimit: 1,
      onPresence: (events) => controlSeen.push(events),
    });
    const first = await user('p-first', { name: 'First' });
    await first.pubsub.subscribe({ channel: 'lobby', presence: { enable: true }, onMessage: () => undefined });
    await eventually(() => expect(seen).toHaveLength(1));
    // GoEasy 2.8.3's payload: the change, the amount and the members after it (at most membersLimit, default 10).
    expect(seen[0]).toEqual({
      channel: 'lobby',
      action: 'join',
      member: { id: 'p-first', data: { name: 'First' } },
      time: expect.any(Number),
      amount: 1,
      members: [{ id: 'p-first', data: { name: 'First' } }],
    });
    await watcher.pubsub.unsubscribePresence({ channel: 'lobby' });
    const second = await user('p-second');
    await second.pubsub.subscribe({ channel: 'lobby', presence: { enable: true }, onMessage: () => undefined });
    await eventually(() => expect(controlSeen).toHaveLength(2));
    expect(controlSeen[1]).toMatchObject({ action: 'join', amount: 2, members: [{ id: 'p-second' }] });
    expect(seen).toHaveLength(1);
  });
});

function fetchBinary(url: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    get(url, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve(Buffer.concat(chunks)));
    }).on('error', reject);
  });
}

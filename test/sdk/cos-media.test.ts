import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AnyMessage, type AudioPayload, type GoEasy, IM_EVENT, type VideoPayload } from '../../src/messaging';
import { type TestServer, connectUser, eventually, startServer } from './support/harness';

/**
 * Audio, video and custom messages with the storage vendor TX: the messaging server signs Tencent COS POST
 * policies, and a local stand-in for the COS bucket (COS itself is out of reach here) receives the SDK's form.
 */
const clip = Buffer.from(`000000186674797069736f6d${'00'.repeat(900)}`, 'hex');
const note = Buffer.from(`494433${'00'.repeat(400)}`, 'hex');
let bucket: Server;
let bucketUrl: string;
let files: Server;
let filesUrl: string;
let server: TestServer;
const uploads: Array<{ fields: Record<string, string>; bytes: number }> = [];
/** When set, the bucket refuses uploads as COS does a policy it does not accept. */
let refuseUploads = false;
const clients: GoEasy[] = [];

function listen(http: Server): Promise<string> {
  return new Promise((resolve) =>
    http.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(http.address() as AddressInfo).port}`)),
  );
}

/** The text fields of a multipart form, and the size of the whole body. */
function formFields(body: Buffer): Record<string, string> {
  const fields: Record<string, string> = {};
  const text = body.toString('latin1');
  for (const match of text.matchAll(/name="([^"]+)"\r\n\r\n([^\r]*)\r\n/g)) fields[match[1]] = match[2];
  return fields;
}

beforeAll(async () => {
  bucket = createServer((request, response) => {
    response.setHeader('Access-Control-Allow-Origin', request.headers.origin ?? '*');
    response.setHeader('Access-Control-Allow-Credentials', 'true');
    response.setHeader('Access-Control-Allow-Headers', '*');
    if (request.method === 'OPTIONS') {
      response.statusCode = 204;
      response.end();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const fields = formFields(body);
      uploads.push({ fields, bytes: body.length });
      response.statusCode = refuseUploads ? 403 : Number(fields.success_action_status) || 204;
      response.end();
    });
  });
  bucketUrl = await listen(bucket);
  files = createServer((request, response) => {
    response.setHeader('Access-Control-Allow-Origin', request.headers.origin ?? '*');
    response.setHeader('Access-Control-Allow-Credentials', 'true');
    const body = request.url === '/clip.mp4' ? clip : request.url === '/note.mp3' ? note : null;
    if (!body) {
      response.statusCode = 404;
      response.end();
      return;
    }
    response.end(body);
  });
  filesUrl = await listen(files);
  server = await startServer({
    MESSAGING_UPLOAD_VENDOR: 'TX',
    MESSAGING_COS_HOST: bucketUrl,
    MESSAGING_COS_SECRET_ID: 'AKIDexample',
    MESSAGING_COS_SECRET_KEY: 'cos-secret-key',
    MESSAGING_COS_SECURITY_TOKEN: 'session-token',
  });
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.disconnect().catch(() => undefined)));
  await new Promise((resolve) => files.close(resolve));
  await new Promise((resolve) => bucket.close(resolve));
  await server.stop();
});

async function user(id: string): Promise<GoEasy> {
  const client = await connectUser(server, id);
  clients.push(client);
  return client;
}

it('uploads video and audio to COS with its signed form and delivers their payloads, and custom messages', async () => {
  const sender = await user('cos-ann');
  const receiver = await user('cos-bob');
  const received: AnyMessage[] = [];
  receiver.im.on(IM_EVENT.PRIVATE_MESSAGE_RECEIVED, (message: AnyMessage) => received.push(message));
  const to = { type: 'private' as const, id: 'cos-bob', data: { name: 'Bob' } };

  const progress: number[] = [];
  const video = sender.im.createVideoMessage({
    file: {
      path: `${filesUrl}/clip.mp4`,
      name: 'clip.mp4',
      size: clip.length,
      type: 'video/mp4',
      width: 640,
      height: 360,
      duration: 12,
    },
    to,
    onProgress: (value) => progress.push(value),
  });
  await sender.im.sendMessage({ message: video });
  const [form] = uploads;
  expect(form.fields).toMatchObject({
    'q-sign-algorithm': 'sha1',
    'q-ak': 'AKIDexample',
    'x-cos-security-token': 'session-token',
    success_action_status: '200',
  });
  expect(form.fields.key).toMatch(/\.mp4$/);
  expect(form.fields['q-signature']).toMatch(/^[0-9a-f]{40}$/);
  expect(form.bytes).toBeGreaterThan(clip.length);
  expect(progress.length).toBeGreaterThan(0);
  const url = `${bucketUrl}/${form.fields.key}`;
  expect(video.payload as VideoPayload).toEqual({
    video: {
      url,
      name: 'clip.mp4',
      size: clip.length,
      contentType: 'video/mp4',
      width: 640,
      height: 360,
      duration: 12,
    },
    thumbnail: {
      name: 'clip.mp4.jpg',
      url: `${url}?ci-process=snapshot&time=0&format=jpg&height=200`,
      width: 356,
      height: 200,
      contentType: 'image/jpg',
    },
  });

  const audio = sender.im.createAudioMessage({
    file: { path: `${filesUrl}/note.mp3`, name: 'note.mp3', size: note.length, type: 'audio/mpeg', duration: 3 },
    to,
  });
  await sender.im.sendMessage({ message: audio });
  expect(uploads).toHaveLength(2);
  expect(audio.payload as AudioPayload).toEqual({
    url: `${bucketUrl}/${uploads[1].fields.key}`,
    name: 'note.mp3',
    size: note.length,
    contentType: 'audio/mpeg',
    duration: 3,
  });

  const order = sender.im.createCustomMessage({ type: 'order', payload: { orderId: 42, total: '99.00' }, to });
  await sender.im.sendMessage({ message: order });

  await eventually(() => expect(received).toHaveLength(3));
  expect(received.map((message) => [message.type, message.payload])).toEqual([
    ['video', video.payload],
    ['audio', audio.payload],
    ['order', { orderId: 42, total: '99.00' }],
  ]);

  refuseUploads = true;
  const refused = sender.im.createFileMessage({
    file: { path: `${filesUrl}/note.mp3`, name: 'refused.mp3', size: note.length, type: 'audio/mpeg' },
    to,
  });
  await expect(sender.im.sendMessage({ message: refused })).rejects.toEqual({
    code: 500,
    content: 'upload failed with status 403',
  });
  expect(refused.status).toBe('fail');
});

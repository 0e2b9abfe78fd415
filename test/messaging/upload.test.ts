import { createHash, createHmac } from 'node:crypto';
import type { AliOssConfig } from '../../server/messaging/config';
import { signAliPolicy } from '../../server/messaging/upload';
import { type Client, type TestServer, connected, removeDir, sleep, startServer } from './helpers';

interface AliToken {
  vendor: string;
  host: string;
  dir: string;
  accessKeyId: string;
  policy: string;
  signature: string;
  newFilename: string;
}

function form(token: AliToken, body: string, overrides: Record<string, string> = {}) {
  const data = new FormData();
  const fields: Record<string, string> = {
    key: `${token.dir}/${token.newFilename}`,
    OSSAccessKeyId: token.accessKeyId,
    policy: token.policy,
    signature: token.signature,
    success_action_status: '200',
    ...overrides,
  };
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  data.append('file', new Blob([body], { type: 'text/plain' }), 'note.txt');
  return data;
}

describe('uploads', () => {
  let server: TestServer;
  let client: Client;

  beforeAll(async () => {
    server = await startServer({ MESSAGING_UPLOAD_MAX_BYTES: '64' });
    client = (await connected(server.url, 'uploader')).client;
  });
  afterAll(async () => {
    client.close();
    await server.close();
    removeDir(server.dir);
  });

  it('signs an Ali OSS policy for our own endpoint, which stores the file and serves it back', async () => {
    const answer = await client.request('uploadToken', { filename: 'note.txt' });
    expect(answer.code).toBe(200);
    const token = answer.content as AliToken;
    // The host carries the uploader's read grant for the one key the policy allows.
    expect(token).toMatchObject({ vendor: 'ALI', accessKeyId: 'lensmate-local' });
    expect(token.host).toMatch(new RegExp(`^${server.url}/oss/~s/\\d+/[\\w-]{32}$`));
    expect(token.dir).toMatch(/^im\/u-uploader\/\d{8}$/);
    expect(token.newFilename).toMatch(/\.txt$/);
    const response = await fetch(token.host, { method: 'POST', body: form(token, 'hello oss') });
    expect(response.status).toBe(200);
    const file = await fetch(`${token.host}/${token.dir}/${token.newFilename}`);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe('hello oss');
    // Plain text is no media type the server recognizes: a download, never rendered.
    expect(file.headers.get('content-type')).toBe('application/octet-stream');
    expect(file.headers.get('content-disposition')).toBe('attachment');
  });

  it('refuses a wrong signature, another key than the policy names, an expired policy and an oversized file', async () => {
    const token = (await client.request('uploadToken', { filename: 'a.txt' })).content as AliToken;
    const forged = await fetch(token.host, {
      method: 'POST',
      body: form(token, 'x', { signature: 'AAAA' + token.signature.slice(4) }),
    });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('signature');
    const outside = await fetch(token.host, {
      method: 'POST',
      body: form(token, 'x', { key: `elsewhere/${token.newFilename}` }),
    });
    expect(outside.status).toBe(403);
    const storage = server.config.upload.storage as AliOssConfig;
    const expired = signAliPolicy(storage, () => token.host, 'u-uploader', 'txt', -1000, 64);
    const late = await fetch(token.host, { method: 'POST', body: form(expired, 'x') });
    expect(late.status).toBe(403);
    expect(await late.text()).toContain('Policy expired');
    const big = await fetch(token.host, { method: 'POST', body: form(token, 'y'.repeat(65)) });
    expect(big.status).toBe(400);
    const missing = await fetch(`${token.host}/${token.dir}/${token.newFilename}`);
    expect(missing.status).toBe(404);
  });

  it('refuses uploadToken without a filename', async () => {
    expect(await client.request('uploadToken', {})).toMatchObject({ code: 400, content: 'filename is required.' });
  });
});

describe('files of a conversation after the first signed URL expired', () => {
  let server: TestServer;

  beforeAll(async () => {
    // Grants of one second (they live one to two seconds), so the test sees one expire.
    server = await startServer({ MESSAGING_FILE_URL_TTL_MS: '1000' });
  });
  afterAll(async () => {
    await server.close();
    removeDir(server.dir);
  });

  it('are still shown to the members by history, with a fresh grant', async () => {
    const { client: sender } = await connected(server.url, 'exp-ann');
    const { client: member } = await connected(server.url, 'exp-bob');
    try {
      const token = (await sender.request('uploadToken', { filename: 'lens.png' })).content as AliToken;
      const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex');
      const data = new FormData();
      for (const [name, value] of Object.entries({
        key: `${token.dir}/${token.newFilename}`,
        OSSAccessKeyId: token.accessKeyId,
        policy: token.policy,
        signature: token.signature,
        success_action_status: '200',
      })) {
        data.append(name, value);
      }
      data.append('file', new Blob([new Uint8Array(png)]), 'lens.png');
      expect((await fetch(token.host, { method: 'POST', body: data })).status).toBe(200);
      const url = `${token.host}/${token.dir}/${token.newFilename}`;
      const payload = JSON.stringify({ url, name: 'lens.png', size: png.length, contentType: 'image/png' });
      await sender.request('publishIM', {
        mt: 'image',
        to: 'exp-bob',
        d: '{}',
        p: payload,
        t: 'private',
        guid: 'exp-1',
      });
      const [pushed] = await member.waitFor('imMessage');
      const first = JSON.parse(pushed.p).url as string;
      expect((await fetch(first)).status).toBe(200);
      for (const started = Date.now(); (await fetch(first)).status !== 403; ) {
        if (Date.now() - started > 5000) throw new Error('the first URL never expired');
        await sleep(100);
      }
      const history = await member.request('IM_HISTORY', { scene: 'private', id: 'exp-ann' });
      const again = JSON.parse(history.content.messages[0].p).url as string;
      expect(again).not.toBe(first);
      const file = await fetch(again);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true);
    } finally {
      sender.close();
      member.close();
    }
  });
});

describe('uploads to Tencent COS', () => {
  let server: TestServer;
  let client: Client;

  beforeAll(async () => {
    server = await startServer({
      MESSAGING_UPLOAD_VENDOR: 'TX',
      MESSAGING_COS_HOST: 'https://bucket-1250000000.cos.ap-guangzhou.myqcloud.com',
      MESSAGING_COS_SECRET_ID: 'AKIDexample',
      MESSAGING_COS_SECRET_KEY: 'cos-secret-key',
    });
    client = (await connected(server.url, 'cos-user')).client;
  });
  afterAll(async () => {
    client.close();
    await server.close();
    removeDir(server.dir);
  });

  it('signs a COS POST policy the way COS verifies it', async () => {
    const { content } = await client.request('uploadToken', { filename: 'photo.png' });
    expect(content).toMatchObject({ vendor: 'TX', qSignAlgorithm: 'sha1', qAk: 'AKIDexample' });
    expect(content.key).toMatch(/\.png$/);
    const policyText = Buffer.from(content.policy, 'base64').toString('utf8');
    const conditions = JSON.parse(policyText).conditions as Record<string, string>[];
    expect(conditions).toContainEqual({ 'q-sign-time': content.qKeyTime });
    expect(conditions).toContainEqual({ key: content.key });
    const signKey = createHmac('sha1', 'cos-secret-key').update(content.qKeyTime).digest('hex');
    const expected = createHmac('sha1', signKey)
      .update(createHash('sha1').update(policyText).digest('hex'))
      .digest('hex');
    expect(content.qSignature).toBe(expected);
  });
});

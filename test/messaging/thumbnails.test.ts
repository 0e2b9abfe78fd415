import sharp from 'sharp';
import { parseImageProcess } from '../../server/messaging/image-process';
import { type Client, type TestServer, connected, removeDir, startServer } from './helpers';

/**
 * Issue 22 point 4: the built-in object store (`/oss`) makes real thumbnails for the query strings Ali OSS
 * (`x-oss-process=image/resize,...`) and Tencent COS (`imageMogr2/thumbnail/...`) understand, so the thumbnail URL a
 * message carries is a small picture here too, not the full file. Pixel sizes are read back from what is served.
 */
interface AliToken {
  host: string;
  dir: string;
  accessKeyId: string;
  policy: string;
  signature: string;
  newFilename: string;
}

async function picture(width: number, height: number, format: 'png' | 'jpeg'): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .toFormat(format)
    .toBuffer();
}

describe('thumbnails on the built-in store', () => {
  let server: TestServer;
  let client: Client;
  let photo = '';
  let poster = '';
  let note = '';

  async function upload(name: string, body: Buffer, type: string): Promise<string> {
    const answer = await client.request('uploadToken', { filename: name });
    const token = answer.content as AliToken;
    const form = new FormData();
    const key = `${token.dir}/${token.newFilename}`;
    const fields = { key, OSSAccessKeyId: token.accessKeyId, policy: token.policy, signature: token.signature };
    for (const [field, value] of Object.entries(fields)) form.append(field, value);
    form.append('success_action_status', '200');
    form.append('file', new Blob([new Uint8Array(body)], { type }), name);
    const response = await fetch(token.host, { method: 'POST', body: form });
    expect([name, response.status, response.status === 200 ? '' : await response.text()]).toEqual([name, 200, '']);
    return `${token.host}/${key}`;
  }

  async function served(
    url: string,
  ): Promise<{ status: number; type: string | null; width?: number; height?: number }> {
    const response = await fetch(url);
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) return { status: response.status, type: response.headers.get('content-type') };
    const meta = await sharp(body).metadata();
    return { status: 200, type: response.headers.get('content-type'), width: meta.width, height: meta.height };
  }

  beforeAll(async () => {
    server = await startServer();
    client = (await connected(server.url, 'thumbs')).client;
    photo = await upload('photo.jpg', await picture(1200, 800, 'jpeg'), 'image/jpeg');
    poster = await upload('clip-poster.png', await picture(640, 360, 'png'), 'image/png');
    note = await upload('note.txt', Buffer.from('not an image'), 'text/plain');
  });
  afterAll(async () => {
    client.close();
    await server.close();
    removeDir(server.dir);
  });

  it('resizes as OSS does: the SDK thumbnail (h_200) and the other resize parameters', async () => {
    expect(await served(photo)).toEqual({ status: 200, type: 'image/jpeg', width: 1200, height: 800 });
    const cases: Array<[string, number, number]> = [
      ['image/resize,h_200', 300, 200],
      ['image/resize,w_300', 300, 200],
      ['image/resize,w_300,h_300', 300, 200],
      ['image/resize,m_mfit,w_300,h_300', 450, 300],
      ['image/resize,m_fill,w_300,h_300', 300, 300],
      ['image/resize,m_pad,w_300,h_300', 300, 300],
      ['image/resize,m_fixed,w_100,h_300', 100, 300],
      ['image/resize,l_600', 600, 400],
      ['image/resize,s_100', 150, 100],
      ['image/resize,p_10', 120, 80],
      // Never enlarged unless limit_0 says so.
      ['image/resize,h_1600', 1200, 800],
      ['image/resize,h_1600,limit_0', 2400, 1600],
    ];
    for (const [process, width, height] of cases) {
      expect([process, await served(`${photo}?x-oss-process=${process}`)]).toEqual([
        process,
        { status: 200, type: 'image/jpeg', width, height },
      ]);
    }
    expect(await served(`${poster}?x-oss-process=image/resize,h_200`)).toEqual({
      status: 200,
      type: 'image/png',
      width: 356,
      height: 200,
    });
  });

  it('resizes as COS does for imageMogr2/thumbnail', async () => {
    const cases: Array<[string, number, number]> = [
      ['x200', 300, 200],
      ['300x', 300, 200],
      ['300x300', 300, 300 * (800 / 1200)],
      ['300x300!', 300, 300],
      ['300x300^', 450, 300],
      ['!50p', 600, 400],
      ['2400x>', 1200, 800],
    ];
    for (const [spec, width, height] of cases) {
      expect([spec, await served(`${photo}?imageMogr2/thumbnail/${spec}`)]).toEqual([
        spec,
        { status: 200, type: 'image/jpeg', width, height },
      ]);
    }
  });

  it('refuses what it cannot do instead of serving the full file, and processes images only', async () => {
    for (const query of [
      'x-oss-process=image/resize,h_0',
      'x-oss-process=image/resize,h_99999',
      'x-oss-process=image/crop,w_10',
      'x-oss-process=video/snapshot,t_0,f_jpg',
      'x-oss-process=image/resize,m_bogus,h_10',
      'imageMogr2/rotate/90',
      'ci-process=snapshot&time=0',
    ]) {
      expect([query, (await served(`${photo}?${query}`)).status]).toEqual([query, 400]);
    }
    expect((await served(`${note}?x-oss-process=image/resize,h_200`)).status).toBe(400);
    expect(parseImageProcess('')).toBeNull();
    expect(parseImageProcess('versionId=1')).toBeNull();
  });
});

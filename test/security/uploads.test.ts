/**
 * User files on the server (default configuration): the upload corpus through every upload route a shopper has
 * never stores SVG or HTML, every file goes out with its sniffed type, nosniff and the sandboxing policy, and
 * prescription photos open only through signed, expiring URLs that the owner's (and staff's) answers carry.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADA, ADMIN, BEN, type TestServer, startServer } from '../server/helpers';
import { recordReliability } from '../support/reliability';
import { STORED_BEFORE, UPLOAD_ATTACKS, type UploadAttack } from './upload-corpus';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360f8cf00000301010018dd8db40000000049454e44ae426082',
  'hex',
);
const SERVED_AS_MEDIA = /^(image\/(jpeg|png|gif|bmp|webp|avif)|video\/(mp4|quicktime|webm|x-msvideo))$/;

/** The upload routes open to a shopper, each as a function sending one file and answering the stored URL or why not. */
type Route = (server: TestServer, token: string, file: UploadAttack) => Promise<{ url?: string; msg: string }>;

function form(file: UploadAttack, fields: Record<string, string> = {}): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  data.append('file', new Blob([new Uint8Array(file.bytes)]), file.fileName);
  return data;
}

const answer = (body: { status: number; msg: string; data: { url?: string } | null }) => ({
  url: body.status === 200 ? body.data?.url : undefined,
  msg: body.msg,
});

const SHOPPER_UPLOAD_ROUTES: Record<string, Route> = {
  avatar: async (server, token, file) =>
    answer(
      (await server.call('POST', '/api/goods/save_goods_media_files', form(file, { save_to: 'AVATAR' }), token)).body,
    ),
  prescription: async (server, token, file) =>
    answer(
      (await server.call('POST', '/api/goods/save_goods_media_files', form(file, { save_to: 'MYPRESCRIPTION' }), token))
        .body,
    ),
  social: async (server, token, file) =>
    answer((await server.call('POST', '/api/social/upload_image', form(file), token)).body),
  tryOn: async (server, token, file) =>
    answer(
      (
        await server.call(
          'POST',
          '/api/upload/try_on_images',
          { file_name: file.fileName, image_base64: file.bytes.toString('base64') },
          token,
        )
      ).body,
    ),
};

describe('uploads cannot run script on the shop origin; prescription photos are private', () => {
  let server: TestServer;
  let clock = Date.UTC(2026, 5, 1);
  let ada: string;
  let ben: string;
  let admin: string;
  let tried = 0;

  beforeAll(async () => {
    server = await startServer('sqlite', { AUTH_RATE_LIMIT_MAX: '1000' }, { now: () => clock });
    [ada, ben, admin] = await Promise.all([
      server.login(ADA.email, ADA.password),
      server.login(BEN.email, BEN.password),
      server.login(ADMIN.email, ADMIN.password),
    ]);
  });
  afterAll(async () => {
    await server?.close();
    recordReliability({ suite: 'upload-attacks-server', payloads: tried });
  });

  const get = (url: string) => server.app.inject({ method: 'GET', url });

  test('the corpus through every shopper upload route: refused, or stored as a raster served as one', async () => {
    const outcomes: string[] = [];
    for (const [routeName, route] of Object.entries(SHOPPER_UPLOAD_ROUTES)) {
      for (const attack of UPLOAD_ATTACKS) {
        tried += 1;
        const stored = await route(server, ada, attack);
        if (!stored.url) {
          expect({ routeName, attack: attack.name, msg: stored.msg }).toEqual({
            routeName,
            attack: attack.name,
            msg: expect.stringMatching(/^file(_name)?: /),
          });
          outcomes.push(`${routeName} ${attack.name}: refused (${stored.msg})`);
          continue;
        }
        expect(stored.url).not.toMatch(/\.(svg|html?|xml)(\?|$)/i);
        const served = await get(stored.url);
        expect({ url: stored.url, status: served.statusCode }).toEqual({ url: stored.url, status: 200 });
        const type = String(served.headers['content-type']);
        expect({ attack: attack.name, type }).toEqual({
          attack: attack.name,
          type: expect.stringMatching(SERVED_AS_MEDIA),
        });
        expect(served.headers['x-content-type-options']).toBe('nosniff');
        expect(String(served.headers['content-security-policy'])).toMatch(/(^|; )sandbox(;|$)/);
        expect(String(served.headers['content-security-policy'])).toMatch(/default-src 'none'/);
        if (attack.fileName.toLowerCase().endsWith('.svg')) {
          // Drawn into a PNG: no markup of the original is left in the stored bytes.
          expect(type).toBe('image/png');
          expect(served.rawPayload.includes('alert')).toBe(false);
        }
        outcomes.push(`${routeName} ${attack.name}: stored as ${type}`);
      }
    }
    console.log(`Upload corpus (${outcomes.length} uploads)\n${outcomes.join('\n')}`);
  });

  test('files stored by an older version (SVG, HTML) go out as downloads, never as documents', async () => {
    const folder = join(server.config.uploadDir, 'social');
    mkdirSync(folder, { recursive: true });
    for (const file of STORED_BEFORE) {
      tried += 1;
      writeFileSync(join(folder, file.fileName), file.bytes);
      const served = await get(`/uploads/social/${file.fileName}`);
      expect({ file: file.name, type: served.headers['content-type'] }).toEqual({
        file: file.name,
        type: 'application/octet-stream',
      });
      expect(served.headers['content-disposition']).toBe('attachment');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  describe('prescription photos', () => {
    let photo: string;
    let prescriptionId: number;

    const rx = (imageUrl: string | null) => ({
      name: 'Reading',
      od: { sph: -1, cyl: null, axis: null, add: null, prism: null, base: null },
      os: { sph: -1.25, cyl: null, axis: null, add: null, prism: null, base: null },
      pd: { kind: 'single', value: 62 },
      image_url: imageUrl,
    });

    beforeAll(async () => {
      const stored = await SHOPPER_UPLOAD_ROUTES.prescription(server, ada, {
        name: 'photo',
        fileName: 'rx.png',
        bytes: PNG,
      });
      photo = stored.url as string;
      const saved = await server.call('POST', '/api/order/submit_my_prescription', rx(photo), ada);
      expect(saved.body.status).toBe(200);
      prescriptionId = saved.body.data.prescription_id;
    });

    test('the signed URL opens it, privately cached until it expires; the bare path or a forged one does not', async () => {
      const opened = await get(photo);
      expect(opened.statusCode).toBe(200);
      expect(opened.headers['content-type']).toBe('image/png');
      const maxAge = Number(/^private, max-age=(\d+)$/.exec(String(opened.headers['cache-control']))?.[1]);
      expect(maxAge).toBeGreaterThan(0);
      expect(maxAge * 1000).toBeLessThanOrEqual(server.config.privateUploadUrlTtlMs * 1.25);
      const path = photo.split('?')[0];
      const signature = new URL(photo, 'http://x').searchParams.get('signature') as string;
      const expires = new URL(photo, 'http://x').searchParams.get('expires') as string;
      const forged = [
        path,
        `${path}?expires=${expires}`,
        `${path}?expires=${Number(expires) + 3600_000}&signature=${signature}`,
        `${path}?expires=${expires}&signature=${signature.slice(1)}A`,
        `${path.replace(/[^/]+$/, 'other.png')}?expires=${expires}&signature=${signature}`,
        // The same file reached through another folder, or with the dots encoded.
        `/uploads/seed/..${path.slice('/uploads'.length)}`,
        `/uploads/seed/%2e%2e${path.slice('/uploads'.length)}`,
        `/uploads//${path.slice('/uploads/'.length)}`,
      ];
      for (const url of forged) {
        tried += 1;
        const refused = await get(url);
        expect({ url, status: refused.statusCode }).toEqual({ url, status: 403 });
      }
    });

    test('after the URL expired, the owner’s next read signs it afresh: list, order and the staff view', async () => {
      clock += server.config.privateUploadUrlTtlMs * 2;
      expect((await get(photo)).statusCode).toBe(403);
      const list = (await server.call('GET', '/api/user/get_my_prescription', undefined, ada)).body.data;
      const fresh = list.find(
        (entry: { prescription_id: number }) => entry.prescription_id === prescriptionId,
      ).image_url;
      expect(fresh).not.toBe(photo);
      expect((await get(fresh)).statusCode).toBe(200);

      const goods = (await server.call('POST', '/api/goods/get_goods_page', { page_size: 100 })).body.data.list;
      const frame = goods.find((item: { color_arr: { stock: number | null }[] }) => item.color_arr[0].stock === null);
      const line = { goods_id: frame.goods_id, color_id: frame.color_arr[0].color_id, quantity: 1 };
      const address = await server.call(
        'POST',
        '/api/user/set_user_address',
        {
          first_name: 'Ada',
          last_name: 'L',
          phone: '+44 20 7946 0000',
          country_code: 'gb',
          city: 'London',
          street: '1 A St',
          zip: 'NW1 6XE',
        },
        ada,
      );
      const shipping = (await server.call('POST', '/api/config/get_shipping_method', {})).body.data[0];
      const order = await server.call(
        'POST',
        '/api/order/submit_order',
        {
          client_key: 'rx-photo-0001',
          address_id: address.body.data.address_id,
          shipping_method_id: shipping.shipping_method_id,
          lines: [{ ...line, prescription_id: prescriptionId }],
        },
        ada,
      );
      expect(order.body.msg).toBe('ok');
      clock += server.config.privateUploadUrlTtlMs * 2;
      const orders = (
        await server.call('POST', '/api/order/get_user_order', { order_id: order.body.data.order_id }, ada)
      ).body.data.list;
      const inOrder = orders[0].lines[0].prescription.image_url;
      expect(inOrder.split('?')[0]).toBe(photo.split('?')[0]);
      expect((await get(inOrder)).statusCode).toBe(200);
      // Staff see it in the order they handle.
      const handled = await server.call(
        'POST',
        '/api/order/update_order_status',
        { order_id: order.body.data.order_id, status: 'cancelled' },
        admin,
      );
      expect((await get(handled.body.data.lines[0].prescription.image_url)).statusCode).toBe(200);
      // The order keeps the plain path: what is signed is only ever the answer.
      const stored = await server.handle.db
        .selectFrom('order_lines')
        .select('prescription_json')
        .executeTakeFirstOrThrow();
      expect(stored.prescription_json).not.toContain('signature');
    });

    test('another shopper can neither list it nor cite it to get it signed', async () => {
      const bens = (await server.call('GET', '/api/user/get_my_prescription', undefined, ben)).body.data;
      expect(JSON.stringify(bens)).not.toContain(photo.split('?')[0]);
      const benId = (await server.call('POST', '/api/user/user_show', {}, ben)).body.data.user_id;
      const adaPath = photo.split('?')[0];
      const through = `/uploads/prescriptions/${benId}/../${adaPath.split('/').slice(3).join('/')}`;
      for (const cited of [photo, adaPath, through]) {
        tried += 1;
        const attempt = await server.call('POST', '/api/order/submit_my_prescription', rx(cited), ben);
        expect([attempt.http, attempt.body.msg]).toEqual([
          400,
          'image_url: must be a photo you uploaded for your prescription (save_to MYPRESCRIPTION)',
        ]);
      }
    });
  });
});

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../server/config';
import { type DbHandle, openDb } from '../../server/db/connection';
import { migrateToLatest } from '../../server/db/migrations';
import { issueOtp } from '../../server/messaging/otp';
import { buildShop } from '../../server/shop';
import { Client, removeDir } from './helpers';

/** The messaging server on the product server's own fastify instance, as server/main.ts wires it. */
describe('messaging inside the product server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lensmate-product-msg-'));
  const secret = 'product-server-otp-secret-0123';
  let app: FastifyInstance;
  let handle: DbHandle;
  let close: () => Promise<void>;
  let url: string;

  beforeAll(async () => {
    const config = loadConfig({
      DATA_DIR: dir,
      MESSAGING_OTP_SECRET: secret,
      MESSAGING_UPLOAD_LOCAL_DIR: join(dir, 'oss'),
      LOG_LEVEL: 'silent',
    });
    handle = openDb(config.databaseUrl);
    await migrateToLatest(handle.db, handle.dialect);
    const shop = await buildShop(config, { db: handle.db, dialect: handle.dialect, logger: false });
    app = shop.app;
    if (!shop.messaging) throw new Error('messaging is not configured');
    close = shop.messaging.close;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await close();
    await app.close();
    await handle.close();
    removeDir(dir);
  });

  it('shares the port: otp-checked authorize, IM, and the OSS-compatible upload endpoint', async () => {
    const alice = new Client(url);
    const bob = new Client(url);
    try {
      expect(await alice.authorize({ userId: '1', otp: issueOtp('2', secret) })).toMatchObject({ resultCode: 401 });
      expect(await alice.authorize({ userId: '1', otp: issueOtp('1', secret) })).toMatchObject({ resultCode: 200 });
      expect(await bob.authorize({ userId: '2', otp: issueOtp('2', secret) })).toMatchObject({ resultCode: 200 });
      await alice.request('publishIM', {
        mt: 'text',
        to: '2',
        d: '{}',
        p: '{"text":"hi"}',
        t: 'private',
        guid: 'ps-1',
      });
      const [message] = await bob.waitFor('imMessage');
      expect(message).toMatchObject({ s: '1', i: 'ps-1' });

      const { content: token } = await alice.request('uploadToken', { filename: 'a.txt' });
      const form = new FormData();
      form.append('key', `${token.dir}/${token.newFilename}`);
      form.append('OSSAccessKeyId', token.accessKeyId);
      form.append('policy', token.policy);
      form.append('signature', token.signature);
      form.append('success_action_status', '200');
      form.append('file', new Blob(['shared port']), 'a.txt');
      expect((await fetch(token.host, { method: 'POST', body: form })).status).toBe(200);
      const file = await fetch(`${token.host}/${token.dir}/${token.newFilename}`);
      expect(await file.text()).toBe('shared port');
    } finally {
      alice.close();
      bob.close();
    }
  });
});

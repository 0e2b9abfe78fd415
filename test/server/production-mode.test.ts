import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../server/config';
import { openDb } from '../../server/db/connection';
import { migrateToLatest } from '../../server/db/migrations';
import type { Database } from '../../server/db/schema';
import { seed } from '../../server/db/seed';
import { productionCheckIds, refuseUnsafeProduction, unsafeSettings } from '../../server/production-mode';
import '../../server/app';

jest.setTimeout(180_000);

/** A production configuration with nothing of development or demo in it. */
const LIVE = {
  NODE_ENV: 'production',
  SEED_ON_FIRST_RUN: '0',
  SMTP_URL: 'smtps://shop:secret@smtp.example.com',
  SEVENTEEN_TRACK_KEY: 'live-17track-key',
  STRIPE_SECRET_KEY: 'sk_live_abc',
  STRIPE_PUBLISHABLE_KEY: 'pk_live_abc',
  STRIPE_WEBHOOK_SECRET: 'whsec_live',
  PAYPAL_CLIENT_ID: 'live-id',
  PAYPAL_CLIENT_SECRET: 'live-secret',
  PAYPAL_ENV: 'live',
  PAYPAL_WEBHOOK_ID: '8PT597110X687430LKGECATA',
  BRAINTREE_MERCHANT_ID: 'merchant',
  BRAINTREE_PUBLIC_KEY: 'public',
  BRAINTREE_PRIVATE_KEY: 'private',
  BRAINTREE_ENV: 'production',
  WEAPP_APPID: 'wx0123456789abcdef',
  WEAPP_SECRET: 'live-appsecret',
  WECHATPAY_MCHID: '1900000109',
  WECHATPAY_MERCHANT_SERIAL: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1',
  WECHATPAY_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\\nlive\\n-----END PRIVATE KEY-----',
  WECHATPAY_PUBLIC_KEY_ID: 'PUB_KEY_ID_0114232134912410000000000000',
  WECHATPAY_PUBLIC_KEY: '-----BEGIN PUBLIC KEY-----\\nlive\\n-----END PUBLIC KEY-----',
  WECHATPAY_APIV3_KEY: 'abcdefghijklmnopqrstuvwxyz012345',
  WECHATPAY_NOTIFY_URL: 'https://shop.example.com/api/payment/webhook/wechat',
};

describe('production mode: NODE_ENV=production refuses every sandbox, default secret and development switch', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lensmate-production-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const settingsOf = async (env: Record<string, string>) =>
    (await unsafeSettings({ env, config: loadConfig({ DATA_DIR: dir, ...env }) })).map((setting) => setting.name);

  test('every provider and switch has added its check to the one registry', () => {
    expect(productionCheckIds()).toEqual(
      expect.arrayContaining([
        'payments.sandbox',
        'payments.stripe',
        'payments.paypal',
        'payments.braintree',
        'messaging.require-otp',
        'mail.outbox',
        'tracking.offline',
        'seed.demo-accounts',
        'wechat.login',
        'payments.wechat',
      ]),
    );
  });

  test('a live configuration starts', async () => {
    expect(await settingsOf(LIVE)).toEqual([]);
    await expect(refuseUnsafeProduction({ env: LIVE, config: loadConfig({ DATA_DIR: dir, ...LIVE }) })).resolves.toBe(
      undefined,
    );
  });

  test.each([
    [{ PAYMENT_SANDBOX: '1' }, ['PAYMENT_SANDBOX=1']],
    [{ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_PUBLISHABLE_KEY: 'pk_test_abc' }, ['STRIPE_SECRET_KEY']],
    [{ STRIPE_API_BASE: 'http://127.0.0.1:4242' }, ['STRIPE_API_BASE']],
    [{ STRIPE_JS_URL: 'http://127.0.0.1:4242/endive/stripe.js' }, ['STRIPE_JS_URL']],
    [{ STRIPE_WEBHOOK_SECRET: '' }, ['STRIPE_WEBHOOK_SECRET']],
    [{ PAYPAL_ENV: 'sandbox' }, ['PAYPAL_ENV=sandbox', 'PAYPAL_API_BASE', 'PAYPAL_SDK_URL']],
    [{ PAYPAL_API_BASE: 'http://127.0.0.1:4243' }, ['PAYPAL_API_BASE']],
    [{ PAYPAL_SDK_URL: 'http://127.0.0.1:4243/sdk/js' }, ['PAYPAL_SDK_URL']],
    [{ PAYPAL_WEBHOOK_ID: '' }, ['PAYPAL_WEBHOOK_ID']],
    [{ BRAINTREE_ENV: 'sandbox' }, ['BRAINTREE_ENV=sandbox', 'BRAINTREE_GATEWAY_URL']],
    [{ BRAINTREE_GATEWAY_URL: 'http://127.0.0.1:4244' }, ['BRAINTREE_GATEWAY_URL']],
    [{ BRAINTREE_DROPIN_URL: 'http://127.0.0.1:4244/dropin.js' }, ['BRAINTREE_DROPIN_URL']],
    [{ WEAPP_API_BASE: 'http://127.0.0.1:4245' }, ['WEAPP_API_BASE']],
    [{ WECHATPAY_API_BASE: 'http://127.0.0.1:4246' }, ['WECHATPAY_API_BASE']],
    [{ WECHATPAY_NOTIFY_URL: 'http://shop.example.com/api/payment/webhook/wechat' }, ['WECHATPAY_NOTIFY_URL']],
    [{ SMTP_URL: '' }, ['SMTP_URL']],
    [{ SEVENTEEN_TRACK_KEY: '' }, ['SEVENTEEN_TRACK_KEY']],
    [{ SEED_ON_FIRST_RUN: '1' }, ['SEED_ON_FIRST_RUN']],
    [{ MESSAGING_REQUIRE_OTP: '0' }, ['MESSAGING_REQUIRE_OTP=0']],
  ])('%j alone is refused, and named', async (change, names) => {
    expect(await settingsOf({ ...LIVE, ...change })).toEqual(names);
    const env = { ...LIVE, ...change };
    await expect(refuseUnsafeProduction({ env, config: loadConfig({ DATA_DIR: dir, ...env }) })).rejects.toThrow(
      names[0],
    );
  });

  test('the demo accounts with the passwords the README publishes are refused (a default secret)', async () => {
    const handle = openDb<Database>(join(dir, 'shop.sqlite'));
    try {
      await migrateToLatest(handle.db, handle.dialect);
      await seed(handle.db, join(dir, 'uploads'));
      const config = loadConfig({ DATA_DIR: dir, ...LIVE });
      const found = await unsafeSettings({ env: LIVE, config, db: handle.db });
      expect(found.map((setting) => setting.name)).toEqual([
        'admin@lensmate.test',
        'ada@lensmate.test',
        'ben@lensmate.test',
      ]);
      await handle.db.updateTable('users').set({ password_hash: 'scrypt$changed' }).execute();
      expect(await unsafeSettings({ env: LIVE, config, db: handle.db })).toEqual([]);
    } finally {
      await handle.close();
    }
  });

  test('server/main.ts does not start, naming each one, and the sandbox’s fakes never start', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, '../../server/main.ts')], {
      cwd: join(__dirname, '../..'),
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PAYMENT_SANDBOX: '1',
        DATA_DIR: dir,
        PORT: '0',
        HOST: '127.0.0.1',
      },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      'Configuration error: NODE_ENV=production refuses to start with 4 development or demo settings on:',
    );
    for (const name of ['PAYMENT_SANDBOX=1', 'SMTP_URL', 'SEVENTEEN_TRACK_KEY', 'SEED_ON_FIRST_RUN']) {
      expect(run.stderr).toContain(`  - ${name}: `);
    }
    expect(run.stdout).not.toContain('Payments: test mode');
  });
});

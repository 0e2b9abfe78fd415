import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../server/config';
import { offlineTracker } from '../../server/services/tracking';

describe('configuration from the environment', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lensmate-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('defaults: port 3000, SQLite under the data directory, offline adapters', () => {
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBe(join(dir, 'lensmate.sqlite'));
    expect(config.uploadDir).toBe(join(dir, 'uploads'));
    expect(config).toMatchObject({
      stripe: null,
      stripeSecretKey: '',
      paypal: null,
      braintree: null,
      smtpUrl: '',
      googleClientId: '',
    });
    expect(config.messaging?.otpSecret).toBe(config.otpSecret);
  });

  test('the generated OTP secret is kept across restarts', () => {
    const first = loadConfig({ DATA_DIR: dir }).otpSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dir }).otpSecret).toBe(first);
  });

  test.each([
    [{ PORT: 'http' }, 'PORT must be an integer from 0 to 65535, got "http"'],
    [{ PORT: '70000' }, 'PORT must be an integer from 0 to 65535, got "70000"'],
    [
      { DATABASE_URL: 'mysql://localhost/x' },
      'DATABASE_URL must be postgres://… or a SQLite file path, got "mysql://localhost/x"',
    ],
    [
      { STRIPE_SECRET_KEY: 'pk_test_123', STRIPE_PUBLISHABLE_KEY: 'pk_test_1' },
      'STRIPE_SECRET_KEY must look like sk_test_… or sk_live_…',
    ],
    [{ STRIPE_SECRET_KEY: 'sk_test_1' }, 'STRIPE_PUBLISHABLE_KEY must be set together with STRIPE_SECRET_KEY'],
    [
      { STRIPE_SECRET_KEY: 'sk_live_1', STRIPE_PUBLISHABLE_KEY: 'pk_test_1' },
      'STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must both be test keys or both live keys',
    ],
    [{ PAYMENT_SANDBOX: 'maybe' }, 'PAYMENT_SANDBOX must be true or false (or 1 or 0), got "maybe"'],
    [
      { STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_PUBLISHABLE_KEY: 'pk_test_1', STRIPE_JS_URL: 'javascript:alert(1)' },
      'STRIPE_JS_URL must start with http:// or https://',
    ],
    [{ PAYPAL_CLIENT_ID: 'abc' }, 'PAYPAL_CLIENT_SECRET must be set together with PAYPAL_CLIENT_ID'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL must start with smtp:// or smtps://, got "http://mail"'],
    [{ GOOGLE_CLIENT_ID: 'abc' }, 'GOOGLE_CLIENT_ID must end with .apps.googleusercontent.com'],
    [{ MESSAGING_OTP_SECRET: 'short' }, 'MESSAGING_OTP_SECRET must be at least 16 characters'],
    [{ SEED_ON_FIRST_RUN: 'maybe' }, 'SEED_ON_FIRST_RUN must be true or false (or 1 or 0), got "maybe"'],
  ])('%j is refused with a message naming it', (env, message) => {
    expect(() => loadConfig({ DATA_DIR: dir, ...env })).toThrow(message);
  });

  test('configured keys switch the adapters on', () => {
    const config = loadConfig({
      DATA_DIR: dir,
      STRIPE_SECRET_KEY: 'sk_test_abc',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_abc',
      PAYPAL_CLIENT_ID: 'id',
      PAYPAL_CLIENT_SECRET: 'secret',
      PAYPAL_ENV: 'live',
      DATABASE_URL: 'postgres://u@h/db',
    });
    expect(config.paypal?.apiBase).toBe('https://api-m.paypal.com');
    expect(config.stripeSecretKey).toBe('sk_test_abc');
    expect(config.stripe).toMatchObject({
      apiBase: 'https://api.stripe.com',
      jsUrl: 'https://js.stripe.com/endive/stripe.js',
    });
    expect(config.paymentSandbox).toBe(false);
    expect(config.databaseUrl).toBe('postgres://u@h/db');
  });
});

describe('offline tracking', () => {
  test('events appear as time passes, newest first, and end with the delivery', async () => {
    const registeredAt = Date.UTC(2026, 0, 10);
    let now = registeredAt;
    const tracker = offlineTracker(() => now);
    const label = await tracker.track('LM000000001CN', registeredAt);
    expect(label.status).toBe('registered');
    expect(label.events.map((event) => event.description)).toEqual(['Shipping label created']);
    now += 24 * 3600_000;
    const dayOne = await tracker.track('LM000000001CN', registeredAt);
    expect(dayOne.status).toBe('in_transit');
    expect(dayOne.events.map((event) => event.description)).toContain('Parcel picked up by the carrier');
    now += 4 * 24 * 3600_000;
    const done = await tracker.track('LM000000001CN', registeredAt);
    expect(done.events.length).toBe(7);
    expect(done.status).toBe('delivered');
    expect(done.events[0].description).toBe('Delivered');
    expect(done.events.slice(-dayOne.events.length)).toEqual(dayOne.events);
    expect(await tracker.track('LM000000001CN', registeredAt)).toEqual(done);
  });
});

describe('security defaults', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lensmate-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('a plain start: no proxy trusted, limits on, tokens expire, a private-upload secret generated and kept', () => {
    const config = loadConfig({ DATA_DIR: dir }, { messaging: false });
    expect(config.trustProxy).toBe(false);
    expect(config.authRateLimit).toEqual({ max: 10, windowMs: 15 * 60_000 });
    expect(config.checkAccountRateLimitMax).toBe(30);
    expect(config.loginAccountFailureMax).toBe(50);
    expect(config.tokenIdleTtlMs).toBe(30 * 24 * 3600_000);
    expect(config.tokenMaxAgeMs).toBe(180 * 24 * 3600_000);
    expect(config.privateUploadUrlTtlMs).toBe(3600_000);
    expect(config.privateUploadSecret.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dir }, { messaging: false }).privateUploadSecret).toBe(config.privateUploadSecret);
    expect(config.csp).toEqual({ scriptSrc: [], frameSrc: [], connectSrc: [] });
  });

  test('TRUST_PROXY takes proxies, CIDRs, range names or a hop count', () => {
    const read = (value: string) => loadConfig({ DATA_DIR: dir, TRUST_PROXY: value }, { messaging: false }).trustProxy;
    expect(read('10.0.0.5, 10.1.0.0/16,::1,loopback')).toEqual(['10.0.0.5', '10.1.0.0/16', '::1', 'loopback']);
    expect(read('2')).toBe(2);
    expect(read('0')).toBe(false);
    expect(read('false')).toBe(false);
  });

  test('CSP sources can be added for payment SDKs, never keywords that loosen the policy', () => {
    const config = loadConfig(
      {
        DATA_DIR: dir,
        CSP_SCRIPT_SRC: 'https://js.stripe.com https://www.paypal.com/sdk/js',
        CSP_FRAME_SRC: 'https://js.stripe.com',
      },
      { messaging: false },
    );
    expect(config.csp.scriptSrc).toEqual(['https://js.stripe.com', 'https://www.paypal.com/sdk/js']);
    expect(config.csp.frameSrc).toEqual(['https://js.stripe.com']);
    for (const value of ["'unsafe-inline'", '*', 'data:', "https://x.test 'unsafe-eval'", 'javascript:alert(1)']) {
      expect(() => loadConfig({ DATA_DIR: dir, CSP_SCRIPT_SRC: value }, { messaging: false })).toThrow(
        /CSP_SCRIPT_SRC must list origins or URL prefixes/,
      );
    }
  });
});

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { messagingConfigFromEnv } from '../../server/messaging/config';
import { issueOtp } from '../../server/messaging/otp';
import { refuseUnsafeProduction } from '../../server/production-mode';
import { recordReliability } from '../support/reliability';
import { connected, removeDir, sleep, startServer } from './helpers';

const env = (values: Record<string, string>) => values as unknown as NodeJS.ProcessEnv;
const secrets = {
  MESSAGING_OTP_SECRET: 'an-otp-secret-for-tests',
  MESSAGING_OSS_ACCESS_KEY_SECRET: 'an-oss-secret-for-tests',
};

describe('messagingConfigFromEnv', () => {
  it('defaults to a publish+subscribe key and a subscribe-only key, with identity proofs required', () => {
    const config = messagingConfigFromEnv(env(secrets));
    expect(config.appKeys).toEqual([
      { key: 'BC-lensmate-demo', publish: true, subscribe: true },
      { key: 'BS-lensmate-demo', publish: false, subscribe: true },
    ]);
    expect(config.requireOtp).toBe(true);
    expect(config.upload.storage.vendor).toBe('ALI');
    expect(config.wechat.templateIds).toEqual([]);
    expect(config.limits).toEqual({
      messagesPerSecondPerConnection: 10,
      messagesPerSecondPerUser: 20,
      templatesPerMinutePerUser: 10,
      payloadBytes: 8192,
    });
  });

  it('generates missing secrets once into the data directory, readable by its owner only', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lensmate-secrets-'));
    try {
      const first = messagingConfigFromEnv(env({}), { dataDir });
      const second = messagingConfigFromEnv(env({}), { dataDir });
      const storage = first.upload.storage as { accessKeySecret: string };
      expect(first.otpSecret.length).toBeGreaterThanOrEqual(32);
      expect(storage.accessKeySecret.length).toBeGreaterThanOrEqual(32);
      expect(storage.accessKeySecret).not.toBe(first.otpSecret);
      expect(second.otpSecret).toBe(first.otpSecret);
      expect((second.upload.storage as { accessKeySecret: string }).accessKeySecret).toBe(storage.accessKeySecret);
      expect(readFileSync(join(dataDir, 'oss-secret'), 'utf8').trim()).toBe(storage.accessKeySecret);
      expect(statSync(join(dataDir, 'oss-secret')).mode & 0o777).toBe(0o600);
      expect(first.upload.localDir).toBe(join(dataDir, 'oss'));
    } finally {
      removeDir(dataDir);
    }
  });

  it('reads app keys from MESSAGING_APPKEYS', () => {
    const config = messagingConfigFromEnv(
      env({ ...secrets, MESSAGING_APPKEYS: '[{"key":"K","publish":false,"subscribe":true}]' }),
    );
    expect(config.appKeys).toEqual([{ key: 'K', publish: false, subscribe: true }]);
  });

  it('keeps server/main.ts from starting with the development switch on and NODE_ENV=production', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lensmate-prod-'));
    try {
      const run = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, '../../server/main.ts')], {
        cwd: join(__dirname, '../..'),
        env: { ...process.env, NODE_ENV: 'production', MESSAGING_REQUIRE_OTP: '0', DATA_DIR: dataDir, PORT: '0' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/Configuration error: NODE_ENV=production refuses to start/);
      expect(run.stderr).toMatch(/- MESSAGING_REQUIRE_OTP=0: lets anyone connect to messaging as any user id/);
    } finally {
      removeDir(dataDir);
    }
  });

  it('lets the development switch allow unproven ids, and refuses it with NODE_ENV=production, naming it', async () => {
    const config = messagingConfigFromEnv(env({ ...secrets, MESSAGING_REQUIRE_OTP: '0' }));
    expect(config.requireOtp).toBe(false);
    await expect(refuseUnsafeProduction({ env: { NODE_ENV: 'development' }, messaging: config })).resolves.toBe(
      undefined,
    );
    await expect(refuseUnsafeProduction({ env: { NODE_ENV: 'production' }, messaging: config })).rejects.toThrow(
      /NODE_ENV=production refuses[\s\S]*MESSAGING_REQUIRE_OTP=0: .*development switch/,
    );
    const proven = messagingConfigFromEnv(env(secrets));
    await expect(refuseUnsafeProduction({ env: { NODE_ENV: 'production' }, messaging: proven })).resolves.toBe(
      undefined,
    );
  });

  it.each([
    [{ MESSAGING_APPKEYS: 'nope' }, /MESSAGING_APPKEYS must be JSON/],
    [{ MESSAGING_APPKEYS: '[]' }, /non-empty JSON array/],
    [{ MESSAGING_APPKEYS: '[{"key":"","publish":true,"subscribe":true}]' }, /MESSAGING_APPKEYS\[0\]\.key/],
    [{ MESSAGING_APPKEYS: '[{"key":"a","publish":"yes","subscribe":true}]' }, /must be booleans/],
    [{ MESSAGING_REQUIRE_OTP: 'maybe' }, /MESSAGING_REQUIRE_OTP must be true or false/],
    [{ MESSAGING_REQUIRE_OTP: '1', MESSAGING_OTP_SECRET: 'short' }, /MESSAGING_OTP_SECRET must be at least 16/],
    [{ ...secrets, MESSAGING_RATE_PER_USER: '0' }, /MESSAGING_RATE_PER_USER must be a positive integer/],
    [{ MESSAGING_SESSION_WINDOW_MS: '-5' }, /MESSAGING_SESSION_WINDOW_MS must be a positive integer/],
    [{ REDIS_URL: 'localhost:6379' }, /REDIS_URL must start with redis:\/\//],
    [{ MESSAGING_UPLOAD_VENDOR: 'QN' }, /MESSAGING_UPLOAD_VENDOR must be ALI or TX/],
    [
      { MESSAGING_UPLOAD_VENDOR: 'TX', MESSAGING_COS_HOST: 'https://x' },
      /MESSAGING_COS_SECRET_ID and MESSAGING_COS_SECRET_KEY/,
    ],
    [{ WECHAT_APPID: 'wx1' }, /WECHAT_APPID and WECHAT_SECRET must be set together/],
  ])('rejects %j', (values, message) => {
    expect(() => messagingConfigFromEnv(env({ ...secrets, ...values }))).toThrow(message);
  });

  it('never signs with a default: without a secret or a data directory to generate one into, it does not start', () => {
    expect(() => messagingConfigFromEnv(env({ MESSAGING_OTP_SECRET: secrets.MESSAGING_OTP_SECRET }))).toThrow(
      /MESSAGING_OSS_ACCESS_KEY_SECRET is required/,
    );
    expect(() =>
      messagingConfigFromEnv(env({ MESSAGING_OSS_ACCESS_KEY_SECRET: secrets.MESSAGING_OSS_ACCESS_KEY_SECRET })),
    ).toThrow(/MESSAGING_OTP_SECRET is required/);
  });
});

describe('the WeChat template-message client', () => {
  it('fetches an access token once and sends the template to the openid the user connected with', async () => {
    const wechat = Fastify();
    const calls: { url: string; body?: unknown }[] = [];
    wechat.get('/cgi-bin/token', async (request) => {
      calls.push({ url: request.url });
      return { access_token: 'TOKEN', expires_in: 7200 };
    });
    wechat.post('/cgi-bin/message/template/send', async (request) => {
      calls.push({ url: request.url, body: request.body });
      return { errcode: 0, errmsg: 'ok' };
    });
    const base = await wechat.listen({ port: 0, host: '127.0.0.1' });
    const server = await startServer({
      WECHAT_APPID: 'wxapp',
      WECHAT_SECRET: 'wxsecret',
      WECHAT_API_BASE: base,
      MESSAGING_WXMP_TEMPLATE_IDS: 'TPL',
      MESSAGING_WXMP_RATE_PER_MINUTE: '3',
    });
    // The shop's proof vouches for each user's WeChat identity (the only one the messaging server records).
    const vouched = (userId: string, openid: string) => ({
      wxmpId: { appid: 'wxapp', openid },
      otp: issueOtp(userId, server.config.otpSecret, 60_000, Date.now(), '', `wxapp:${openid}`),
    });
    const { client: receiver } = await connected(server.url, 'wx-bob', vouched('wx-bob', 'OPENID-BOB'));
    const { client: sender } = await connected(server.url, 'wx-alice', vouched('wx-alice', 'OPENID-ALICE'));
    try {
      expect(await receiver.request('SET_IOS_BADGE', { badge: -1 })).toMatchObject({
        code: 400,
        content: 'badge must be an integer greater than or equal to 0.',
      });
      // Online, Bob sees the message himself: no template message (as GoEasy, it is for offline receivers).
      const online = await sender.request('publishIM', {
        mt: 'text',
        to: 'wx-bob',
        d: '{}',
        p: JSON.stringify({ text: 'hi' }),
        t: 'private',
        guid: 'wx-0',
        wxmpTemplateMsg: { template_id: 'TPL', data: JSON.stringify({ thing1: { value: 'hi' } }) },
      });
      expect(online.code).toBe(200);
      receiver.close();
      await sleep(300);
      for (const guid of ['wx-1', 'wx-2']) {
        const ack = await sender.request('publishIM', {
          mt: 'text',
          to: 'wx-bob',
          d: '{}',
          p: JSON.stringify({ text: 'hi' }),
          t: 'private',
          guid,
          // The recipient is never the client's to choose: `touser` is dropped.
          wxmpTemplateMsg: {
            template_id: 'TPL',
            touser: 'OPENID-OF-A-STRANGER',
            data: JSON.stringify({ thing1: { value: 'hi' } }),
          },
        });
        expect(ack.code).toBe(200);
      }
      const template = (guid: string, templateId: string) =>
        sender.request('publishIM', {
          mt: 'text',
          to: 'wx-bob',
          d: '{}',
          p: JSON.stringify({ text: 'hi' }),
          t: 'private',
          guid,
          wxmpTemplateMsg: { template_id: templateId, data: JSON.stringify({ thing1: { value: 'hi' } }) },
        });
      expect(await template('wx-other', 'NOT-ALLOWED')).toMatchObject({
        code: 400,
        content: 'template_id NOT-ALLOWED is not allowed.',
      });
      expect(await template('wx-3', 'TPL')).toMatchObject({
        code: 429,
        content: 'Too many template messages: at most 3 per minute',
      });
      const sent = () => calls.filter((call) => call.url.startsWith('/cgi-bin/message/template/send'));
      for (let waited = 0; sent().length < 2 && waited < 5000; waited += 20) await sleep(20);
      expect(calls.filter((call) => call.url.startsWith('/cgi-bin/token'))).toHaveLength(1);
      expect(calls[0].url).toContain('appid=wxapp');
      const sends = sent();
      expect(sends).toHaveLength(2);
      expect(sends[0].url).toContain('access_token=TOKEN');
      expect(sends[0].body).toEqual({ touser: 'OPENID-BOB', template_id: 'TPL', data: { thing1: { value: 'hi' } } });
      expect(sends.every((send) => !JSON.stringify(send.body).includes('STRANGER'))).toBe(true);
      // Two client-chosen recipients dropped, a template off the allow-list and one over the rate refused.
      recordReliability({ suite: 'attack-messaging-templates', payloads: 4, refused: 4 });
    } finally {
      receiver.close();
      sender.close();
      await server.close();
      removeDir(server.dir);
      await wechat.close();
    }
  });
});

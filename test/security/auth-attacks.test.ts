/**
 * Attacks on sign-in and the password routes with the default configuration: every route that hashes a password
 * (or mails a code, or tells whether an account exists) is limited per client IP; a guesser cannot lock the owner
 * out; a client's own X-Forwarded-For never picks its IP; an unknown account costs the same scrypt as a known one;
 * and with REDIS_URL every limit holds across server processes.
 */
import crypto from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../server/config';
import type { ApiBody } from '../../types/api';
import { ADA, BEN, type TestServer, startServer } from '../server/helpers';
import { recordReliability } from '../support/reliability';

const WAIT = /^Too many attempts, try again in \d+ minutes?$/;
const WRONG = 'Wrong#2026guess';

interface Call {
  url: string;
  payload?: unknown;
  token?: string;
  ip?: string;
  headers?: Record<string, string>;
}

async function call(server: TestServer, { url, payload = {}, token, ip = '203.0.113.10', headers = {} }: Call) {
  const response = await server.app.inject({
    method: 'POST',
    url,
    remoteAddress: ip,
    payload: JSON.stringify(payload),
    headers: { 'content-type': 'application/json', ...(token ? { 'lensmate-token': token } : {}), ...headers },
  });
  return { http: response.statusCode, body: response.json() as ApiBody<any> };
}

/** The code of the newest mail to `to` in the offline outbox. */
function lastMailedCode(server: TestServer, to: string): string {
  const mails = readdirSync(server.config.outboxDir)
    .sort()
    .map(
      (name) => JSON.parse(readFileSync(join(server.config.outboxDir, name), 'utf8')) as { to: string; text: string },
    )
    .filter((mail) => mail.to === to);
  return /(\d{6})/.exec(mails[mails.length - 1].text)?.[1] ?? '';
}

/** Counts the scrypt derivations the server runs (each password hash or check is one). */
function scryptCounter(): { count(): number; restore(): void } {
  const spy = jest.spyOn(crypto, 'scrypt');
  return { count: () => spy.mock.calls.length, restore: () => spy.mockRestore() };
}

let attacks = 0;
afterAll(() => recordReliability({ suite: 'auth-attacks', payloads: attacks }));

describe('every password route is limited per client IP (default limits)', () => {
  let server: TestServer;
  let ada: string;
  let ben: string;

  beforeAll(async () => {
    server = await startServer('sqlite');
    [ada, ben] = await Promise.all([server.login(ADA.email, ADA.password), server.login(BEN.email, BEN.password)]);
  });
  afterAll(async () => {
    await server?.close();
  });

  /**
   * Per route: an attempt refused before any hashing (bad input: the limit counts every request, and these keep the
   * test fast), then a real one that would hash a password or mail a code, and whether it needs a shopper's token.
   */
  const routes: [string, unknown, unknown, boolean][] = [
    ['/api/auth/login', { email: 'not-an-email', password: WRONG }, { email: BEN.email, password: WRONG }, false],
    [
      '/api/auth/register',
      { email: 'mass@lensmate.test', password: 'short' },
      { email: 'mass@lensmate.test', password: 'glasses4you' },
      false,
    ],
    ['/api/auth/forget_password', { email: 'not-an-email' }, { email: BEN.email }, false],
    [
      '/api/user/change_password_with_verification_code',
      { email: BEN.email, code: 'abc', new_password: 'Another#2026x' },
      { email: BEN.email, code: '123456', new_password: 'Another#2026x' },
      false,
    ],
    [
      '/api/user/change_password',
      { old_password: WRONG, new_password: 'short' },
      { old_password: WRONG, new_password: 'Another#2026x' },
      true,
    ],
    ['/api/google/google_login', { id_token: '' }, { id_token: 'forged' }, false],
  ];

  test.each(routes)(
    '%s: past the limit a 429 with the wait, no scrypt; another IP is unaffected',
    async (url, cheap, real, signed) => {
      const max = server.config.authRateLimit.max;
      const token = signed ? ada : undefined;
      const ip = `198.51.100.${routes.findIndex(([route]) => route === url) + 1}`;
      for (let index = 0; index < max; index += 1) {
        const answer = await call(server, { url, payload: cheap, token, ip });
        // 400 for the bad input (503 for Google sign-in, which is not configured here): counted, never limited yet.
        expect({ index, limited: answer.http === 429 }).toEqual({ index, limited: false });
      }
      const scrypt = scryptCounter();
      try {
        const refused = await call(server, { url, payload: real, token, ip });
        expect(refused.body).toMatchObject({ status: 429, msg: expect.stringMatching(WAIT), data: null });
        expect(refused.http).toBe(429);
        expect(scrypt.count()).toBe(0);
      } finally {
        scrypt.restore();
      }
      const elsewhere = await call(server, { url, payload: real, token: signed ? ben : undefined, ip: '192.0.2.200' });
      expect(elsewhere.http).not.toBe(429);
      attacks += max + 2;
    },
  );

  test('check_account is limited per IP too', async () => {
    const max = server.config.checkAccountRateLimitMax;
    const answers = [];
    for (let index = 0; index <= max; index += 1) {
      answers.push(
        (await call(server, { url: '/api/auth/check_account', payload: { email: `p${index}@x.test` } })).http,
      );
    }
    expect(answers.slice(0, max).every((http) => http === 200)).toBe(true);
    expect(answers[max]).toBe(429);
    attacks += max + 1;
  });
});

/** Small limits where a test must exceed them many times over: the mechanism is the same as with the defaults. */
const SMALL_LIMITS = { AUTH_RATE_LIMIT_MAX: '2', LOGIN_ACCOUNT_FAILURE_MAX: '4' };

describe('a guesser cannot lock the owner out', () => {
  let server: TestServer;
  let small: TestServer;
  beforeAll(async () => {
    [server, small] = await Promise.all([startServer('sqlite'), startServer('sqlite', SMALL_LIMITS)]);
  });
  afterAll(async () => {
    await Promise.all([server?.close(), small?.close()]);
  });

  const login = (ip: string, password: string, on = server) =>
    call(on, { url: '/api/auth/login', payload: { email: ADA.email, password }, ip });

  test('one IP hammering her account is stopped; Ada signs in from another IP meanwhile', async () => {
    const attacker = '203.0.113.66';
    const answers = [];
    for (let attempt = 0; attempt < 25; attempt += 1) answers.push((await login(attacker, WRONG)).http);
    expect(answers.filter((http) => http === 429).length).toBe(25 - server.config.authRateLimit.max);
    const owner = await login('192.0.2.10', ADA.password);
    expect([owner.http, owner.body.data?.email]).toEqual([200, ADA.email]);
    attacks += 25;
  });

  test('guessers spread over many IPs: past the account limit only clients known to it may try', async () => {
    // Ada signs in from home first; later the guessers come from many addresses.
    const home = '192.0.2.20';
    expect((await login(home, ADA.password, small)).http).toBe(200);
    const perIp = small.config.authRateLimit.max;
    const ips = Math.ceil(small.config.loginAccountFailureMax / perIp) + 1;
    let guesses = 0;
    for (let host = 1; host <= ips; host += 1) {
      for (let attempt = 0; attempt < perIp; attempt += 1) {
        await login(`10.66.0.${host}`, WRONG, small);
        guesses += 1;
      }
    }
    // A new address, even with the right password, waits: the guessers cannot learn it from a 200.
    const fresh = await login('10.66.1.1', ADA.password, small);
    expect([fresh.http, fresh.body.msg]).toEqual([429, expect.stringMatching(WAIT)]);
    // From home, Ada is let in.
    expect((await login(home, ADA.password, small)).http).toBe(200);
    // From a new place, a password reset by mailed code proves her and lets that client in.
    const newPlace = '10.77.0.1';
    const mailed = await call(small, { url: '/api/auth/forget_password', payload: { email: ADA.email }, ip: newPlace });
    expect(mailed.http).toBe(200);
    const reset = await call(small, {
      url: '/api/user/change_password_with_verification_code',
      payload: { email: ADA.email, code: lastMailedCode(small, ADA.email), new_password: ADA.password },
      ip: newPlace,
    });
    expect(reset.http).toBe(200);
    expect((await login(newPlace, ADA.password, small)).http).toBe(200);
    attacks += guesses + 1;
  });
});

describe('X-Forwarded-For chosen by the client is never believed', () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  /** Logins with a new forged X-Forwarded-For each time, from `ip`: how many are refused as over the limit. */
  async function spoofedBurst(server: TestServer, ip: string, realClient?: string): Promise<number> {
    let limited = 0;
    const max = server.config.authRateLimit.max;
    for (let attempt = 0; attempt < max + 5; attempt += 1) {
      const forged = `100.64.${attempt}.${attempt + 1}`;
      const forwarded = realClient ? `${forged}, ${realClient}` : forged;
      // Refused as bad input before any hashing: the per-IP limit counts every request all the same.
      const answer = await call(server, {
        url: '/api/auth/login',
        payload: { email: `not-an-email-${attempt}`, password: WRONG },
        ip,
        headers: { 'x-forwarded-for': forwarded },
      });
      if (answer.http === 429) limited += 1;
    }
    attacks += max + 5;
    return limited;
  }

  test('without TRUST_PROXY (the default) the header is ignored: the socket address is the client', async () => {
    const server = await startServer('sqlite');
    servers.push(server);
    expect(await spoofedBurst(server, '203.0.113.5')).toBe(5);
  });

  test('behind named proxies the client is the address the proxy saw, whatever the client prepended', async () => {
    const server = await startServer('sqlite', { TRUST_PROXY: '10.0.0.0/8,127.0.0.1' });
    servers.push(server);
    expect(await spoofedBurst(server, '10.0.0.2', '198.51.100.9')).toBe(5);
    // A peer that is not one of the proxies is the client itself, whatever it forwards.
    expect(await spoofedBurst(server, '203.0.113.6')).toBe(5);
  });

  test('with a hop count, only that many proxies speak: earlier entries are the client’s own', async () => {
    const server = await startServer('sqlite', { TRUST_PROXY: '1' });
    servers.push(server);
    expect(await spoofedBurst(server, '10.0.0.3', '198.51.100.10')).toBe(5);
  });

  test.each(['true', 'yes', 'on', '*'])('TRUST_PROXY=%s (trust everyone) stops the start', (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value }, { messaging: false })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: value }, { messaging: false })).toThrow(/would trust every client/);
  });

  test.each(['10.0.0.0/33', 'proxy.local', '1.2.3', '99', '10.0.0.1/8/1'])('TRUST_PROXY=%s is refused', (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value }, { messaging: false })).toThrow(/TRUST_PROXY/);
  });
});

describe('login timing does not tell whether an account exists', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer('sqlite');
    // An account signed up with Google has no password hash of its own.
    await server.handle.db
      .insertInto('users')
      .values({
        email: 'google-only@lensmate.test',
        password_hash: '',
        nickname: 'G',
        avatar: '',
        bio: '',
        is_admin: 0,
        google_sub: 'google-sub-1',
        created_at: Date.now(),
      })
      .execute();
  });
  afterAll(async () => {
    await server?.close();
  });

  test.each([
    ['an unknown account', 'nobody-here@lensmate.test'],
    ['a known account with a wrong password', BEN.email],
    ['an account without a password (Google)', 'google-only@lensmate.test'],
  ])('%s costs exactly one scrypt and the same answer', async (_what, email) => {
    const scrypt = scryptCounter();
    try {
      const answer = await call(server, {
        url: '/api/auth/login',
        payload: { email, password: WRONG },
        ip: `192.0.2.${email.length}`,
      });
      expect(answer.body).toEqual({ status: 400, msg: 'Wrong e-mail or password', data: null });
      expect(scrypt.count()).toBe(1);
    } finally {
      scrypt.restore();
    }
    attacks += 1;
  });
});

const redisDescribe = process.env.LENSMATE_TEST_REDIS ? describe : describe.skip;

redisDescribe('with REDIS_URL, every limit is shared by the server processes (real Redis)', () => {
  const prefix = `lensmate:test:${Date.now().toString(36)}:${process.pid}:`;
  const env = {
    ...SMALL_LIMITS,
    REDIS_URL: process.env.LENSMATE_TEST_REDIS_URL || 'redis://127.0.0.1:6379',
    RATE_LIMIT_REDIS_PREFIX: prefix,
  };
  let first: TestServer;
  let second: TestServer;

  beforeAll(async () => {
    [first, second] = await Promise.all([startServer('sqlite', env), startServer('sqlite', env)]);
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
  });

  test('per-IP route limits: requests alternating over two processes are counted together', async () => {
    const max = first.config.authRateLimit.max;
    const answers = [];
    for (let attempt = 0; attempt < max + 4; attempt += 1) {
      const server = attempt % 2 === 0 ? first : second;
      answers.push(
        (
          await call(server, {
            url: '/api/auth/forget_password',
            payload: { email: 'nobody@x.test' },
            ip: '203.0.113.80',
          })
        ).http,
      );
    }
    expect(answers.filter((http) => http === 429)).toHaveLength(4);
    expect(answers.slice(max).every((http) => http === 429)).toBe(true);
    attacks += max + 4;
  });

  test('per-account limits: wrong passwords from many IPs over both processes add up to one account limit', async () => {
    const perIp = first.config.authRateLimit.max;
    const ips = Math.ceil(first.config.loginAccountFailureMax / perIp);
    let sent = 0;
    for (let host = 1; host <= ips; host += 1) {
      for (let attempt = 0; attempt < perIp; attempt += 1) {
        const server = (host + attempt) % 2 === 0 ? first : second;
        await call(server, {
          url: '/api/auth/login',
          payload: { email: BEN.email, password: WRONG },
          ip: `10.88.0.${host}`,
        });
        sent += 1;
      }
    }
    for (const server of [first, second]) {
      const fresh = await call(server, {
        url: '/api/auth/login',
        payload: { email: BEN.email, password: BEN.password },
        ip: '10.88.9.9',
      });
      expect([fresh.http, fresh.body.msg]).toEqual([429, expect.stringMatching(WAIT)]);
    }
    attacks += sent + 2;
  });
});

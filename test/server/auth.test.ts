import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { verifyOtp } from '../../server/messaging/otp';
import { ADA, ADMIN, BEN, type TestServer, engines, startServer } from './helpers';

describe.each(engines)('auth and account on %s', (engine) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer(engine);
  });
  afterAll(async () => {
    await s.close();
  });

  test('register answers a token that works, and the e-mail is then taken', async () => {
    const { body } = await s.call('POST', '/api/auth/register', {
      email: 'Cleo@Example.com',
      password: 'glasses4you',
      nickname: 'Cleo',
    });
    expect(body.status).toBe(200);
    expect(body.data).toMatchObject({ email: 'cleo@example.com', nickname: 'Cleo', is_admin: false });
    expect(body.data.token.length).toBeGreaterThanOrEqual(43);
    const me = await s.call('POST', '/api/user/user_show', {}, body.data.token);
    expect(me.body.data.email).toBe('cleo@example.com');
    const again = await s.call('POST', '/api/auth/register', { email: 'cleo@example.com', password: 'glasses4you' });
    expect(again.http).toBe(409);
    expect(again.body.status).toBe(409);
    const check = await s.call('POST', '/api/auth/check_account', { email: 'cleo@example.com' });
    expect(check.body.data).toEqual({ exists: true });
  });

  test('bad registration input is refused naming the field', async () => {
    const badEmail = await s.call('POST', '/api/auth/register', { email: 'not-an-email', password: 'glasses4you' });
    expect(badEmail.body).toMatchObject({ status: 400, msg: 'email: must be an e-mail address', data: null });
    expect(badEmail.http).toBe(400);
    const weak = await s.call('POST', '/api/auth/register', { email: 'weak@example.com', password: 'short' });
    expect(weak.body.msg).toBe('password: must have at least 8 characters');
    const noDigit = await s.call('POST', '/api/auth/register', { email: 'weak@example.com', password: 'onlyletters' });
    expect(noDigit.body.msg).toBe('password: must contain a letter and a digit');
    const broken = await s.call('POST', '/api/auth/register', '{"email":');
    expect(broken.body).toMatchObject({ status: 400, msg: 'body: must be valid JSON' });
  });

  test('login with a wrong password is refused; the right one answers is_admin', async () => {
    const wrong = await s.call('POST', '/api/auth/login', { email: ADMIN.email, password: 'nope-1234' });
    expect(wrong.body).toMatchObject({ status: 400, msg: 'Wrong e-mail or password' });
    const right = await s.call('POST', '/api/auth/login', ADMIN);
    expect(right.body.data.is_admin).toBe(true);
  });

  test('logout revokes the token', async () => {
    const token = await s.login(BEN.email, BEN.password);
    expect((await s.call('POST', '/api/auth/logout', {}, token)).body.status).toBe(200);
    const after = await s.call('POST', '/api/user/get_user_address', {}, token);
    expect(after.body).toMatchObject({ status: 401, msg: 'Unauthorized' });
  });

  test('a request without a token is refused with 403 Invalid token', async () => {
    const { http, body } = await s.call('POST', '/api/user/set_user_address', { first_name: 'A' });
    expect(http).toBe(403);
    expect(body).toEqual({ status: 403, msg: 'Invalid token', data: null });
  });

  test('forget_password mails a code to the outbox; the code changes the password and signs out everywhere', async () => {
    const oldToken = await s.login(ADA.email, ADA.password);
    const sent = await s.call('POST', '/api/auth/forget_password', { email: ADA.email });
    expect(sent.body.data).toEqual({ sent: true });
    const outbox = join(s.config.outboxDir);
    const files = readdirSync(outbox).sort();
    const mail = JSON.parse(readFileSync(join(outbox, files[files.length - 1]), 'utf8'));
    expect(mail.to).toBe(ADA.email);
    const code = /(\d{6})/.exec(mail.text)?.[1] as string;
    const wrongCode = code === '000000' ? '111111' : '000000';
    const bad = await s.call('POST', '/api/user/change_password_with_verification_code', {
      email: ADA.email,
      code: wrongCode,
      new_password: 'NewSecret99',
    });
    expect(bad.body).toMatchObject({ status: 400, msg: 'code: The verification code is wrong or has expired' });
    const good = await s.call('POST', '/api/user/change_password_with_verification_code', {
      email: ADA.email,
      code,
      new_password: 'NewSecret99',
    });
    expect(good.body.status).toBe(200);
    expect((await s.call('GET', '/api/order/get_cart', undefined, oldToken)).body.status).toBe(401);
    const reused = await s.call('POST', '/api/user/change_password_with_verification_code', {
      email: ADA.email,
      code,
      new_password: 'Another99x',
    });
    expect(reused.body.status).toBe(400);
    const token = await s.login(ADA.email, 'NewSecret99');
    const changed = await s.call(
      'POST',
      '/api/user/change_password',
      { old_password: 'NewSecret99', new_password: ADA.password },
      token,
    );
    expect(changed.body.status).toBe(200);
    expect((await s.call('GET', '/api/order/get_cart', undefined, token)).body.status).toBe(401);
    expect((await s.call('GET', '/api/order/get_cart', undefined, changed.body.data.token)).body.status).toBe(200);
    const wrongOld = await s.call(
      'POST',
      '/api/user/change_password',
      { old_password: 'nope', new_password: 'Whatever123' },
      changed.body.data.token,
    );
    expect(wrongOld.body.msg).toBe('old_password: the current password is wrong');
  });

  test('google_login says it is not configured without GOOGLE_CLIENT_ID', async () => {
    const { http, body } = await s.call('POST', '/api/google/google_login', { id_token: 'x' });
    expect(http).toBe(503);
    expect(body.msg).toBe('Google login is not configured');
  });

  test('messaging token: an OTP naming the signed-in user, refused without a token', async () => {
    const token = await s.login(BEN.email, BEN.password);
    const { body } = await s.call('POST', '/api/messaging/token', {}, token);
    expect(body.status).toBe(200);
    expect(verifyOtp(body.data.otp, s.config.otpSecret)?.userId).toBe(body.data.userId);
    expect((await s.call('POST', '/api/messaging/token', {})).body.status).toBe(403);
  });
});

describe('rate limits', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer('sqlite', { AUTH_RATE_LIMIT_MAX: '3' });
  });
  afterAll(async () => {
    await s.close();
  });

  test('the fourth login attempt on one account within the window is refused with 429 and the wait', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await s.call('POST', '/api/auth/login', { email: BEN.email, password: 'wrong-pass1' })).body.status).toBe(
        400,
      );
    }
    const { http, body } = await s.call('POST', '/api/auth/login', { email: BEN.email, password: BEN.password });
    expect(http).toBe(429);
    expect(body.msg).toBe('Too many attempts, try again in 15 minutes');
  });

  test('forget_password is limited per IP across accounts', async () => {
    const answers = [];
    for (const email of ['a1@example.com', 'a2@example.com', 'a3@example.com', 'a4@example.com']) {
      answers.push((await s.call('POST', '/api/auth/forget_password', { email })).body.status);
    }
    expect(answers).toEqual([404, 404, 404, 429]);
  });
});

describe('session tokens expire: sliding idle time and a maximum age', () => {
  const HOUR = 3600_000;
  let clock = Date.UTC(2026, 5, 1);
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer('sqlite', { TOKEN_IDLE_DAYS: '1', TOKEN_MAX_AGE_DAYS: '3' }, { now: () => clock });
  });
  afterAll(async () => {
    await s.close();
  });
  const cart = async (token: string) => (await s.call('GET', '/api/order/get_cart', undefined, token)).body;

  test('each use within the idle time keeps the session; a day unused ends it with 401', async () => {
    const token = await s.login(ADA.email, ADA.password);
    for (let day = 0; day < 2; day += 1) {
      clock += 23 * HOUR;
      expect((await cart(token)).status).toBe(200);
    }
    clock += 25 * HOUR;
    expect(await cart(token)).toEqual({ status: 401, msg: 'Unauthorized', data: null });
    // Gone for good, even if the clock went back.
    clock -= 24 * HOUR;
    expect((await cart(token)).status).toBe(401);
  });

  test('however often it is used, a token ends at its maximum age', async () => {
    const token = await s.login(BEN.email, BEN.password);
    for (let step = 0; step < 3; step += 1) {
      clock += 23 * HOUR;
      expect((await cart(token)).status).toBe(200);
    }
    clock += 4 * HOUR;
    expect((await cart(token)).status).toBe(401);
    expect((await cart(await s.login(BEN.email, BEN.password))).status).toBe(200);
  });

  test('refused requests do not extend a session', async () => {
    const token = await s.login(ADA.email, ADA.password);
    clock += 20 * HOUR;
    // An admin-only call with a shopper's token is refused: the session's idle time keeps running.
    expect((await s.call('POST', '/api/goods/delete_goods', { goods_id: 1 }, token)).body.status).toBe(403);
    clock += 5 * HOUR;
    expect((await cart(token)).status).toBe(401);
  });
});

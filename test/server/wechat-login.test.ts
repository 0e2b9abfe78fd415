import { verifyOtp } from '../../server/messaging/otp';
import { WeChatFake, newWeChatKeys } from '../../server/sandbox/wechat';
import {
  ACCOUNT_LINKED_ELSEWHERE,
  BAD_WECHAT_CODE,
  OPENID_LINKED_ELSEWHERE,
  WECHAT_NICKNAME,
  WECHAT_NOT_CONFIGURED,
  WECHAT_UNREACHABLE,
} from '../../server/services/wechat-login';
import { ADA, BEN, type TestServer, startServer } from './helpers';

jest.setTimeout(120_000);

const BAD_CREDENTIALS = 'Wrong e-mail or password';

describe('Sign in with WeChat: wx.login codes exchanged through code2Session (a local fake of WeChat)', () => {
  let wechat: WeChatFake;
  let s: TestServer;
  const keys = newWeChatKeys();
  beforeAll(async () => {
    wechat = new WeChatFake(keys);
    await wechat.start();
    s = await startServer('sqlite', {
      WEAPP_APPID: keys.appid,
      WEAPP_SECRET: keys.secret,
      WEAPP_API_BASE: wechat.origin,
      AUTH_RATE_LIMIT_MAX: '1000',
    });
  });
  afterAll(async () => {
    await s?.close();
    await wechat?.close();
  });

  const phone = () => ({ appid: keys.appid, openid: WeChatFake.newOpenid() });
  const wxLogin = (body: Record<string, unknown>) => s.call('POST', '/api/wechat/login', body);
  const accounts = async () =>
    Number(
      (
        await s.handle.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  test('a new WeChat user is asked to choose; creating makes an account, and the next login signs in to it', async () => {
    const user = phone();
    const before = await accounts();
    const first = await wxLogin({ code: wechat.issueCode(user) });
    expect(first.body).toEqual({ status: 200, msg: 'ok', data: { outcome: 'unlinked', login: null } });
    expect(await accounts()).toBe(before);

    const created = await wxLogin({ code: wechat.issueCode(user), create: true });
    expect(created.body.status).toBe(200);
    expect(created.body.data.outcome).toBe('created');
    expect(created.body.data.login.nickname).toBe(WECHAT_NICKNAME);
    expect(await accounts()).toBe(before + 1);
    const me = await s.call('POST', '/api/user/user_show', {}, created.body.data.login.token);
    expect(me.body.data.user_id).toBe(created.body.data.login.user_id);

    const again = await wxLogin({ code: wechat.issueCode(user), create: true });
    expect(again.body.data.outcome).toBe('signed_in');
    expect(again.body.data.login.user_id).toBe(created.body.data.login.user_id);
    expect(await accounts()).toBe(before + 1);

    // The SDK connects with the WeChat identity the server keeps; an account without one has none.
    const proof = await s.call('POST', '/api/messaging/token', {}, again.body.data.login.token);
    expect(proof.body.data.wxmpId).toEqual(user);
    // The identity proof vouches for it: the messaging server records no other WeChat for this user.
    expect(verifyOtp(proof.body.data.otp, s.config.otpSecret)?.wxmp).toBe(`${user.appid}:${user.openid}`);
    const plain = await s.call('POST', '/api/messaging/token', {}, await s.login(BEN.email, BEN.password));
    expect(plain.body.data.wxmpId).toBeNull();
  });

  test('linking needs the account password: a wrong one links nothing; the right one links and signs in', async () => {
    const user = phone();
    const wrong = await wxLogin({ code: wechat.issueCode(user), email: ADA.email, password: 'not-her-password1' });
    expect(wrong.body).toEqual({ status: 400, msg: BAD_CREDENTIALS, data: null });
    const unknown = await wxLogin({ code: wechat.issueCode(user), email: 'nobody@example.com', password: 'x1x1x1x1' });
    expect(unknown.body).toEqual({ status: 400, msg: BAD_CREDENTIALS, data: null });
    expect((await wxLogin({ code: wechat.issueCode(user) })).body.data.outcome).toBe('unlinked');

    const linked = await wxLogin({ code: wechat.issueCode(user), email: ADA.email, password: ADA.password });
    expect(linked.body.data.outcome).toBe('linked');
    expect(linked.body.data.login.email).toBe(ADA.email);
    const next = await wxLogin({ code: wechat.issueCode(user) });
    expect(next.body.data).toMatchObject({ outcome: 'signed_in', login: { email: ADA.email } });

    // One WeChat per account and one account per WeChat.
    const other = await wxLogin({ code: wechat.issueCode(phone()), email: ADA.email, password: ADA.password });
    expect(other.body).toEqual({ status: 409, msg: ACCOUNT_LINKED_ELSEWHERE, data: null });
    const elsewhere = await wxLogin({ code: wechat.issueCode(user), email: BEN.email, password: BEN.password });
    expect(elsewhere.body).toEqual({ status: 409, msg: OPENID_LINKED_ELSEWHERE, data: null });
  });

  test('a code is good once, for its own mini-program only; a made-up code signs nobody in', async () => {
    const user = phone();
    const code = wechat.issueCode(user);
    expect((await wxLogin({ code, create: true })).body.data.outcome).toBe('created');
    expect((await wxLogin({ code })).body).toEqual({ status: 400, msg: BAD_WECHAT_CODE, data: null });
    expect((await wxLogin({ code: 'madeUpCode123' })).body).toEqual({ status: 400, msg: BAD_WECHAT_CODE, data: null });
    const foreign = wechat.issueCode({ appid: 'wx00000000000000ff', openid: user.openid });
    expect((await wxLogin({ code: foreign })).body).toEqual({ status: 400, msg: BAD_WECHAT_CODE, data: null });
  });

  test.each([
    [{}, 'code: is required'],
    [{ code: '' }, 'code: is required'],
    [{ code: 42 }, 'code: Expected string, received number'],
    [{ code: 'abc&appid=wx00000000000000ff' }, 'code: is not a wx.login code'],
    [{ code: '../../cgi-bin/token' }, 'code: is not a wx.login code'],
    [{ code: 'a'.repeat(129) }, 'code: is not a wx.login code'],
    [{ code: 'abc', email: ADA.email }, 'password: is required'],
    [{ code: 'abc', password: 'whatever1' }, 'email: is required'],
    [
      { code: 'abc', email: ADA.email, password: ADA.password, create: true },
      'create: link an existing account or create a new one, not both',
    ],
    [{ code: 'abc', create: 'yes' }, 'create: Expected boolean, received string'],
  ])('refuses %j before asking WeChat', async (body, msg) => {
    const asked = wechat.exchanges.length;
    const answer = await wxLogin(body);
    expect(answer.body).toEqual({ status: 400, msg, data: null });
    expect(wechat.exchanges.length).toBe(asked);
  });

  test('an openid never comes from the client: extra fields are ignored', async () => {
    const user = phone();
    const answer = await wxLogin({ code: wechat.issueCode(user), openid: 'oAttackerChosen', create: true });
    expect(answer.body.data.outcome).toBe('created');
    const proof = await s.call('POST', '/api/messaging/token', {}, answer.body.data.login.token);
    expect(proof.body.data.wxmpId).toEqual(user);
  });
});

describe('Sign in with WeChat: limits and configuration', () => {
  const keys = newWeChatKeys();
  let wechat: WeChatFake;
  let s: TestServer;
  beforeAll(async () => {
    wechat = new WeChatFake(keys);
    await wechat.start();
    s = await startServer('sqlite', {
      WEAPP_APPID: keys.appid,
      WEAPP_SECRET: keys.secret,
      WEAPP_API_BASE: wechat.origin,
      AUTH_RATE_LIMIT_MAX: '3',
    });
  });
  afterAll(async () => {
    await s?.close();
    await wechat?.close();
  });

  test('link attempts are rate-limited per client like login, and wrong passwords count against the account', async () => {
    const user = { appid: keys.appid, openid: WeChatFake.newOpenid() };
    const statuses = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const answer = await s.call('POST', '/api/wechat/login', {
        code: wechat.issueCode(user),
        email: BEN.email,
        password: `guess-${attempt}x`,
      });
      statuses.push(answer.body.status);
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
  });

  test('without WEAPP_APPID the route says WeChat login is not configured; an unreachable WeChat is a clear 503', async () => {
    const plain = await startServer('sqlite');
    try {
      const answer = await plain.call('POST', '/api/wechat/login', { code: 'abc' });
      expect(answer.body).toEqual({ status: 503, msg: WECHAT_NOT_CONFIGURED, data: null });
    } finally {
      await plain.close();
    }
    const gone = await startServer('sqlite', {
      WEAPP_APPID: keys.appid,
      WEAPP_SECRET: keys.secret,
      WEAPP_API_BASE: 'http://127.0.0.1:9',
    });
    try {
      const answer = await gone.call('POST', '/api/wechat/login', { code: 'abc' });
      expect(answer.body).toEqual({ status: 503, msg: WECHAT_UNREACHABLE, data: null });
    } finally {
      await gone.close();
    }
  });

  test('a wrong AppSecret is WeChat refusing the login, never a sign-in', async () => {
    const wrong = await startServer('sqlite', {
      WEAPP_APPID: keys.appid,
      WEAPP_SECRET: 'not-the-secret',
      WEAPP_API_BASE: wechat.origin,
    });
    try {
      const answer = await wrong.call('POST', '/api/wechat/login', {
        code: wechat.issueCode({ appid: keys.appid, openid: WeChatFake.newOpenid() }),
        create: true,
      });
      expect(answer.body).toEqual({
        status: 503,
        msg: 'WeChat refused the login (40125), please try again later',
        data: null,
      });
    } finally {
      await wrong.close();
    }
  });
});

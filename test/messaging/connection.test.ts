import { issueOtp } from '../../server/messaging/otp';
import { Client, type TestServer, connected, removeDir, sleep, startServer } from './helpers';

describe('authorize', () => {
  let server: TestServer;
  const clients: Client[] = [];
  const track = (client: Client) => {
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    server = await startServer({ MESSAGING_SESSION_WINDOW_MS: '1500' });
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });
  afterAll(async () => {
    await server.close();
    removeDir(server.dir);
  });

  it('answers the publish+subscribe key with a sid, a server marker and both permissions', async () => {
    const client = track(new Client(server.url));
    const ack = await client.authorize({ userId: 'u1', userData: '{"name":"Ann"}', otp: server.otp('u1') });
    expect(ack).toMatchObject({ resultCode: 200, enablePublish: true, enableSubscribe: true });
    expect(typeof ack.sid).toBe('string');
    expect(typeof ack.sm).toBe('string');
  });

  it('gives the subscribe-only key no publish permission, and refuses its publish with 401', async () => {
    const client = track(new Client(server.url));
    const ack = await client.authorize({ appkey: 'BS-lensmate-demo', userId: 'u2', otp: server.otp('u2') });
    expect(ack).toMatchObject({ resultCode: 200, enablePublish: false, enableSubscribe: true });
    const publish = await client.request('publish', { channel: 'c', content: 'hi', guid: 'g-bs' });
    expect(publish).toMatchObject({ code: 401, content: 'No permission' });
  });

  it('refuses an unknown app key with a failure code and content', async () => {
    const client = track(new Client(server.url));
    const ack = await client.authorize({ appkey: 'nope', userId: 'u3' });
    expect(ack).toMatchObject({ resultCode: 401, content: 'Invalid appkey' });
  });

  it('refuses requests before authorize with 409', async () => {
    const client = track(new Client(server.url));
    const ack = await client.request('subscribe', { channels: ['a'] });
    expect(ack).toMatchObject({ code: 409, content: 'Please connect first' });
  });

  it('applies the connect validations of §5', async () => {
    const client = track(new Client(server.url));
    expect(await client.authorize({ userId: 'x', userData: '[1]' })).toMatchObject({
      code: 400,
      content: 'TypeError: data requires an object.',
    });
    expect(await client.authorize({ userId: 'x', userData: JSON.stringify({ a: 'y'.repeat(300) }) })).toMatchObject({
      code: 400,
      content: 'user.data-length limit 300 byte.',
    });
    expect(await client.authorize({ userId: 'x'.repeat(61), modules: ['PUBSUB'] })).toMatchObject({
      code: 400,
      content: 'id over max length 60',
    });
    expect(await client.authorize({ userId: 'x', wxmpId: { openid: 'o' } })).toMatchObject({
      code: 400,
      content: 'wxmpId.appid is required.',
    });
    expect(await client.authorize({ userId: 'x', wxmpId: { appid: 'a' } })).toMatchObject({
      code: 400,
      content: 'wxmpId.openid is required. requires string.',
    });
  });

  it('keeps the sid on a reconnect within the window, with the channel subscriptions, and issues a new one after it', async () => {
    const first = track(new Client(server.url));
    const otp = server.otp('r1');
    const ack = await first.authorize({ userId: 'r1', otp });
    expect(await first.request('subscribe', { channels: ['news'] })).toMatchObject({ code: 200 });
    first.close();
    await sleep(100);

    const again = track(new Client(server.url));
    // The client resends the proof it connected with, as the SDK and the 2.8.3 client do.
    const reconnected = await again.authorize({ userId: 'r1', sid: ack.sid, sm: ack.sm, otp });
    expect(reconnected.sid).toBe(ack.sid);
    expect(reconnected.sm).toBe(ack.sm);
    // Nothing resubscribed, yet the channel still delivers.
    const { client: publisher } = await connected(server.url, 'p1');
    track(publisher);
    await publisher.request('publish', { channel: 'news', content: 'still here', guid: 'g-reconnect' });
    const [message] = await again.waitFor('message');
    expect(message).toMatchObject({ n: 'news', c: 'still here' });

    again.close();
    await sleep(1700);
    const late = track(new Client(server.url));
    const expired = await late.authorize({ userId: 'r1', sid: ack.sid, otp: server.otp('r1') });
    expect(expired.resultCode).toBe(200);
    expect(expired.sid).not.toBe(ack.sid);
  });

  it('resumes a session whose old connection the server still holds open, with its channels', async () => {
    // The client's network dropped and it reconnected before the server noticed: the old socket is still here.
    const first = track(new Client(server.url));
    const otp = server.otp('r2');
    const ack = await first.authorize({ userId: 'r2', otp });
    expect(await first.request('subscribe', { channels: ['live-news'], presence: { enable: true } })).toMatchObject({
      code: 200,
    });
    const again = track(new Client(server.url));
    const resumed = await again.authorize({ userId: 'r2', sid: ack.sid, sm: ack.sm, otp });
    expect(resumed).toMatchObject({ resultCode: 200, sid: ack.sid });
    // Subscribed with presence as before, without asking.
    const { client: publisher } = await connected(server.url, 'p2');
    track(publisher);
    await publisher.request('publish', { channel: 'live-news', content: 'for both', guid: 'g-live' });
    expect((await again.waitFor('message'))[0]).toMatchObject({ n: 'live-news', c: 'for both' });
    expect(await server.io.in('chm:live-news').fetchSockets()).toHaveLength(2);
    // Another user naming the live sid gets a session of their own.
    const thief = track(new Client(server.url));
    const stolen = await thief.authorize({ userId: 'mallory', sid: ack.sid, otp: server.otp('mallory') });
    expect(stolen.sid).not.toBe(ack.sid);
    // The old socket goes at last; a reconnect after it resumes the newer one's session.
    first.close();
    await sleep(100);
    again.close();
    await sleep(100);
    const third = track(new Client(server.url));
    expect(await third.authorize({ userId: 'r2', sid: ack.sid, otp })).toMatchObject({ resultCode: 200, sid: ack.sid });
    await publisher.request('publish', { channel: 'live-news', content: 'still', guid: 'g-live-2' });
    expect((await third.waitFor('message'))[0]).toMatchObject({ c: 'still' });
  });

  it('does not hand a sid to another user', async () => {
    const { client, ack } = await connected(server.url, 'owner');
    track(client);
    const other = track(new Client(server.url));
    const answer = await other.authorize({ userId: 'thief', sid: ack.sid, otp: server.otp('thief') });
    expect(answer.sid).not.toBe(ack.sid);
  });

  it('ends the session on manualDisconnect, so the next connect gets a new sid', async () => {
    const { client, ack } = await connected(server.url, 'md');
    track(client);
    expect(await client.request('manualDisconnect', {})).toMatchObject({ code: 200 });
    client.close();
    const next = track(new Client(server.url));
    const answer = await next.authorize({ userId: 'md', sid: ack.sid, otp: server.otp('md') });
    expect(answer.sid).not.toBe(ack.sid);
  });

  it('answers a request it does not support with 400 instead of leaving the client to time out', async () => {
    const { client } = await connected(server.url, 'curious');
    track(client);
    expect(await client.request('RTC_DIAL', {})).toMatchObject({ code: 400, content: 'Unsupported request: RTC_DIAL' });
  });

  it('accepts polling clients as well as websocket', async () => {
    const client = track(new Client(server.url, { transports: ['polling'] }));
    expect(await client.authorize({ userId: 'poll', otp: server.otp('poll') })).toMatchObject({ resultCode: 200 });
  });
});

describe('authorize with a required otp', () => {
  let server: TestServer;
  const secret = 'a-test-secret-of-sufficient-length';
  const clients: Client[] = [];

  beforeAll(async () => {
    server = await startServer({ MESSAGING_REQUIRE_OTP: '1', MESSAGING_OTP_SECRET: secret });
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await server.close();
    removeDir(server.dir);
  });

  it('accepts the user the otp names and refuses any other id with 401', async () => {
    const good = new Client(server.url);
    clients.push(good);
    expect(await good.authorize({ userId: 'alice', otp: issueOtp('alice', secret) })).toMatchObject({
      resultCode: 200,
    });
    const impostor = new Client(server.url);
    clients.push(impostor);
    expect(await impostor.authorize({ userId: 'bob', otp: issueOtp('alice', secret) })).toMatchObject({
      resultCode: 401,
      content: 'No permission',
    });
    const missing = new Client(server.url);
    clients.push(missing);
    expect(await missing.authorize({ userId: 'alice' })).toMatchObject({ resultCode: 401 });
    const expired = new Client(server.url);
    clients.push(expired);
    expect(await expired.authorize({ userId: 'alice', otp: issueOtp('alice', secret, -1) })).toMatchObject({
      resultCode: 401,
    });
  });

  it('records only the WeChat identity the proof vouches for: nobody can have another person notified', async () => {
    const wxmpOf = async (userId: string) =>
      server.db.db.selectFrom('msg_user_wxmp').selectAll().where('user_id', '=', userId).executeTakeFirst();
    const owner = new Client(server.url);
    clients.push(owner);
    const wxmpId = { appid: 'wx0123456789abcdef', openid: 'oVOUCHED' };
    const proof = issueOtp('dora', secret, 60_000, Date.now(), '', `${wxmpId.appid}:${wxmpId.openid}`);
    expect(await owner.authorize({ userId: 'dora', otp: proof, wxmpId })).toMatchObject({ resultCode: 200 });
    expect(await wxmpOf('dora')).toMatchObject({ appid: wxmpId.appid, openid: 'oVOUCHED' });

    const claimer = new Client(server.url);
    clients.push(claimer);
    const claimed = { appid: wxmpId.appid, openid: 'oSOMEONE-ELSE' };
    expect(await claimer.authorize({ userId: 'eve', otp: issueOtp('eve', secret), wxmpId: claimed })).toMatchObject({
      resultCode: 200,
    });
    expect(await wxmpOf('eve')).toBeUndefined();
  });

  it('resumes a live session on reconnect even when the original otp has expired since', async () => {
    const first = new Client(server.url);
    clients.push(first);
    const original = issueOtp('carol', secret, 300);
    const ack = await first.authorize({ userId: 'carol', otp: original });
    first.close();
    await sleep(400);
    // Another expired proof of hers is not the one the session was opened with: no resume, no new session.
    const other = new Client(server.url);
    clients.push(other);
    const otherProof = issueOtp('carol', secret, -1, Date.now() - 1000);
    expect(await other.authorize({ userId: 'carol', otp: otherProof, sid: ack.sid })).toMatchObject({
      resultCode: 401,
    });
    const again = new Client(server.url);
    clients.push(again);
    const resumed = await again.authorize({ userId: 'carol', otp: original, sid: ack.sid });
    expect(resumed).toMatchObject({ resultCode: 200, sid: ack.sid });
    const stranger = new Client(server.url);
    clients.push(stranger);
    expect(await stranger.authorize({ userId: 'mallory', otp: 'x', sid: ack.sid })).toMatchObject({ resultCode: 401 });
  });
});

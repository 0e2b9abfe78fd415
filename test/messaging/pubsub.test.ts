import { fastBroadcastWrites } from '../../server/messaging/broadcast-frames';
import { Eio3Client } from './eio3';
import { type Client, type TestServer, connected, removeDir, sleep, startServer } from './helpers';

/** The external hand-offs run after the ack; poll until the outbox has rows. */
async function eventually<T>(query: () => Promise<T[]>): Promise<T[]> {
  for (let waited = 0; waited < 3000; waited += 20) {
    const rows = await query();
    if (rows.length > 0) return rows;
    await sleep(20);
  }
  return query();
}

describe('pub/sub', () => {
  let server: TestServer;
  const clients: { close(): void }[] = [];
  async function user(id?: string, extra: Record<string, unknown> = {}) {
    const { client } = await connected(server.url, id, extra);
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    // Bursts of a dozen publishes from one connection: above the default flood limit, which
    // test/security/messaging-limits.test.ts holds to; 'tpl' is the one template id allowed.
    server = await startServer({ MESSAGING_RATE_PER_CONNECTION: '100', MESSAGING_WXMP_TEMPLATE_IDS: 'tpl' });
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });
  afterAll(async () => {
    await server.close();
    removeDir(server.dir);
  });

  it('delivers a publish to every subscriber with n, c, t, i and the notification', async () => {
    const a = await user('a');
    const b = await user('b');
    expect(await a.request('subscribe', { channels: ['room1'] })).toMatchObject({ code: 200 });
    expect(await b.request('subscribe', { channel: 'room1' })).toMatchObject({ code: 200 });
    const directBefore = fastBroadcastWrites();
    const ack = await b.request('publish', {
      channel: 'room1',
      content: 'hello',
      guid: 'guid-1',
      nt: { title: 'T', body: 'B' },
    });
    expect(ack).toMatchObject({ code: 200, publishGuid: 'guid-1' });
    const [message] = await a.waitFor('message');
    expect(message).toMatchObject({
      n: 'room1',
      c: 'hello',
      i: 'guid-1',
      nt: { t: 'T', c: 'B', badge: '0' },
    });
    // qos 0: no `a` on the wire (a missing `a` reads as false).
    expect(message).not.toHaveProperty('a');
    expect(typeof message.t).toBe('number');
    await b.waitFor('message');
    // The push went to each subscriber's websocket directly (server/messaging/broadcast-frames.ts).
    expect(fastBroadcastWrites() - directBefore).toBe(2);
    const outbox = await eventually(() =>
      server.db.db.selectFrom('msg_outbox').selectAll().where('kind', '=', 'push').execute(),
    );
    expect(outbox.map((row) => row.recipient)).toContain('channel:room1');
  });

  it('creates one message for a resent guid and acks it the same way', async () => {
    const a = await user('dup-a');
    await a.request('subscribe', { channels: ['dup'] });
    const first = await a.request('publish', { channel: 'dup', content: 'once', guid: 'same-guid' });
    const retry = await a.request('publish', { channel: 'dup', content: 'once', guid: 'same-guid', retried: 1 });
    expect(retry).toEqual(first);
    await sleep(200);
    expect(a.count('message')).toBe(1);
    const history = await a.request('historyMessages', { channel: 'dup' });
    expect(history.content.messages).toHaveLength(1);
  });

  it('delivers a guid once when its resend arrives while the first publish is still under way', async () => {
    const a = await user('race-a');
    const b = await user('race-b');
    await a.request('subscribe', { channels: ['race'] });
    // Both on the wire before either is answered: the push goes out before the history row is written.
    const [first, resend] = await Promise.all([
      b.request('publish', { channel: 'race', content: 'once', guid: 'race-guid' }),
      b.request('publish', { channel: 'race', content: 'once', guid: 'race-guid', retried: 1 }),
    ]);
    expect(resend).toEqual(first);
    expect(first).toMatchObject({ code: 200, publishGuid: 'race-guid' });
    await sleep(200);
    expect(a.count('message')).toBe(1);
    const history = await a.request('historyMessages', { channel: 'race' });
    expect(history.content.messages).toEqual([{ time: expect.any(Number), content: 'once' }]);
  });

  it('stops delivering after unsubscribe and refuses to unsubscribe an unknown channel', async () => {
    const a = await user('un-a');
    await a.request('subscribe', { channels: ['gone'] });
    expect(await a.request('unsubscribe', { channel: 'gone' })).toMatchObject({ code: 200 });
    await a.request('publish', { channel: 'gone', content: 'x', guid: 'g-gone' });
    await sleep(150);
    expect(a.count('message')).toBe(0);
    expect(await a.request('unsubscribe', { channel: 'never' })).toMatchObject({
      code: 400,
      content: 'channel[never] is not subscribed',
    });
  });

  it('keeps a persisted history, newest last, limited to 10 by default', async () => {
    const a = await user('h-a');
    for (let i = 0; i < 12; i += 1) {
      await a.request('publish', { channel: 'hist', content: `m${i}`, guid: `hist-${i}` });
    }
    const history = await a.request('historyMessages', { channel: 'hist' });
    expect(history.content.messages.map((m: { content: string }) => m.content)).toEqual(
      Array.from({ length: 10 }, (_, i) => `m${i + 2}`),
    );
    const three = await a.request('historyMessages', { channel: 'hist', limit: 3 });
    expect(three.content.messages).toHaveLength(3);
  });

  it('sends presence join and leave events with amounts, and here-now with a default limit of 10', async () => {
    const watcher = await user('watcher');
    expect(await watcher.request('PUBSUB_PRESENCE_SUBSCRIBE', { channel: 'lobby' })).toMatchObject({ code: 200 });
    const members: Client[] = [];
    for (let i = 0; i < 11; i += 1) {
      const member = await user(`m${i}`);
      await member.request('subscribe', { channels: ['lobby'], presence: { enable: true } });
      members.push(member);
    }
    const joins = await watcher.waitFor('PS_PRESENCE_EVENT', 11);
    expect(joins[10]).toMatchObject({
      channel: 'lobby',
      action: 'join',
      member: { id: 'm10', data: { name: 'm10' } },
      amount: 11,
    });
    const hereNow = await watcher.request('PUBSUB_PRESENCE_HERENOW', { channel: 'lobby' });
    expect(hereNow.content.amount).toBe(11);
    expect(hereNow.content.members).toHaveLength(10);
    const two = await watcher.request('PUBSUB_PRESENCE_HERENOW', { channel: 'lobby', limit: 2 });
    expect(two.content.members).toHaveLength(2);
    members[0].close();
    const events = await watcher.waitFor('PS_PRESENCE_EVENT', 12);
    expect(events[11]).toMatchObject({ action: 'leave', member: { id: 'm0' }, amount: 10 });
  });

  it('refuses presence to anonymous users and checks presence.enable', async () => {
    const anonymous = await user(undefined);
    expect(await anonymous.request('subscribe', { channels: ['p'], presence: { enable: true } })).toMatchObject({
      code: 400,
      content: 'Subscription failed. If presence is enable, the id must be specified when calling the connect method',
    });
    const named = await user('pe');
    expect(await named.request('subscribe', { channels: ['p'], presence: { enable: 'yes' } })).toMatchObject({
      code: 400,
      content: 'Subscription failed. presence.enable must be a boolean',
    });
  });

  it('answers every publish and subscribe validation with code 400 and the exact message', async () => {
    const a = await user('v');
    const cases: [string, Record<string, unknown>, string][] = [
      ['subscribe', {}, 'channel is required.'],
      ['subscribe', { channel: 'a', channels: ['b'] }, 'subscribe to either channel or channels, not both.'],
      ['subscribe', { channels: ['a', 'a'] }, 'Duplicate element in channels'],
      ['subscribe', { channels: ['a', ''] }, 'channels has empty item.'],
      ['subscribe', { channels: Array.from({ length: 301 }, (_, i) => `c${i}`) }, 'channels is over max length 500.'],
      ['subscribe', { channels: [{}] }, 'TypeError: channels item require string or number.'],
      ['publish', { content: 'x' }, ' channel is required.'],
      ['publish', { channel: 'c' }, 'message is required.'],
      ['publish', { channel: 'c', content: 5 }, 'TypeError: message requires string.'],
      ['publish', { channel: 'c', content: 'x'.repeat(10001) }, 'Message over max length 10000.'],
      ['publish', { channel: 'c', content: 'x', q: 2 }, 'Qos must be 0 or 1.'],
      ['publish', { channel: 'c', content: 'x', nt: 'no' }, 'TypeError: notification requires an object.'],
      [
        'publish',
        { channel: 'c', content: 'x', nt: { title: 't'.repeat(33), body: 'b' } },
        'notification.title must be a string of no more than 32 characters',
      ],
      [
        'publish',
        { channel: 'c', content: 'x', nt: { title: 't', body: 'b'.repeat(51) } },
        'notification.body must be a string of no more than 50 characters',
      ],
      [
        'publish',
        { channel: 'c', content: 'x', nt: { title: 't', body: 'b', badge: 1 } },
        'notification.badge must be a string',
      ],
      [
        'publish',
        { channel: 'c', content: 'x', nt: { title: 't', body: 'b', vendorOptions: { vivo: { classification: '1' } } } },
        'notification.vendorOptions.vivo.classification require a number}',
      ],
      ['publish', { channel: 'c', content: 'x', wxmpTemplateMsg: { template_id: 1 } }, 'template_id must be string.'],
      [
        'publish',
        { channel: 'c', content: 'x', wxmpTemplateMsg: { template_id: 't', data: '"s"' } },
        'data requires an object.',
      ],
    ];
    for (const [event, payload, content] of cases) {
      expect([event, await a.request(event, payload)]).toEqual([
        event,
        expect.objectContaining({ code: 400, content }),
      ]);
    }
  });

  it('hands wxmpTemplateMsg to the WeChat adapter (the offline outbox)', async () => {
    const a = await user('wx');
    const ack = await a.request('publish', {
      channel: 'wxc',
      content: 'x',
      guid: 'wx-guid',
      wxmpTemplateMsg: { template_id: 'tpl', data: JSON.stringify({ first: { value: 'v' } }) },
    });
    expect(ack.code).toBe(200);
    const [row] = await eventually(() =>
      server.db.db.selectFrom('msg_outbox').selectAll().where('kind', '=', 'wxmp').execute(),
    );
    expect(JSON.parse(row.body)).toMatchObject({ template_id: 'tpl', data: { first: { value: 'v' } } });
  });

  it('redelivers a qos 1 message until the subscriber acks it', async () => {
    const a = await user('q-a');
    await a.request('subscribe', { channels: ['qos'] });
    await a.request('publish', { channel: 'qos', content: 'important', guid: 'qos-1', q: 1 });
    const deliveries = await a.waitFor('message', 2, 4000);
    expect(deliveries[0]).toMatchObject({ i: 'qos-1', a: true });
    a.socket.emit('ack', { publishGuid: 'qos-1' });
    const seen = a.count('message');
    await sleep(2000);
    expect(a.count('message')).toBe(seen);
  });

  it('serves protocol-3 (engine.io 3) clients on the same events', async () => {
    const legacy = new Eio3Client(server.url);
    clients.push(legacy);
    await legacy.ready;
    const ack = await legacy.request('authorize', {
      appkey: 'BC-lensmate-demo',
      userId: 'old',
      userData: '{}',
      otp: server.otp('old'),
      modules: ['PUBSUB'],
    });
    expect(ack).toMatchObject({ resultCode: 200, enablePublish: true });
    expect(await legacy.request('subscribe', { channels: ['legacy'] })).toMatchObject({ code: 200 });
    const modern = await user('new');
    await modern.request('publish', { channel: 'legacy', content: 'to v2', guid: 'eio3-1' });
    const [message] = await legacy.waitFor('message');
    expect(message).toMatchObject({ n: 'legacy', c: 'to v2' });
  });
});

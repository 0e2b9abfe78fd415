import { type Client, type TestServer, connected, removeDir, sleep, startServer } from './helpers';

const text = (value: string) => JSON.stringify({ text: value });

describe('IM', () => {
  let server: TestServer;
  const clients: Client[] = [];
  let seq = 0;
  async function user(id: string, extra: Record<string, unknown> = {}) {
    const { client } = await connected(server.url, id, extra);
    clients.push(client);
    return client;
  }
  function send(client: Client, to: string, body: string, extra: Record<string, unknown> = {}) {
    seq += 1;
    return client.request('publishIM', {
      mt: 'text',
      to,
      d: JSON.stringify({ name: to }),
      p: text(body),
      t: 'private',
      guid: `guid-${seq}-${Date.now()}`,
      ...extra,
    });
  }

  beforeAll(async () => {
    // History paging sends 35 messages from one connection at once: above the default flood limit, which
    // test/security/messaging-limits.test.ts holds to.
    server = await startServer({ MESSAGING_RATE_PER_CONNECTION: '100', MESSAGING_RATE_PER_USER: '100' });
  });
  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });
  afterAll(async () => {
    await server.close();
    removeDir(server.dir);
  });

  it('delivers a private message to every device of the receiver and to the sender’s other devices', async () => {
    const alice = await user('alice');
    const alicePhone = await user('alice');
    const bob = await user('bob');
    const bobPad = await user('bob');
    const ack = await send(alice, 'bob', 'hi bob', { guid: 'pm-1' });
    expect(ack).toMatchObject({ code: 200 });
    expect(typeof ack.content.timestamp).toBe('number');
    for (const device of [bob, bobPad, alicePhone]) {
      const [message] = await device.waitFor('imMessage');
      expect(message).toMatchObject({
        t: 'private',
        r: 'bob',
        s: 'alice',
        i: 'pm-1',
        mt: 'text',
        ts: ack.content.timestamp,
      });
      expect(JSON.parse(message.p)).toEqual({ text: 'hi bob' });
    }
    await sleep(100);
    expect(alice.count('imMessage')).toBe(0);
  });

  it('gives a message sent while the receiver is offline exactly once when they come back', async () => {
    const sender = await user('carl');
    await send(sender, 'dora', 'while you were away', { guid: 'offline-1' });
    const dora = await user('dora');
    const [message] = await dora.waitFor('imMessage');
    expect(message).toMatchObject({ i: 'offline-1', s: 'carl' });
    await sleep(1200);
    expect(dora.count('imMessage')).toBe(1);
    dora.close();
    const doraAgain = await user('dora');
    await sleep(600);
    expect(doraAgain.count('imMessage')).toBe(0);
  });

  it('delivers again a message that is not acknowledged', async () => {
    const sender = await user('erin');
    const frank = await user('frank', { autoAckIm: false });
    await send(sender, 'frank', 'ack me', { guid: 'unacked-1' });
    const deliveries = await frank.waitFor('imMessage', 2, 3000);
    expect(deliveries.every((message) => message.i === 'unacked-1')).toBe(true);
    frank.socket.emit('imAck', { publishGuid: 'unacked-1' });
    await sleep(200);
    const seen = frank.count('imMessage');
    await sleep(1000);
    expect(frank.count('imMessage')).toBe(seen);
  });

  it('stores one message for a resent guid and answers the same timestamp', async () => {
    const gina = await user('gina');
    const hank = await user('hank');
    const first = await send(gina, 'hank', 'once', { guid: 'dup-im' });
    const again = await send(gina, 'hank', 'once', { guid: 'dup-im', retried: 1 });
    expect(again.content.timestamp).toBe(first.content.timestamp);
    await sleep(200);
    expect(hank.count('imMessage')).toBe(1);
    const history = await hank.request('IM_HISTORY', { id: 'gina', scene: 'private' });
    expect(history.content.messages).toHaveLength(1);
  });

  it('pages history with a default limit of 10 and a cap of 30, oldest first', async () => {
    const ivy = await user('ivy');
    const stamps: number[] = [];
    for (let i = 0; i < 35; i += 1) stamps.push((await send(ivy, 'jack', `n${i}`)).content.timestamp);
    const latest = await ivy.request('IM_HISTORY', { id: 'jack', scene: 'private' });
    expect(latest.content.messages.map((m: { ts: number }) => m.ts)).toEqual(stamps.slice(25));
    const capped = await ivy.request('IM_HISTORY', { id: 'jack', scene: 'private', limit: 50 });
    expect(capped.content.messages).toHaveLength(30);
    const older = await ivy.request('IM_HISTORY', {
      id: 'jack',
      scene: 'private',
      lastTimestamp: stamps[5],
      limit: 10,
    });
    expect(older.content.messages.map((m: { ts: number }) => m.ts)).toEqual(stamps.slice(0, 5));
  });

  it('moves read marks only forward and pushes IM_MSG_READ to the peer', async () => {
    const kim = await user('kim');
    const leo = await user('leo');
    const sent = await send(kim, 'leo', 'read me');
    const ts = sent.content.timestamp;
    expect(await leo.request('IM_MARK_AS_READ', { id: 'kim', scene: 'private', lastTimestamp: ts })).toMatchObject({
      code: 200,
    });
    const [read] = await kim.waitFor('IM_MSG_READ');
    expect(read).toMatchObject({ scene: 'private', targetId: 'kim', markerId: 'leo', time: ts });
    await leo.request('IM_MARK_AS_READ', { id: 'kim', scene: 'private', lastTimestamp: ts - 1000 });
    const history = await kim.request('IM_HISTORY', { id: 'leo', scene: 'private' });
    expect(history.content.userOffsets).toEqual([{ userId: 'leo', offset: ts }]);
    await sleep(100);
    expect(kim.count('IM_MSG_READ')).toBe(1);
  });

  it('lets only the sender recall, once, and pushes IM_MSG_RECALLED', async () => {
    const max = await user('max');
    const nia = await user('nia');
    const { content } = await send(max, 'nia', 'oops');
    expect(
      await nia.request('IM_RECALL_MESSAGE', { scene: 'private', targetId: 'max', times: [content.timestamp] }),
    ).toMatchObject({
      code: 400,
      content: 'it is not allowed to recall messages sent by others',
    });
    expect(
      await max.request('IM_RECALL_MESSAGE', { scene: 'private', targetId: 'nia', times: [content.timestamp] }),
    ).toMatchObject({
      code: 200,
    });
    const [recalled] = await nia.waitFor('IM_MSG_RECALLED');
    expect(recalled).toMatchObject({
      scene: 'private',
      conversationId: 'nia:max',
      recaller: { id: 'max', data: { name: 'max' } },
      times: [content.timestamp],
    });
    expect(
      await max.request('IM_RECALL_MESSAGE', { scene: 'private', targetId: 'nia', times: [content.timestamp] }),
    ).toMatchObject({
      code: 400,
      content: 'message[0] has been recalled',
    });
    expect(await max.request('IM_RECALL_MESSAGE', { scene: 'cs', targetId: 'nia', times: [1] })).toMatchObject({
      code: 400,
      content: 'Recall CS message is not supported yet.',
    });
    expect(await max.request('IM_RECALL_MESSAGE', { scene: 'private', targetId: 'nia', times: [1] })).toMatchObject({
      code: 400,
      content: 'it is invalid message',
    });
    const history = await nia.request('IM_HISTORY', { id: 'max', scene: 'private' });
    expect(history.content.messages[0]).toMatchObject({ rc: true, recaller: { id: 'max' } });
    const change = await nia.request('IM_HISTORY_CHANGE', {
      scene: 'private',
      id: 'max',
      after: content.timestamp,
      min: 0,
    });
    expect(change.content.recalledMessages).toEqual([
      { recaller: { id: 'max', data: { name: 'max' } }, times: [content.timestamp] },
    ]);
  });

  it('deletes at most 20 messages for the deleter only and tells their other devices', async () => {
    const oli = await user('oli');
    const oliPad = await user('oli');
    const pam = await user('pam');
    const first = await send(oli, 'pam', 'keep for pam');
    await send(oli, 'pam', 'second');
    const ack = await oli.request('IM_DELETE_MESSAGE', {
      scene: 'private',
      targetId: 'pam',
      times: [first.content.timestamp],
    });
    expect(ack.code).toBe(200);
    const [deleted] = await oliPad.waitFor('IM_MSG_DELETED');
    expect(deleted).toMatchObject({
      scene: 'private',
      targetId: 'pam',
      deleterId: 'oli',
      times: [first.content.timestamp],
    });
    const mine = await oli.request('IM_HISTORY', { id: 'pam', scene: 'private' });
    expect(mine.content.messages).toHaveLength(1);
    const theirs = await pam.request('IM_HISTORY', { id: 'oli', scene: 'private' });
    expect(theirs.content.messages).toHaveLength(2);
    const change = await oli.request('IM_HISTORY_CHANGE', { scene: 'private', id: 'pam', after: Date.now(), min: 0 });
    expect(change.content.deletedMessageTimes).toEqual([first.content.timestamp]);
    const tooMany = Array.from({ length: 21 }, (_, i) => i + 1);
    expect(await oli.request('IM_DELETE_MESSAGE', { scene: 'private', targetId: 'pam', times: tooMany })).toMatchObject(
      {
        code: 400,
        content: 'The maximum number of messages is 20',
      },
    );
    expect(await oli.request('IM_DELETE_MESSAGE', { scene: 'private', targetId: 'pam', times: [1] })).toMatchObject({
      code: 400,
      content: 'No message that could be deleted',
    });
    expect(await oli.request('IM_DELETE_MESSAGE', { scene: 'cs', targetId: 'pam', times: [1] })).toMatchObject({
      code: 400,
      content: 'Delete CS message is not supported yet',
    });
  });

  it('lists conversations with the last message, data and offsets; tops, removes and reads data', async () => {
    const quinn = await user('quinn');
    await send(quinn, 'rita', 'to rita', { d: JSON.stringify({ name: 'Rita' }) });
    await sleep(5);
    await send(quinn, 'sam', 'to sam', { d: JSON.stringify({ name: 'Sam' }) });
    const list = await quinn.request('imLastConversations', {});
    expect(list.content.map((c: { lmsg: { r: string } }) => c.lmsg.r)).toEqual(['sam', 'rita']);
    expect(list.content[0]).toMatchObject({ t: 'private', top: false, d: JSON.stringify({ name: 'Sam' }) });
    expect(await quinn.request('topConversation', { type: 'private', targetId: 'rita', top: true })).toMatchObject({
      code: 200,
    });
    const topped = await quinn.request('imLastConversations', {});
    expect(topped.content[0]).toMatchObject({ top: true, lmsg: { r: 'rita' } });
    expect(await quinn.request('topConversation', { type: 'private', targetId: 'rita', top: 'yes' })).toMatchObject({
      code: 400,
      content: 'top must be boolean.',
    });
    expect(await quinn.request('topConversation', { type: 'private', targetId: 'nobody', top: true })).toMatchObject({
      code: 400,
      content: 'conversation does not exist.',
    });
    const data = await quinn.request('imData', { type: 'private', targetId: 'sam' });
    expect(JSON.parse(data.content)).toEqual({ name: 'Sam' });
    expect(await quinn.request('removeConversation', { type: 'private', targetId: 'sam' })).toMatchObject({
      code: 200,
    });
    const afterRemove = await quinn.request('imLastConversations', {});
    expect(afterRemove.content.map((c: { lmsg: { r: string } }) => c.lmsg.r)).toEqual(['rita']);
    await send(quinn, 'sam', 'back again');
    const back = await quinn.request('imLastConversations', {});
    expect(back.content).toHaveLength(2);
    const rita = await user('rita');
    const ritaList = await rita.request('imLastConversations', {});
    expect(ritaList.content[0]).toMatchObject({ t: 'private', d: JSON.stringify({ name: 'quinn' }) });
  });

  it('runs group chat: subscription, delivery to members (also offline ones), presence, here-now and counts', async () => {
    const ua = await user('ga');
    const ub = await user('gb');
    const watcher = await user('gw');
    // Only members see a group's presence: the watcher joins first.
    expect(await watcher.request('subscribeGroupPresence', { groupIds: ['g1'] })).toMatchObject({
      code: 401,
      content: 'you are not a member of this group.',
    });
    expect(await watcher.request('subscribeGroups', { groupIds: ['g1'] })).toMatchObject({ code: 200 });
    expect(await watcher.request('subscribeGroupPresence', { groupIds: ['g1'] })).toMatchObject({ code: 200 });
    expect(await ua.request('subscribeGroups', { groupIds: ['g1'] })).toMatchObject({ code: 200 });
    expect(await ub.request('subscribeGroups', { groupIds: ['g1'] })).toMatchObject({ code: 200 });
    const presence = await watcher.waitFor('groupPresence', 2);
    expect(JSON.parse(presence[1].c)).toMatchObject({
      groupId: 'g1',
      userAmount: 3,
      events: [{ action: 'online', userId: 'gb' }],
    });
    const count = await ua.request('imGroupOnlineCount', { groupId: 'g1' });
    expect(count.content).toMatchObject({ groupId: 'g1', onlineCount: 3 });
    const hereNow = await ua.request('imGroupHereNow', { groupId: 'g1' });
    expect(hereNow.content.map((m: { userId: string }) => m.userId).sort()).toEqual(['ga', 'gb', 'gw']);
    ub.close();
    const offline = await watcher.waitFor('groupPresence', 3);
    expect(JSON.parse(offline[2].c)).toMatchObject({ userAmount: 2, events: [{ action: 'offline', userId: 'gb' }] });

    seq += 1;
    const ack = await ua.request('publishIM', {
      mt: 'text',
      to: 'g1',
      d: JSON.stringify({ name: 'Group one' }),
      p: text('hello group'),
      t: 'group',
      guid: 'group-msg-1',
    });
    expect(ack.code).toBe(200);
    const ubBack = await user('gb');
    const [message] = await ubBack.waitFor('imMessage');
    expect(message).toMatchObject({
      t: 'group',
      r: 'g1',
      s: 'ga',
      i: 'group-msg-1',
      d: JSON.stringify({ name: 'ga' }),
    });
    const list = await ubBack.request('imLastConversations', {});
    expect(list.content[0]).toMatchObject({ t: 'group', d: JSON.stringify({ name: 'Group one' }) });
    expect(await ubBack.request('unsubscribeGroup', { groupId: 'g1' })).toMatchObject({ code: 200 });
    await ua.request('publishIM', {
      mt: 'text',
      to: 'g1',
      d: '{}',
      p: text('after leaving'),
      t: 'group',
      guid: 'group-msg-2',
    });
    await sleep(200);
    expect(ubBack.count('imMessage')).toBe(1);
  });

  it('pushes user presence and answers imHereNow with the online ones', async () => {
    const watcher = await user('uw');
    expect(await watcher.request('subscribeUserPresence', { userIds: ['tom'] })).toMatchObject({ code: 200 });
    const tom = await user('tom');
    const [online] = await watcher.waitFor('userPresence');
    expect(JSON.parse(online.c).events[0]).toMatchObject({
      action: 'online',
      userId: 'tom',
      userData: JSON.stringify({ name: 'tom' }),
    });
    const here = await watcher.request('imHereNow', { userIds: ['tom', 'nobody'] });
    expect(here.content).toEqual([{ userId: 'tom', userData: JSON.stringify({ name: 'tom' }) }]);
    tom.close();
    const events = await watcher.waitFor('userPresence', 2);
    expect(JSON.parse(events[1].c).events[0]).toMatchObject({ action: 'offline', userId: 'tom' });
  });

  it('stops presence pushes after unsubscribing user, group and channel presence', async () => {
    const watcher = await user('unwatch');
    await watcher.request('subscribeUserPresence', { userIds: ['ursula'] });
    await watcher.request('subscribeGroupPresence', { groupIds: ['ug'] });
    await watcher.request('PUBSUB_PRESENCE_SUBSCRIBE', { channel: 'uc' });
    expect(await watcher.request('unsubscribeUserPresence', { userId: 'ursula' })).toMatchObject({ code: 200 });
    expect(await watcher.request('unsubscribeGroupPresence', { groupId: 'ug' })).toMatchObject({ code: 200 });
    expect(await watcher.request('PUBSUB_PRESENCE_UNSUBSCRIBE', { channel: 'uc' })).toMatchObject({ code: 200 });
    const ursula = await user('ursula');
    await ursula.request('subscribeGroups', { groupIds: ['ug'] });
    await ursula.request('subscribe', { channels: ['uc'], presence: { enable: true } });
    await sleep(200);
    expect([watcher.count('userPresence'), watcher.count('groupPresence'), watcher.count('PS_PRESENCE_EVENT')]).toEqual(
      [0, 0, 0],
    );
  });

  it('answers publishIM validations with 400 and the exact message', async () => {
    const vic = await user('vic');
    const base = { mt: 'text', to: 'w', d: '{}', p: text('x'), t: 'private', guid: 'v-guid' };
    const cases: [Record<string, unknown>, string][] = [
      [{ to: undefined }, 'message require property to.'],
      [{ t: 'room' }, 'message require property to.type'],
      [{ to: 'vic' }, 'to.id can not be the same as your id.'],
      [{ d: '[1]' }, 'TypeError: to.data requires an object.'],
      [{ p: text('   ') }, 'text is empty'],
      [{ p: text('x'.repeat(2501)) }, 'Message text over max length 2500'],
      [{ p: JSON.stringify({ text: 'x', extra: 'y'.repeat(3100) }) }, 'message-length limit 3kb'],
      [{ mt: '' }, 'type is empty.'],
      [{ mt: 'custom', p: '' }, 'payload is empty.'],
      [{ mt: 'image', p: JSON.stringify({ name: 'a.exe', size: 10, url: 'u' }) }, 'wrong file type.'],
      [{ mt: 'file', p: JSON.stringify({ name: 'a.txt', size: 0, url: 'u' }) }, 'File size is 0.'],
      [{ mt: 'file', p: JSON.stringify({ name: 'a.txt', size: 524288001, url: 'u' }) }, 'message-length limit 30mib'],
    ];
    for (const [override, content] of cases) {
      const answer = await vic.request('publishIM', { ...base, ...override });
      expect([override, answer]).toEqual([override, expect.objectContaining({ code: 400, content })]);
    }
    const history = await vic.request('IM_HISTORY', { id: 'w', scene: 'private' });
    expect(history.content.messages).toHaveLength(0);
  });

  it('requires an identified user with write permission for publishIM', async () => {
    const { client } = await connected(server.url, 'reader', { appkey: 'BS-lensmate-demo' });
    clients.push(client);
    expect(await send(client, 'x', 'nope')).toMatchObject({ code: 401, content: 'No permission' });
  });
});

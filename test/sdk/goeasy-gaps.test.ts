import {
  type ConversationsResult,
  GoEasy,
  type GroupPresenceEvent,
  IM_EVENT,
  type PrivateMessage,
  type SystemMessage,
  User,
} from '../../src/messaging';
import { APPKEY, type TestServer, connectUser, eventually, startServer } from './support/harness';

/**
 * The gaps issue 22 names, each against the real server: system messages end to end, an agent's pending queue after
 * an app restart, CS_ONLINE_CHANGED, a connect as another user on one instance, GoEasy's by-id conversation
 * shortcuts, listenCustomer, myTeams, and the per-change group presence payload.
 */
let server: TestServer;
const clients: GoEasy[] = [];

beforeAll(async () => {
  server = await startServer();
  await server.assignAgent('gap-team', 'gap-agent');
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.disconnect().catch(() => undefined)));
});

afterAll(async () => {
  await server.stop();
});

async function user(id: string, data: Record<string, unknown> = { name: id }): Promise<GoEasy> {
  const client = await connectUser(server, id, data);
  clients.push(client);
  return client;
}

describe('system messages from the shop', () => {
  it('reach a connected user at once and a disconnected one at connect, in a system conversation of the list', async () => {
    const online = await user('sys-online');
    const received: SystemMessage[] = [];
    online.im.on(IM_EVENT.SYSTEM_MESSAGE_RECEIVED, (message) => received.push(message));
    const updates: ConversationsResult[] = [];
    online.im.on(IM_EVENT.CONVERSATIONS_UPDATED, (result) => updates.push(result));
    await online.im.latestConversations();

    const shipped = await server.sendSystemMessage({
      to: ['sys-online', 'sys-offline'],
      senderId: 'orders',
      senderData: { name: 'Lensmate orders' },
      type: 'order_shipped',
      payload: { orderId: 1042, trackingNumber: 'LM1042' },
      notification: { title: 'Order shipped', body: 'Order 1042 is on its way' },
    });
    expect(shipped.status).toBe(200);
    await eventually(() => expect(received).toHaveLength(1));
    expect(received[0]).toMatchObject({
      senderId: 'orders',
      receiverId: 'sys-online',
      type: 'order_shipped',
      payload: { orderId: 1042, trackingNumber: 'LM1042' },
      senderData: { name: 'Lensmate orders' },
      status: 'success',
    });
    expect(received[0].scene()).toBe('system');
    await eventually(() =>
      expect(updates[updates.length - 1]?.conversations[0]).toMatchObject({
        type: 'system',
        id: 'orders',
        unread: 1,
        data: { name: 'Lensmate orders' },
      }),
    );
    await online.im.markMessageAsRead({ type: 'system', id: 'orders' });
    expect((await online.im.latestConversations()).content.conversations[0]).toMatchObject({ unread: 0 });

    await server.sendSystemMessage({
      to: 'sys-offline',
      senderId: 'refunds',
      type: 'text',
      payload: { text: 'Refunded 39.00' },
    });
    const offline = await user('sys-offline');
    const later: SystemMessage[] = [];
    offline.im.on(IM_EVENT.SYSTEM_MESSAGE_RECEIVED, (message) => later.push(message));
    const list = (await offline.im.latestConversations()).content.conversations;
    expect(list.map((conversation) => [conversation.type, conversation.id, conversation.unread])).toEqual([
      ['system', 'refunds', 1],
      ['system', 'orders', 1],
    ]);
    const history = await offline.im.history({ type: 'system', id: 'orders' });
    expect(history.content.map((message) => message.type)).toEqual(['order_shipped']);
    // Nobody else reads them: the key of a system conversation names its user.
    const stranger = await user('sys-stranger');
    expect((await stranger.im.history({ type: 'system', id: 'orders' })).content).toEqual([]);
  });

  it('refuses a bad system message with the reason and stores nothing', async () => {
    const refused = await server.sendSystemMessage({ to: 'has:colon', type: 'text', payload: { text: 'x' } });
    expect(refused).toEqual({
      status: 400,
      body: { code: 400, content: 'to may only contain letters, digits, _ - . and @' },
    });
    const empty = await server.sendSystemMessage({ to: 'sys-empty', type: 'text', payload: { text: '  ' } });
    expect(empty).toEqual({ status: 400, body: { code: 400, content: 'text is empty' } });
    const client = await user('sys-empty');
    expect((await client.im.latestConversations()).content.conversations).toEqual([]);
  });

  it('cannot be sent by a client', async () => {
    const client = await user('sys-client');
    let refusal: unknown;
    try {
      client.im.createTextMessage({ text: 'x', to: { type: 'system' as never, id: 'a', data: {} } });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toEqual({ code: 400, content: 'message require property to.type' });
  });
});

describe('customer service', () => {
  it("loads an agent's pending conversations from the server after an app restart, and follows CS_ONLINE_CHANGED", async () => {
    const agent = await user('gap-agent', { name: 'Agent' });
    // Before the teams are known GoEasy's myTeams() throws its own string; connect() queries them.
    const im = (agent as unknown as { module(name: 'IM'): { myTeams(): Set<string> } }).module('IM');
    await eventually(() => expect([...im.myTeams()]).toEqual([]));
    await agent.im.csteam('gap-team').online({ teamData: { name: 'Team' }, agentData: { name: 'Agent' } });
    expect([...im.myTeams()]).toEqual(['gap-team']);
    const customer = await user('gap-customer', { name: 'Customer' });
    await customer.im.sendMessage({
      message: customer.im.createTextMessage({ text: 'help', to: { type: 'cs', id: 'gap-team', data: {} } }),
    });
    await eventually(async () =>
      expect((await agent.im.pendingConversations()).content.conversations.map((c) => c.id)).toEqual(['gap-customer']),
    );

    // The app restarts: a new client, nothing cached, no online() call; the server still has the agent online.
    await agent.disconnect();
    const restarted = new GoEasy({ host: server.url, appkey: APPKEY, modules: ['im'] });
    clients.push(restarted);
    const pendingSeen: ConversationsResult[] = [];
    restarted.im.on(IM_EVENT.PENDING_CONVERSATIONS_UPDATED, (result) => pendingSeen.push(result));
    const fresh = (restarted as unknown as { module(name: 'IM'): { myTeams(): Set<string> } }).module.bind(restarted);
    await restarted.connect({ id: 'gap-agent', data: { name: 'Agent' }, otp: server.otp('gap-agent') });
    await eventually(async () =>
      expect((await restarted.im.pendingConversations()).content.conversations.map((c) => c.id)).toEqual([
        'gap-customer',
      ]),
    );
    expect(pendingSeen.length).toBeGreaterThan(0);
    expect(await restarted.im.csteam('gap-team').isOnline()).toBe(true);

    // A second device of the same agent: going offline there is CS_ONLINE_CHANGED here.
    const device = await user('gap-agent', { name: 'Agent' });
    await device.im.csteam('gap-team').offline();
    await eventually(() => expect([...fresh('IM').myTeams()]).toEqual([]));
    await eventually(async () => expect((await restarted.im.pendingConversations()).content.conversations).toEqual([]));
    await device.im.csteam('gap-team').online({ teamData: { name: 'Team' }, agentData: { name: 'Agent' } });
    await eventually(() => expect([...fresh('IM').myTeams()]).toEqual(['gap-team']));
    await eventually(async () =>
      expect((await restarted.im.pendingConversations()).content.conversations.map((c) => c.id)).toEqual([
        'gap-customer',
      ]),
    );

    // listenCustomer / cancelListenCustomer: GoEasy's names for a live session on one customer.
    const watched: string[] = [];
    const status = await restarted.im.csteam('gap-team').listenCustomer({
      id: 'gap-customer',
      onNewMessage: (message) => watched.push(message.type),
      onStatusUpdated: () => undefined,
    });
    expect(status.content.status).toBe('PENDING');
    await device.im.csteam('gap-team').accept({ customer: new User('gap-customer', { name: 'Customer' }) });
    await eventually(() => expect(watched).toContain('CS_ACCEPT'));
    await restarted.im.csteam('gap-team').cancelListenCustomer({});
    await device.im.csteam('gap-team').end({ id: 'gap-customer' });
    await device.im.csteam('gap-team').offline();
  });

  it('myTeams() answers "please query team first." before the teams are known', async () => {
    const client = await user('gap-teams');
    const im = (client as unknown as { module(name: 'IM'): { myTeams(): Set<string>; forgetTeams(): void } }).module(
      'IM',
    );
    im.forgetTeams();
    expect(() => im.myTeams()).toThrow('please query team first.');
  });
});

describe('one instance, two users', () => {
  it('a connect as another user drops the previous user’s caches and fires each event once', async () => {
    const shared = new GoEasy({ host: server.url, appkey: APPKEY, modules: ['im'] });
    clients.push(shared);
    const got: PrivateMessage[] = [];
    shared.im.on(IM_EVENT.PRIVATE_MESSAGE_RECEIVED, (message) => got.push(message));
    await shared.connect({ id: 'two-first', data: { name: 'First' }, otp: server.otp('two-first') });
    const friend = await user('two-friend');
    await friend.im.sendMessage({
      message: friend.im.createTextMessage({ text: 'to first', to: { type: 'private', id: 'two-first', data: {} } }),
    });
    await eventually(() => expect(got).toHaveLength(1));
    expect((await shared.im.latestConversations()).content.conversations).toHaveLength(1);
    await shared.disconnect();

    await shared.connect({ id: 'two-second', data: { name: 'Second' }, otp: server.otp('two-second') });
    expect((await shared.im.latestConversations()).content.conversations).toEqual([]);
    await friend.im.sendMessage({
      message: friend.im.createTextMessage({ text: 'to second', to: { type: 'private', id: 'two-second', data: {} } }),
    });
    await eventually(() => expect(got).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(got.map((message) => [message.receiverId, (message.payload as { text: string }).text])).toEqual([
      ['two-first', 'to first'],
      ['two-second', 'to second'],
    ]);
  });
});

describe("GoEasy's by-id shortcuts and presence payloads", () => {
  it('tops and removes private and group conversations by id, and reports group presence per change', async () => {
    const me = await user('id-me');
    const peer = await user('id-peer');
    await me.im.subscribeGroup({ groupIds: ['id-group'] });
    await peer.im.subscribeGroup({ groupIds: ['id-group'] });
    const changes: GroupPresenceEvent[] = [];
    me.im.on(IM_EVENT.GROUP_PRESENCE, (event) => changes.push(event));
    await me.im.subscribeGroupPresence({ groupIds: ['id-group'] });
    await me.im.sendMessage({
      message: me.im.createTextMessage({ text: 'hi', to: { type: 'private', id: 'id-peer', data: { name: 'Peer' } } }),
    });
    await me.im.sendMessage({
      message: me.im.createTextMessage({ text: 'all', to: { type: 'group', id: 'id-group', data: { name: 'G' } } }),
    });
    await me.im.latestConversations();
    await me.im.topPrivateConversation({ userId: 'id-peer', top: true });
    expect((await me.im.latestConversations()).content.conversations.map((c) => [c.type, c.top])).toEqual([
      ['private', true],
      ['group', false],
    ]);
    await me.im.topGroupConversation({ groupId: 'id-group', top: true });
    await me.im.removePrivateConversation({ userId: 'id-peer' });
    expect((await me.im.latestConversations()).content.conversations.map((c) => c.type)).toEqual(['group']);
    await me.im.removeGroupConversation({ groupId: 'id-group' });
    expect((await me.im.latestConversations()).content.conversations).toEqual([]);
    await expect(me.im.removePrivateConversation({ userId: 'nobody' })).rejects.toEqual({
      code: 400,
      content: 'conversation does not exist.',
    });

    await peer.disconnect();
    await eventually(() => expect(changes.some((change) => change.action === 'offline')).toBe(true));
    expect(changes.find((change) => change.action === 'offline')).toEqual({
      time: expect.any(Number),
      action: 'offline',
      groupOnlineCount: 1,
      groupId: 'id-group',
      id: 'id-peer',
      data: { name: 'id-peer' },
    });
  });
});

import {
  type AnyMessage,
  type CSMessage,
  type ConversationsResult,
  type CsSessionStatus,
  GoEasy,
  type IMEvent,
  IM_EVENT,
  type UserPresenceEvent,
} from '../../src/messaging';
import { APPKEY, type TestServer, connectUser, eventually, startServer } from './support/harness';

let server: TestServer;
const clients: GoEasy[] = [];

beforeAll(async () => {
  server = await startServer();
  // The shop's admins make these users agents of the team; nobody else may act for it.
  for (const agent of ['cs-agent1', 'cs-agent2']) await server.assignAgent('shop', agent);
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

function collect<T, E extends IMEvent = IMEvent>(client: GoEasy, event: E): T[] {
  const seen: T[] = [];
  client.im.on(event, (payload) => seen.push(payload as T));
  return seen;
}

describe('a group of three', () => {
  it('delivers to every member with sender data, counts unread, and spreads recalls', async () => {
    const [amy, ben, cat] = await Promise.all([user('g-amy'), user('g-ben'), user('g-cat')]);
    for (const client of [amy, ben, cat]) {
      await client.im.subscribeGroup({ groupIds: ['frames'] });
      await client.im.latestConversations();
    }
    const benGot = collect<AnyMessage>(ben, IM_EVENT.GROUP_MESSAGE_RECEIVED);
    const catGot = collect<AnyMessage>(cat, IM_EVENT.GROUP_MESSAGE_RECEIVED);
    const catConversations = collect<ConversationsResult>(cat, IM_EVENT.CONVERSATIONS_UPDATED);

    const hello = amy.im.createTextMessage({
      text: 'New frames arrived',
      to: { type: 'group', id: 'frames', data: { name: 'Frames' } },
    });
    await amy.im.sendMessage({ message: hello });
    const reply = ben.im.createTextMessage({
      text: 'Show me',
      to: { type: 'group', id: 'frames', data: { name: 'Frames' } },
    });
    await ben.im.sendMessage({ message: reply });

    await eventually(() => expect(catGot.map((m) => m.messageId)).toEqual([hello.messageId, reply.messageId]));
    await eventually(() => expect(benGot.map((m) => m.messageId)).toEqual([hello.messageId]));
    expect(catGot[0]).toMatchObject({ groupId: 'frames', senderId: 'g-amy', senderData: { name: 'g-amy' } });
    const latest = catConversations[catConversations.length - 1];
    expect(latest.conversations[0]).toMatchObject({ type: 'group', groupId: 'frames', unread: 2 });

    const online = await cat.im.groupHereNow({ groupId: 'frames' });
    expect((online.content as Array<{ id: string }>).map((member) => member.id).sort()).toEqual([
      'g-amy',
      'g-ben',
      'g-cat',
    ]);

    const catRecalls = collect<AnyMessage[]>(cat, IM_EVENT.MESSAGE_RECALLED);
    await amy.im.recallMessage({ messages: [hello] });
    await eventually(() => expect(catRecalls.flat().map((m) => m.messageId)).toEqual([hello.messageId]));
    expect(catGot[0].recalled).toBe(true);
    expect((await cat.im.latestConversations()).content.conversations[0].unread).toBe(1);

    await cat.im.markMessageAsRead({ id: 'frames', type: 'group' });
    expect((await cat.im.latestConversations()).content.unreadTotal).toBe(0);
  });

  it('gives a member who was offline exactly the messages sent meanwhile, unread as many, not their own', async () => {
    const [amy, dan] = await Promise.all([user('o-amy'), user('o-dan')]);
    for (const client of [amy, dan]) await client.im.subscribeGroup({ groupIds: ['lenses'] });
    const to = { type: 'group' as const, id: 'lenses', data: { name: 'Lenses' } };
    const own = dan.im.createTextMessage({ text: 'Anyone tried the blue filter?', to });
    await dan.im.sendMessage({ message: own });
    await dan.disconnect();

    const sent: string[] = [];
    for (const text of ['Yes', 'It helps at night', 'Ask in store']) {
      const message = amy.im.createTextMessage({ text, to });
      await amy.im.sendMessage({ message });
      sent.push(message.messageId);
    }
    // Someone who joins afterwards is not pushed what was said before.
    const eve = await user('o-eve');
    const eveGot = collect<AnyMessage>(eve, IM_EVENT.GROUP_MESSAGE_RECEIVED);
    await eve.im.subscribeGroup({ groupIds: ['lenses'] });

    // Listening before connecting: what was missed is pushed as soon as the connection is authorized.
    const reconnect = async (id: string) => {
      const client = new GoEasy({ host: server.url, appkey: APPKEY, modules: ['im', 'pubsub'] });
      clients.push(client);
      const got = collect<AnyMessage>(client, IM_EVENT.GROUP_MESSAGE_RECEIVED);
      await client.connect({ id, data: { name: id }, otp: server.otp(id) });
      return { client, got };
    };
    const { client: danBack, got: danGot } = await reconnect('o-dan');
    await danBack.im.latestConversations();
    await eventually(() => expect(danGot.map((m) => m.messageId)).toEqual(sent));
    const list = (await danBack.im.latestConversations()).content;
    expect(list.conversations[0]).toMatchObject({ type: 'group', groupId: 'lenses', unread: 3 });
    expect(list.conversations[0].lastMessage).toMatchObject({ messageId: sent[2], senderId: 'o-amy' });
    expect(list.unreadTotal).toBe(3);
    // Acknowledged: a later reconnect brings nothing again.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await danBack.disconnect();
    const { client: danAgain, got: againGot } = await reconnect('o-dan');
    await danAgain.im.latestConversations();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(againGot).toEqual([]);
    expect(eveGot).toEqual([]);
  });
});

describe('user and group presence', () => {
  it('reports who comes online and goes offline, and who is online now', async () => {
    const watcher = await user('pr-watcher');
    const events: UserPresenceEvent[] = [];
    watcher.im.on(IM_EVENT.USER_PRESENCE, (event) => events.push(event));
    await watcher.im.subscribeUserPresence({ userIds: ['pr-friend'] });
    expect((await watcher.im.hereNow({ userIds: ['pr-friend'] })).content).toEqual([]);
    const friend = await user('pr-friend', { name: 'Friend' });
    await eventually(() => expect(JSON.stringify(events)).toContain('online'));
    // GoEasy 2.8.3's payload: one event per change, {time, action, id, data}.
    expect(events[0]).toEqual({
      time: expect.any(Number),
      action: 'online',
      id: 'pr-friend',
      data: { name: 'Friend' },
    });
    expect((await watcher.im.hereNow({ userIds: ['pr-friend'] })).content).toEqual([
      { id: 'pr-friend', data: { name: 'Friend' } },
    ]);
    await friend.im.subscribeGroup({ groupIds: ['pr-group'] });
    // Only members count a group's online members.
    await watcher.im.subscribeGroup({ groupIds: ['pr-group'] });
    const count = await watcher.im.groupOnlineCount({ groupId: 'pr-group' });
    expect(count.content).toMatchObject({ onlineCount: 2 });
    await friend.disconnect();
    await eventually(() => expect(JSON.stringify(events)).toContain('offline'));
  });
});

describe('unsubscribing', () => {
  it('im.off and the unsubscribe calls stop presence events and group messages', async () => {
    const watcher = await user('un-watcher');
    const seen: string[] = [];
    watcher.im.on(IM_EVENT.USER_PRESENCE, (event: unknown) => seen.push(`user ${JSON.stringify(event)}`));
    watcher.im.on(IM_EVENT.GROUP_PRESENCE, (event: unknown) => seen.push(`group ${JSON.stringify(event)}`));
    const kept = collect<AnyMessage>(watcher, IM_EVENT.GROUP_MESSAGE_RECEIVED);
    const removed: AnyMessage[] = [];
    const removedListener = (message: AnyMessage) => removed.push(message);
    watcher.im.on(IM_EVENT.GROUP_MESSAGE_RECEIVED, removedListener);
    watcher.im.off(IM_EVENT.GROUP_MESSAGE_RECEIVED, removedListener);
    await watcher.im.subscribeUserPresence({ userIds: ['un-friend'] });
    // A group's presence is for its members: join first.
    await watcher.im.subscribeGroup({ groupIds: ['un-group'] });
    await watcher.im.subscribeGroupPresence({ groupIds: ['un-group'] });
    const friend = await user('un-friend');
    await friend.im.subscribeGroup({ groupIds: ['un-group'] });
    const to = { type: 'group' as const, id: 'un-group', data: { name: 'Group' } };
    await friend.im.sendMessage({ message: friend.im.createTextMessage({ text: 'first', to }) });
    await eventually(() => expect(kept).toHaveLength(1));
    await eventually(() => expect(seen.some((entry) => entry.startsWith('user'))).toBe(true));
    await eventually(() => expect(seen.some((entry) => entry.startsWith('group'))).toBe(true));
    expect(removed).toEqual([]);

    await watcher.im.unsubscribeUserPresence({ userId: 'un-friend' });
    await watcher.im.unsubscribeGroupPresence({ groupId: 'un-group' });
    await watcher.im.unsubscribeGroup({ groupId: 'un-group' });
    seen.length = 0;
    // A second watcher, subscribed to the same, shows what the first one no longer receives.
    const control = await user('un-control');
    const controlSeen: unknown[] = [];
    control.im.on(IM_EVENT.USER_PRESENCE, (event: unknown) => controlSeen.push(event));
    control.im.on(IM_EVENT.GROUP_PRESENCE, (event: unknown) => controlSeen.push(event));
    const controlGot = collect<AnyMessage>(control, IM_EVENT.GROUP_MESSAGE_RECEIVED);
    await control.im.subscribeUserPresence({ userIds: ['un-friend'] });
    await control.im.subscribeGroup({ groupIds: ['un-group'] });
    await control.im.subscribeGroupPresence({ groupIds: ['un-group'] });
    await friend.im.sendMessage({ message: friend.im.createTextMessage({ text: 'second', to }) });
    await friend.disconnect();
    await eventually(() => expect(controlGot).toHaveLength(1));
    await eventually(() => expect(JSON.stringify(controlSeen)).toContain('offline'));
    expect(kept).toHaveLength(1);
    expect(seen).toEqual([]);
  });
});

describe('customer service', () => {
  it('a customer waits, an agent accepts, transfers to another agent, who ends the session', async () => {
    const customer = await user('cs-cust', { name: 'Customer' });
    const first = await user('cs-agent1', { name: 'Agent One' });
    const second = await user('cs-agent2', { name: 'Agent Two' });
    const teamOne = first.im.csteam('shop');
    const teamTwo = second.im.csteam('shop');
    await teamOne.online({ teamData: { name: 'Shop' }, agentData: { name: 'Agent One' } });
    await teamTwo.online({ teamData: { name: 'Shop' }, agentData: { name: 'Agent Two' } });
    expect(await teamOne.isOnline()).toBe(true);
    expect((await teamOne.agents()).content.map((agent) => agent.id)).toEqual(['cs-agent1', 'cs-agent2']);
    const pendingUpdates = collect<ConversationsResult>(first, IM_EVENT.PENDING_CONVERSATIONS_UPDATED);
    const customerGot = collect<CSMessage>(customer, IM_EVENT.CS_MESSAGE_RECEIVED);
    const secondGot = collect<CSMessage>(second, IM_EVENT.CS_MESSAGE_RECEIVED);

    const question = customer.im.createTextMessage({
      text: 'Do you have round frames?',
      to: { type: 'cs', id: 'shop', data: { name: 'Shop' } },
    });
    await customer.im.sendMessage({ message: question });
    await eventually(() =>
      expect(pendingUpdates[pendingUpdates.length - 1]?.conversations[0]).toMatchObject({
        type: 'cs',
        id: 'cs-cust',
        teamId: 'shop',
      }),
    );
    expect((await first.im.pendingConversations()).content.conversations).toHaveLength(1);
    expect((await teamOne.customerStatus({ id: 'cs-cust' })).content.status).toBe('PENDING');
    const pending = (await first.im.pendingConversations()).content.conversations[0];
    await expect(first.im.topConversation({ conversation: pending, top: true })).rejects.toEqual({
      code: 400,
      content: 'pending conversation cannot be topped or removed.',
    });

    await teamOne.accept({ customer: { id: 'cs-cust', data: { name: 'Customer' } } });
    expect((await first.im.pendingConversations()).content.conversations).toHaveLength(0);
    await eventually(() => expect(customerGot.map((m) => m.type)).toContain('CS_ACCEPT'));
    const accepted = await teamOne.customerStatus({ id: 'cs-cust' });
    expect(accepted.content).toMatchObject({ status: 'ACCEPTED', agent: { id: 'cs-agent1' } });

    const answer = teamOne.createTextMessage({
      text: 'Yes, three models',
      to: { type: 'cs', id: 'cs-cust', data: { name: 'Customer' } },
    });
    await first.im.sendMessage({ message: answer });
    await eventually(() => expect(customerGot.map((m) => m.messageId)).toContain(answer.messageId));
    const customerView = (await customer.im.latestConversations()).content.conversations[0];
    expect(customerView).toMatchObject({ type: 'cs', id: 'shop', teamId: 'shop', ended: false });

    const watched: CSMessage[] = [];
    const statuses: CsSessionStatus[] = [];
    const live = await teamTwo.liveSession({
      customerId: 'cs-cust',
      onNewMessage: (message) => watched.push(message),
      onStatusUpdated: (status) => statuses.push(status),
    });
    expect(live.content).toMatchObject({ status: 'ACCEPTED', agent: { id: 'cs-agent1' } });

    await teamOne.transfer({ customerId: 'cs-cust', agentId: 'cs-agent2' });
    await eventually(() => expect(secondGot.map((m) => m.type)).toContain('CS_TRANSFER'));
    const firstView = (await first.im.latestConversations()).content.conversations.find((c) => c.id === 'cs-cust');
    expect(firstView?.ended).toBe(true);
    expect((await teamTwo.customerStatus({ id: 'cs-cust' })).content).toMatchObject({
      status: 'ACCEPTED',
      agent: { id: 'cs-agent2' },
    });

    await eventually(() => expect(statuses[0]).toMatchObject({ status: 'ACCEPTED', agent: { id: 'cs-agent2' } }));
    await teamTwo.end({ id: 'cs-cust' });
    await eventually(() => expect(customerGot.map((m) => m.type)).toContain('CS_END'));
    await eventually(() => expect(statuses[statuses.length - 1]).toEqual({ status: 'FREE' }));
    expect(watched.map((m) => m.type)).toContain('CS_TRANSFER');
    await teamTwo.quitLiveSession();
    expect((await teamTwo.customerStatus({ id: 'cs-cust' })).content.status).toBe('FREE');
    const ended = (await second.im.latestConversations()).content.conversations.find((c) => c.id === 'cs-cust');
    expect(ended?.ended).toBe(true);
    if (!ended) throw new Error('the agent has no conversation with the customer');
    await second.im.removeConversation({ conversation: ended });
    expect(
      (await second.im.latestConversations()).content.conversations.find((c) => c.id === 'cs-cust'),
    ).toBeUndefined();

    await teamOne.offline();
    expect(await teamOne.isOnline()).toBe(false);
  });
});

import {
  type AnyMessage,
  type ConversationDTO,
  type ConversationsResult,
  GoEasy,
  type IMEvent,
  IM_EVENT,
  type MessagesOptions,
  type TextMessageCreateOptions,
} from '../../src/messaging';
import { thrown } from './support/expect-error';
import { APPKEY, type TestServer, connectUser, eventually, startServer } from './support/harness';

let server: TestServer;
const clients: GoEasy[] = [];

beforeAll(async () => {
  server = await startServer();
  // A customer writes only to a team the shop has agents for.
  await server.assignAgent('loc-team', 'loc-agent');
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.disconnect().catch(() => undefined)));
});

afterAll(async () => {
  await server.stop();
});

async function user(id: string): Promise<GoEasy> {
  const client = await connectUser(server, id);
  clients.push(client);
  return client;
}

describe('connection', () => {
  it('goes connecting -> connected, refuses a second connect, and disconnects', async () => {
    const client = new GoEasy({ host: server.url, appkey: APPKEY, modules: ['im'] });
    clients.push(client);
    const seen: string[] = [];
    client.onConnectionStatusChanged((status) => seen.push(status));
    expect(client.getConnectionStatus()).toBe('disconnected');
    await client.connect({ id: 'conn-a', data: { name: 'A' }, otp: server.otp('conn-a') });
    expect(seen).toEqual(['connecting', 'connected']);
    await expect(client.connect({ id: 'conn-a', data: {}, otp: server.otp('conn-a') })).rejects.toEqual({
      code: 408,
      content: "It is already connected, don't try again until disconnect() is called.",
    });
    await client.disconnect();
    expect(seen).toEqual(['connecting', 'connected', 'disconnecting', 'disconnected']);
    await expect(client.im.latestConversations()).rejects.toEqual({ code: 409, content: 'Please connect first' });
  });

  it('answers through callbacks as well as promises, and refuses calls before connect', async () => {
    const client = new GoEasy({ host: server.url, appkey: APPKEY, modules: ['im'] });
    clients.push(client);
    const failed = await new Promise((resolve) => client.im.latestConversations({ onFailed: resolve }));
    expect(failed).toEqual({ code: 400, content: 'Please call connect() first.' });
    expect(thrown(() => client.im.on('NO_SUCH_EVENT' as IMEvent, () => undefined))).toEqual({
      code: 400,
      content: 'An event that is not defined',
    });
    const early: ConversationsResult[] = [];
    client.im.on(IM_EVENT.CONVERSATIONS_UPDATED, (result: ConversationsResult) => early.push(result));
    const connected = await new Promise<string>((resolve) =>
      client.connect({
        id: 'conn-b',
        data: {},
        otp: server.otp('conn-b'),
        onSuccess: () => resolve('yes'),
        onFailed: () => resolve('no'),
      }),
    );
    expect(connected).toBe('yes');
    // messaging.md §5: an operation of a module that was not enabled answers as if connect() was never called.
    await expect(client.pubsub.publish({ channel: 'c', message: 'm' })).rejects.toEqual({
      code: 400,
      content: 'Please call connect() first.',
    });
    await client.im.latestConversations();
    const note = client.im.createTextMessage({ text: 'hello', to: { type: 'private', id: 'conn-z', data: {} } });
    await client.im.sendMessage({ message: note });
    expect(early[early.length - 1].conversations[0]).toMatchObject({
      userId: 'conn-z',
      lastMessage: { messageId: note.messageId },
    });
  });

  it("ends in connect-failed with the server's answer when authorize is refused", async () => {
    const client = new GoEasy({ host: server.url, appkey: 'wrong-key', modules: ['im'] });
    clients.push(client);
    const error = await client
      .connect({ id: 'conn-c', data: {}, otp: server.otp('conn-c') })
      .catch((failure) => failure);
    expect(error.code).toBe(401);
    expect(client.getConnectionStatus()).toBe('connect_failed');
  });
});

describe('two users chat privately', () => {
  it('delivers, updates conversations and unread, and carries read receipts, recall and delete', async () => {
    const ann = await user('ann');
    const bob = await user('bob');
    await ann.im.latestConversations();
    await bob.im.latestConversations();
    const bobReceived: AnyMessage[] = [];
    const bobConversations: ConversationsResult[] = [];
    bob.im.on(IM_EVENT.PRIVATE_MESSAGE_RECEIVED, (message: AnyMessage) => bobReceived.push(message));
    bob.im.on(IM_EVENT.CONVERSATIONS_UPDATED, (result: ConversationsResult) => bobConversations.push(result));

    const first = ann.im.createTextMessage({
      text: 'Hi Bob',
      to: { type: 'private', id: 'bob', data: { name: 'Bob' } },
    });
    expect(first.status).toBe('new');
    const sending = ann.im.sendMessage({ message: first });
    expect(first.status).toBe('sending');
    await sending;
    expect(first.status).toBe('success');
    await expect(ann.im.sendMessage({ message: first })).rejects.toEqual({
      code: 400,
      content: 'Please create a new message, a message can only be sent once',
    });
    const second = ann.im.createTextMessage({
      text: 'Are you there?',
      to: { type: 'private', id: 'bob', data: { name: 'Bob' } },
    });
    await ann.im.sendMessage({ message: second });

    await eventually(() => expect(bobReceived.map((m) => m.messageId)).toEqual([first.messageId, second.messageId]));
    expect(bobReceived[0]).toMatchObject({
      senderId: 'ann',
      receiverId: 'bob',
      type: 'text',
      payload: { text: 'Hi Bob' },
    });
    const latest = bobConversations[bobConversations.length - 1];
    expect(latest.unreadTotal).toBe(2);
    expect(latest.conversations[0]).toMatchObject({ type: 'private', userId: 'ann', unread: 2 });

    const readEvents: AnyMessage[][] = [];
    ann.im.on(IM_EVENT.MESSAGE_READ, (messages: AnyMessage[]) => readEvents.push(messages));
    await bob.im.markMessageAsRead({ id: 'ann', type: 'private' });
    expect((await bob.im.latestConversations()).content.unreadTotal).toBe(0);
    await eventually(() => expect(second).toMatchObject({ read: true }));
    expect(first).toMatchObject({ read: true });
    expect(readEvents.length).toBeGreaterThan(0);

    const recalled: AnyMessage[][] = [];
    bob.im.on(IM_EVENT.MESSAGE_RECALLED, (messages: AnyMessage[]) => recalled.push(messages));
    await ann.im.recallMessage({ messages: [second] });
    expect(second).toMatchObject({ recalled: true, recaller: { id: 'ann' } });
    await eventually(() => expect(recalled.flat().map((m) => m.messageId)).toContain(second.messageId));
    await expect(bob.im.recallMessage({ messages: [bobReceived[0]] })).rejects.toEqual({
      code: 400,
      content: 'it is not allowed to recall messages sent by others',
    });

    await ann.im.deleteMessage({ messages: [first] });
    const history = await ann.im.history({ userId: 'bob' });
    expect(history.content.map((m) => m.messageId)).toEqual([second.messageId]);
    const bobHistory = await bob.im.history({ userId: 'ann' });
    expect(bobHistory.content.map((m) => m.messageId)).toEqual([first.messageId, second.messageId]);
    expect(bobHistory.content[1].recalled).toBe(true);

    const [withBob] = (await ann.im.latestConversations()).content.conversations;
    await ann.im.topConversation({ conversation: withBob, top: true });
    expect((await ann.im.latestConversations()).content.conversations[0]).toMatchObject({ userId: 'bob', top: true });
    await ann.im.removeConversation({ conversation: withBob });
    expect((await ann.im.latestConversations()).content.conversations).toHaveLength(0);
    await expect(ann.im.topConversation({ conversation: withBob, top: false })).rejects.toEqual({
      code: 400,
      content: 'conversation does not exist.',
    });
  });
});

describe('local refusals', () => {
  it('answers with the catalogue messages of §5 and §8', async () => {
    const client = await user('loc-ann');
    expect(thrown(() => client.im.on(5 as unknown as IMEvent, () => undefined))).toEqual({
      code: 400,
      content: 'event require a string.',
    });
    expect(thrown(() => client.im.on(IM_EVENT.MESSAGE_READ, 'x' as unknown as () => void))).toEqual({
      code: 400,
      content: 'callback must be a function',
    });
    expect(thrown(() => client.im.createTextMessage(undefined as unknown as TextMessageCreateOptions))).toEqual({
      code: 400,
      content: 'it is an empty message.',
    });
    await expect(client.im.recallMessage(undefined as unknown as MessagesOptions)).rejects.toEqual({
      code: 400,
      content: 'bad parameters',
    });
    await expect(
      client.im.topConversation({ conversation: { type: 'nope' } as unknown as ConversationDTO, top: true }),
    ).rejects.toEqual({ code: 400, content: 'Incorrect conversation object.' });
    const unsent = client.im.createTextMessage({
      text: 'never sent',
      to: { type: 'private', id: 'loc-bob', data: {} },
    });
    await expect(client.im.deleteMessage({ messages: [unsent] })).rejects.toEqual({
      code: 400,
      content: 'No message that could be deleted',
    });
    await expect(client.im.csteam('loc-team').quitLiveSession()).rejects.toEqual({
      code: 400,
      content: 'no live session',
    });

    const question = client.im.createTextMessage({
      text: 'Do you ship to Norway?',
      to: { type: 'cs', id: 'loc-team', data: { name: 'Team' } },
    });
    await client.im.sendMessage({ message: question });
    const { content } = await client.im.latestConversations();
    const open = content.conversations.find((conversation) => conversation.type === 'cs');
    expect(open).toBeDefined();
    await expect(client.im.removeConversation({ conversation: open as ConversationDTO })).rejects.toEqual({
      code: 400,
      content: 'CS conversation can only be deleted after it ends',
    });
  });
});

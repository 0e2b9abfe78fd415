import {
  CSMessage,
  ConversationStore,
  GroupMessage,
  MessageStatus,
  PrivateMessage,
  RecentIds,
  UserOffsets,
  assertSendable,
  nextCsStatus,
} from '../../src/messaging/model';
import { expectBadRequest, thrown } from './support/expect-error';

const me = 'me';

function privateMessage(id: string, senderId: string, receiverId: string, timestamp: number): PrivateMessage {
  const message = new PrivateMessage();
  Object.assign(message, { messageId: id, senderId, receiverId, timestamp, type: 'text', payload: { text: id } });
  message.status = MessageStatus.SUCCESS;
  return message;
}

function csMessage(over: Partial<CSMessage>): CSMessage {
  const message = new CSMessage();
  Object.assign(
    message,
    { messageId: `m${Math.random()}`, teamId: 'team', type: 'text', payload: { text: 'hi' } },
    over,
  );
  message.status = MessageStatus.SUCCESS;
  return message;
}

describe('message status', () => {
  it('goes new -> sending -> success and is sent only once', () => {
    const message = new PrivateMessage();
    message.buildOptions = { to: { type: 'private', id: 'u2', data: {} } };
    expect(message.status).toBe('new');
    message.startSending();
    expect(message.status).toBe('sending');
    message.succeed(1000);
    expect(message).toMatchObject({ status: 'success', timestamp: 1000 });
    expect(message.buildOptions).toBeUndefined();
    expect(thrown(() => message.startSending())).toEqual({
      code: 400,
      content: 'Please create a new message, a message can only be sent once',
    });
  });

  it('a failed message stays failed and cannot be resent', () => {
    const message = new GroupMessage();
    message.startSending();
    message.fail();
    expect(message.status).toBe('fail');
    expectBadRequest(() => assertSendable(message), 'Please create a new message, a message can only be sent once');
    expectBadRequest(() => assertSendable({ status: 'new' }), 'it is invalid message');
  });
});

describe('conversation cache', () => {
  it('keeps messages ordered, replaces duplicates and caps at 200', () => {
    const store = new ConversationStore(me);
    const conversation = store.ensure({ scene: 'private', id: 'u2' });
    for (let i = 250; i >= 1; i--) conversation.save(privateMessage(`m${i}`, 'u2', me, i));
    conversation.save(privateMessage('m250', 'u2', me, 250));
    expect(conversation.messages).toHaveLength(200);
    expect(conversation.messages[0].timestamp).toBe(51);
    expect(conversation.lastMessage?.messageId).toBe('m250');
  });

  it("counts unread as others' messages, not recalled, after my offset", () => {
    const store = new ConversationStore(me);
    const conversation = store.ensure({ scene: 'private', id: 'u2' });
    conversation.save(privateMessage('a', 'u2', me, 10));
    conversation.save(privateMessage('b', me, 'u2', 20));
    conversation.save(privateMessage('c', 'u2', me, 30));
    conversation.save(privateMessage('d', 'u2', me, 40));
    expect(conversation.unread()).toBe(3);
    conversation.recallByTimes([40], { id: 'u2' });
    expect(conversation.unread()).toBe(2);
    expect(conversation.markRead(me, 10)).toBe(true);
    expect(conversation.unread()).toBe(1);
  });

  it('moves read marks only forward and marks my messages read by the peer offset', () => {
    const offsets = new UserOffsets();
    expect(offsets.update('u', 5)).toBe(true);
    expect(offsets.update('u', 3)).toBe(false);
    expect(offsets.get('u')).toBe(5);

    const conversation = new ConversationStore(me).ensure({ scene: 'private', id: 'u2' });
    const first = privateMessage('a', me, 'u2', 10);
    const second = privateMessage('b', me, 'u2', 20);
    conversation.save(first);
    conversation.save(second);
    conversation.markRead('u2', 15);
    expect([first.read, second.read]).toEqual([true, false]);
    expect(conversation.markRead('u2', 12)).toBe(false);
    expect(first.read).toBe(true);
    conversation.markRead('u2', 20);
    expect(second.read).toBe(true);
  });

  it('lists top conversations first, then newest, at most 200, with an unread total', () => {
    const store = new ConversationStore(me);
    for (let i = 1; i <= 205; i++)
      store.ensure({ scene: 'private', id: `u${i}` }).save(privateMessage(`m${i}`, `u${i}`, me, i));
    store.ensure({ scene: 'private', id: 'u1' }).top = true;
    const { conversations, unreadTotal } = store.snapshot();
    expect(conversations).toHaveLength(200);
    expect(conversations[0]).toMatchObject({ type: 'private', userId: 'u1', top: true, unread: 1 });
    expect(conversations[1].userId).toBe('u205');
    expect(unreadTotal).toBe(200);
    expect(store.get({ scene: 'private', id: 'u2' })).toBeUndefined();
  });
});

describe('CS session status', () => {
  const customer = 'c1';
  const fromCustomer = (over: Partial<CSMessage> = {}) =>
    csMessage({ senderId: customer, to: 'team', timestamp: 100, sessionId: '5', ...over });
  const fromAgent = (over: Partial<CSMessage>) => csMessage({ senderId: 'a1', to: customer, sessionId: '5', ...over });

  it('FREE -> PENDING on a customer message, ACCEPTED on accept, FREE on end', () => {
    let status = nextCsStatus({ status: 'FREE' }, fromCustomer());
    expect(status).toEqual({ status: 'PENDING', start: 100, sessionId: '5' });
    status = nextCsStatus(
      status,
      fromAgent({ type: 'CS_ACCEPT', payload: { sessionStart: 120 }, senderData: { name: 'Agent' } }),
    );
    expect(status).toEqual({
      status: 'ACCEPTED',
      start: 120,
      sessionId: '5',
      agent: { id: 'a1', data: { name: 'Agent' } },
    });
    expect(nextCsStatus(status, fromCustomer())).toBe(status);
    expect(nextCsStatus(status, fromAgent({ type: 'CS_END', payload: {} }))).toEqual({ status: 'FREE' });
  });

  it('transfer makes the target the agent; older sessions do not override a newer one', () => {
    const transferred = nextCsStatus(
      { status: 'ACCEPTED', sessionId: '5', agent: { id: 'a1' } },
      fromAgent({ type: 'CS_TRANSFER', payload: { sessionStart: 130, transferTo: { id: 'a2', data: { n: 2 } } } }),
    );
    expect(transferred).toEqual({
      status: 'ACCEPTED',
      start: 130,
      sessionId: '5',
      agent: { id: 'a2', data: { n: 2 } },
    });
    const stale = fromAgent({ type: 'CS_END', payload: {}, sessionId: '4' });
    expect(nextCsStatus(transferred, stale)).toBe(transferred);
    expect(nextCsStatus({ status: 'FREE' }, fromAgent({ type: 'text' }))).toEqual({ status: 'FREE' });
  });

  it('a conversation ends with an end or a transfer to someone else', () => {
    const store = new ConversationStore('a1');
    const conversation = store.ensure({ scene: 'cs', id: customer, teamId: 'team' });
    conversation.save(fromCustomer({ messageId: 'x', timestamp: 1 }));
    expect(conversation.toDTO()).toMatchObject({ type: 'cs', id: customer, teamId: 'team', ended: false, unread: 1 });
    conversation.save(
      fromAgent({
        messageId: 'y',
        timestamp: 2,
        type: 'CS_TRANSFER',
        payload: { sessionStart: 2, transferTo: { id: 'a1' } },
      }),
    );
    expect(conversation.ended()).toBe(false);
    conversation.save(
      fromAgent({
        messageId: 'z',
        timestamp: 3,
        type: 'CS_TRANSFER',
        payload: { sessionStart: 2, transferTo: { id: 'a2' } },
      }),
    );
    expect(conversation.ended()).toBe(true);
    conversation.save(fromAgent({ messageId: 'w', timestamp: 4, type: 'CS_END', payload: {} }));
    expect(conversation.ended()).toBe(true);
    expect(conversation.csStatus.status).toBe('FREE');
  });
});

describe('de-duplication', () => {
  it('remembers the last 300 ids', () => {
    const recent = new RecentIds();
    expect(recent.add('first')).toBe(true);
    expect(recent.add('first')).toBe(false);
    for (let i = 0; i < 300; i++) recent.add(`id${i}`);
    expect(recent.add('first')).toBe(true);
    expect(recent.add('id299')).toBe(false);
  });
});

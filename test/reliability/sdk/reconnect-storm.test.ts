import type { GoEasy } from '../../../src/messaging';
import { type TestServer, connectUser, eventually, startServer } from '../../sdk/support/harness';
import { recordReliability } from '../../support/reliability';
import { collectPrivate, dropSocket, tally } from './support';

const DROPS = 100;
let server: TestServer;
const clients: GoEasy[] = [];

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.disconnect().catch(() => undefined)));
  await server.stop();
});

it(`a client dropped and reconnected ${DROPS} times in a row ends with the right conversation and unread count`, async () => {
  const ann = await connectUser(server, 'storm-ann');
  const bob = await connectUser(server, 'storm-bob');
  clients.push(ann, bob);
  await bob.im.latestConversations();
  await ann.im.latestConversations();
  const received = collectPrivate(bob);
  const to = { type: 'private' as const, id: 'storm-bob', data: { name: 'Bob' } };
  const sent: string[] = [];
  const send = async (text: string) => {
    const message = ann.im.createTextMessage({ text, to });
    await ann.im.sendMessage({ message });
    sent.push(message.messageId);
  };

  let drops = 0;
  let reconnects = 0;
  bob.onConnectionStatusChanged((_status, state) => {
    if (state === 'reconnecting') drops += 1;
    if (state === 'reconnected' || state === 'expired-reconnected') reconnects += 1;
  });
  let sentWhileAway = 0;
  for (let drop = 1; drop <= DROPS; drop += 1) {
    dropSocket(bob, true);
    await eventually(() => expect(drops).toBe(drop));
    // One message while Bob is away; every tenth round another once he is back.
    await send(`away ${drop}`);
    if (bob.getConnectionStatus() === 'reconnecting') sentWhileAway += 1;
    await eventually(() => expect(reconnects).toBe(drop), 15000);
    if (drop % 10 === 0) await send(`back ${drop}`);
  }

  await eventually(() => expect(new Set(received.map((message) => message.messageId)).size).toBe(sent.length), 15000);
  const figures = tally(
    sent,
    received.map((message) => message.messageId),
  );
  recordReliability({ suite: 'reconnect-storm', faults: DROPS, ...figures, sentWhileAway });
  expect(sentWhileAway).toBeGreaterThan(DROPS / 2);
  expect(figures).toEqual({ messagesChecked: DROPS + DROPS / 10, lost: 0, duplicated: 0 });
  expect(received.map((message) => message.messageId)).toEqual(sent);

  const [conversation] = (await bob.im.latestConversations()).content.conversations;
  expect(conversation).toMatchObject({ userId: 'storm-ann', unread: sent.length });
  expect(conversation.lastMessage.messageId).toBe(sent[sent.length - 1]);
  const history = await bob.im.history({ userId: 'storm-ann', limit: 30 });
  expect(history.content.map((message) => message.messageId)).toEqual(sent.slice(-30));
  const [annSide] = (await ann.im.latestConversations()).content.conversations;
  expect(annSide).toMatchObject({ userId: 'storm-bob', unread: 0 });

  // Read on one more drop: the count the server keeps survives the reconnect.
  await bob.im.markMessageAsRead({ id: 'storm-ann', type: 'private' });
  dropSocket(bob, true);
  await eventually(() => expect(reconnects).toBe(DROPS + 1), 15000);
  expect((await bob.im.latestConversations()).content).toMatchObject({ unreadTotal: 0 });
}, 300000);

import { type AnyMessage, type GoEasy, IM_EVENT } from '../../src/messaging';
import { type TestServer, connectUser, eventually, startServer } from './support/harness';

let server: TestServer;
const clients: GoEasy[] = [];

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.disconnect().catch(() => undefined)));
  await server.stop();
});

it('loses and duplicates nothing when the server restarts mid-conversation', async () => {
  const ann = await connectUser(server, 'r-ann');
  const bob = await connectUser(server, 'r-bob');
  clients.push(ann, bob);
  await bob.im.latestConversations();
  const received: AnyMessage[] = [];
  bob.im.on(IM_EVENT.PRIVATE_MESSAGE_RECEIVED, (message: AnyMessage) => received.push(message));
  const news: string[] = [];
  await bob.pubsub.subscribe({ channel: 'r-news', onMessage: (message) => news.push(message.content) });
  const bobStatuses: string[] = [];
  bob.onConnectionStatusChanged((status, state) => bobStatuses.push(`${status}/${state}`));

  const to = { type: 'private' as const, id: 'r-bob', data: { name: 'Bob' } };
  const before = ann.im.createTextMessage({ text: 'before the restart', to });
  await ann.im.sendMessage({ message: before });
  await eventually(() => expect(received).toHaveLength(1));

  await server.kill();
  await eventually(() => expect(ann.getConnectionStatus()).toBe('reconnecting'));
  const during = ann.im.createTextMessage({ text: 'while the server is down', to });
  const sendingDuring = ann.im.sendMessage({ message: during });
  expect(during.status).toBe('sending');

  await server.restart();
  await sendingDuring;
  expect(during.status).toBe('success');
  // A new server session: the machine's `expired-reconnected`, GoEasy's public `reconnected`.
  await eventually(() => expect(bob.getConnectionStatus()).toBe('reconnected'), 15000);
  expect(bobStatuses).toEqual(['reconnecting/reconnecting', 'reconnected/expired-reconnected']);
  const after = ann.im.createTextMessage({ text: 'after the restart', to });
  await ann.im.sendMessage({ message: after });

  await eventually(() =>
    expect(received.map((message) => message.messageId)).toEqual([before.messageId, during.messageId, after.messageId]),
  );
  const history = await bob.im.history({ userId: 'r-ann' });
  expect(history.content.map((message) => message.messageId)).toEqual([
    before.messageId,
    during.messageId,
    after.messageId,
  ]);
  const conversation = (await bob.im.latestConversations()).content.conversations[0];
  expect(conversation).toMatchObject({ userId: 'r-ann', unread: 3 });

  await ann.pubsub.publish({ channel: 'r-news', message: 'resubscribed' });
  await eventually(() => expect(news).toEqual(['resubscribed']));
}, 60000);

it('subscribes user and group presence again after a restart, and forgets them on disconnect', async () => {
  const watcher = await connectUser(server, 'rp-watcher');
  clients.push(watcher);
  const seen: string[] = [];
  watcher.im.on(IM_EVENT.USER_PRESENCE, (event: unknown) => seen.push(`user ${JSON.stringify(event)}`));
  watcher.im.on(IM_EVENT.GROUP_PRESENCE, (event: unknown) => seen.push(`group ${JSON.stringify(event)}`));
  await watcher.im.subscribeUserPresence({ userIds: ['rp-friend'] });
  // A group's presence is for its members: join first.
  await watcher.im.subscribeGroup({ groupIds: ['rp-group'] });
  await watcher.im.subscribeGroupPresence({ groupIds: ['rp-group'] });

  const restart = async () => {
    await server.kill();
    await server.restart();
    await eventually(() => expect(watcher.getConnectionStatus()).toBe('reconnected'), 15000);
  };
  await restart();
  const friend = await connectUser(server, 'rp-friend');
  await friend.im.subscribeGroup({ groupIds: ['rp-group'] });
  await eventually(() => expect(seen.some((entry) => entry.startsWith('user') && entry.includes('online'))).toBe(true));
  await eventually(() => expect(seen.some((entry) => entry.startsWith('group'))).toBe(true));
  await friend.disconnect();

  // A disconnect ends the subscriptions: the next restart does not bring them back.
  await watcher.disconnect();
  await watcher.connect({ id: 'rp-watcher', data: { name: 'rp-watcher' }, otp: server.otp('rp-watcher') });
  seen.length = 0;
  await restart();
  const control = await connectUser(server, 'rp-control');
  clients.push(control);
  const controlSeen: unknown[] = [];
  control.im.on(IM_EVENT.USER_PRESENCE, (event: unknown) => controlSeen.push(event));
  await control.im.subscribeUserPresence({ userIds: ['rp-friend'] });
  const again = await connectUser(server, 'rp-friend');
  clients.push(again);
  await eventually(() => expect(controlSeen.length).toBeGreaterThan(0));
  expect(seen).toEqual([]);
}, 90000);

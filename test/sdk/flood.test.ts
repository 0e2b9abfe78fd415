import { ErrorCode, type GoEasy, type MessagingError } from '../../src/messaging';
import { recordReliability } from '../support/reliability';
import { type TestServer, connectUser, startServer } from './support/harness';

/**
 * The server's flood limits with their default configuration (10 messages per second per connection, 20 per
 * user): a burst from one client is refused past the limit with 429, and the SDK hands that error to the app
 * as it came, for publishes and IM messages alike.
 */
let server: TestServer;
const clients: GoEasy[] = [];

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.disconnect().catch(() => undefined)));
  await server.stop();
});

const outcome = (sending: Promise<unknown>) =>
  sending.then(
    () => 'sent' as const,
    (error: MessagingError) => error,
  );

it('refuses a burst of IM messages past the per-connection limit with a 429 the app receives', async () => {
  const flooder = await connectUser(server, 'fl-ann');
  clients.push(flooder);
  const burst = Array.from({ length: 30 }, (_, i) =>
    outcome(
      flooder.im.sendMessage({
        message: flooder.im.createTextMessage({ text: `flood ${i}`, to: { type: 'private', id: 'fl-bob', data: {} } }),
      }),
    ),
  );
  const results = await Promise.all(burst);
  const refused = results.filter((result): result is MessagingError => result !== 'sent');
  // The burst spans at most two one-second windows.
  expect(results.length - refused.length).toBeLessThanOrEqual(20);
  expect(refused.length).toBeGreaterThanOrEqual(10);
  for (const error of refused) {
    expect(error).toEqual({
      code: ErrorCode.TOO_MANY_REQUESTS,
      content: 'Too many messages: at most 10 per second on one connection',
    });
  }
  recordReliability({ suite: 'attack-messaging-limits', payloads: results.length, refused: refused.length });
});

it('refuses a burst of publishes the same way', async () => {
  const publisher = await connectUser(server, 'fl-pub', { name: 'pub' }, ['pubsub']);
  clients.push(publisher);
  const results = await Promise.all(
    Array.from({ length: 30 }, (_, i) => outcome(publisher.pubsub.publish({ channel: 'fl-news', message: `n${i}` }))),
  );
  const refused = results.filter((result): result is MessagingError => result !== 'sent');
  expect(refused.length).toBeGreaterThanOrEqual(10);
  expect(refused[0]).toEqual({
    code: 429,
    content: 'Too many messages: at most 10 per second on one connection',
  });
  recordReliability({ suite: 'attack-messaging-limits', payloads: results.length, refused: refused.length });
});

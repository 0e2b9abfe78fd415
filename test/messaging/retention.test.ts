import { type TestServer, connected, removeDir, sleep, startServer } from './helpers';

/**
 * The periodic sweep keeps pub/sub history by count and by age, and deletes outbox rows (what the offline
 * push and WeChat adapters handed off) and pending deliveries past their keep time.
 */
describe('retention', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({
      MESSAGING_PUBSUB_HISTORY_MAX: '5',
      MESSAGING_PUBSUB_HISTORY_MS: '3600000',
      MESSAGING_OUTBOX_KEEP_MS: '1',
      MESSAGING_PENDING_DELIVERY_KEEP_MS: '1',
      MESSAGING_SWEEP_INTERVAL_MS: '100',
    });
  });
  afterAll(async () => {
    await server.close();
    removeDir(server.dir);
  });

  const count = async (table: string, where?: [string, string]) => {
    let query = server.db.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n'));
    if (where) query = query.where(where[0], '=', where[1]);
    return Number((await query.executeTakeFirstOrThrow()).n);
  };

  async function until(check: () => Promise<boolean>, what: string) {
    for (const started = Date.now(); !(await check()); ) {
      if (Date.now() - started > 5000) throw new Error(`never swept: ${what}`);
      await sleep(50);
    }
  }

  it('keeps the newest messages of a channel, nothing older than the age limit, and no old hand-offs', async () => {
    const { client } = await connected(server.url, 'ret-a');
    const { client: receiverGone } = await connected(server.url, 'ret-b');
    receiverGone.close();
    try {
      for (let i = 0; i < 8; i += 1) {
        const ack = await client.request('publish', {
          channel: 'ret-news',
          content: `m${i}`,
          guid: `ret-${i}`,
          nt: { title: 'T', body: 'B' },
        });
        expect(ack.code).toBe(200);
      }
      await server.db.db
        .insertInto('msg_pubsub_message')
        .values({ guid: 'ret-ancient', channel: 'ret-old', content: 'x', sender_id: 'ret-a', created_at: 1 })
        .execute();
      await client.request('publishIM', {
        mt: 'text',
        to: 'ret-b',
        d: '{}',
        p: JSON.stringify({ text: 'while away' }),
        t: 'private',
        guid: 'ret-im',
      });
      await until(async () => (await count('msg_pubsub_message', ['channel', 'ret-news'])) === 5, 'channel count');
      const history = await client.request('historyMessages', { channel: 'ret-news', limit: 30 });
      expect(history.content.messages.map((m: { content: string }) => m.content)).toEqual([
        'm3',
        'm4',
        'm5',
        'm6',
        'm7',
      ]);
      await until(async () => (await count('msg_pubsub_message', ['channel', 'ret-old'])) === 0, 'history age');
      await until(async () => (await count('msg_outbox')) === 0, 'outbox');
      await until(async () => (await count('msg_im_delivery', ['user_id', 'ret-b'])) === 0, 'pending deliveries');
      // The message itself stays in the conversation's history.
      const { client: back } = await connected(server.url, 'ret-b');
      const im = await back.request('IM_HISTORY', { scene: 'private', id: 'ret-a' });
      expect(im.content.messages).toHaveLength(1);
      back.close();
    } finally {
      client.close();
    }
  });
});

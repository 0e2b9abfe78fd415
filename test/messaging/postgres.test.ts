import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { type Client, PG_URL, type TestServer, connected, pgSchema, removeDir, sleep, startServer } from './helpers';

const d = process.env.LENSMATE_TEST_PG ? describe : describe.skip;

d('the messaging server on PostgreSQL', () => {
  let schema = '';
  let dropSchema: () => Promise<void>;
  let server: TestServer;
  const clients: Client[] = [];
  async function user(id: string) {
    const { client } = await connected(server.url, id);
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    const created = await pgSchema('msg_test');
    schema = created.name;
    dropSchema = created.drop;
    server = await startServer({}, mkdtempSync(join(tmpdir(), 'lensmate-msg-pg-')), created.url);
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await server.close();
    removeDir(server.dir);
    await dropSchema();
  });

  it('stores, delivers, dedupes, pages, marks read and lists conversations', async () => {
    const alice = await user('pg-alice');
    const send = (guid: string, body: string) =>
      alice.request('publishIM', {
        mt: 'text',
        to: 'pg-bob',
        d: '{}',
        p: JSON.stringify({ text: body }),
        t: 'private',
        guid,
      });
    const first = await send('pg-1', 'one');
    expect(await send('pg-1', 'one')).toEqual(first);
    const second = await send('pg-2', 'two');
    const bob = await user('pg-bob');
    const received = await bob.waitFor('imMessage', 2);
    expect(received.map((message) => message.i)).toEqual(['pg-1', 'pg-2']);
    await sleep(600);
    expect(bob.count('imMessage')).toBe(2);
    const history = await bob.request('IM_HISTORY', {
      id: 'pg-alice',
      scene: 'private',
      lastTimestamp: second.content.timestamp,
    });
    expect(history.content.messages.map((m: { i: string }) => m.i)).toEqual(['pg-1']);
    await bob.request('IM_MARK_AS_READ', { id: 'pg-alice', scene: 'private', lastTimestamp: second.content.timestamp });
    const list = await alice.request('imLastConversations', {});
    expect(list.content[0]).toMatchObject({
      t: 'private',
      lmsg: { i: 'pg-2' },
      userOffsets: [{ userId: 'pg-bob', offset: second.content.timestamp }],
    });
    await alice.request('subscribe', { channels: ['pg-c'] });
    await alice.request('publish', { channel: 'pg-c', content: 'persisted', guid: 'pg-p1' });
    const pubsubHistory = await alice.request('historyMessages', { channel: 'pg-c' });
    expect(pubsubHistory.content.messages).toEqual([{ time: expect.any(Number), content: 'persisted' }]);
  });

  it('pushes a group message before its delivery rows are committed, and an early acknowledgement still counts', async () => {
    // 80 members online, each acknowledging at once: the push goes out as soon as the message row is in, so
    // acknowledgements arrive while PostgreSQL still writes the 79 delivery rows. Each must still delete its row
    // (else the message is pushed again after the redelivery period, 400 ms here).
    const members = await Promise.all(Array.from({ length: 80 }, (_, index) => user(`pg-g-${index}`)));
    await Promise.all(members.map((member) => member.request('subscribeGroups', { groupIds: ['pg-group'] })));
    // The delivery rows take a second to write (a statement trigger sleeps), so every acknowledgement surely arrives
    // before they are committed.
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create function ${schema}.slow_delivery() returns trigger language plpgsql as
      $$ begin perform pg_sleep(1); return null; end $$`);
    await admin.query(`create trigger slow_delivery before insert on ${schema}.msg_im_delivery
      for each statement execute function ${schema}.slow_delivery()`);
    try {
      let answered = false;
      const sending = members[0]
        .request('publishIM', {
          mt: 'text',
          to: 'pg-group',
          d: '{}',
          p: JSON.stringify({ text: 'to all' }),
          t: 'group',
          guid: 'pg-group-1',
        })
        .finally(() => {
          answered = true;
        });
      await Promise.all(members.slice(1).map((member) => member.waitFor('imMessage', 1)));
      // Everyone has it while the sender still waits for the rows (the answer follows the commit).
      expect(answered).toBe(false);
      expect((await sending).code).toBe(200);
      await sleep(1000);
      expect(members.slice(1).map((member) => member.count('imMessage'))).toEqual(Array(79).fill(1));
      const left = await admin.query(`select count(*)::int as n from ${schema}.msg_im_delivery where message_id = $1`, [
        'pg-group-1',
      ]);
      expect(left.rows[0].n).toBe(0);
    } finally {
      await admin.query(`drop trigger slow_delivery on ${schema}.msg_im_delivery`);
      await admin.end();
    }
  });

  it('runs the CS session on PostgreSQL', async () => {
    await server.assignAgent('pg-team', 'pg-agent');
    const agent = await user('pg-agent');
    await agent.request('CS_ONLINE', { teamId: 'pg-team', teamData: '{"n":"T"}', agentData: '{"n":"A"}' });
    const customer = await user('pg-cust');
    await customer.request('publishIM', {
      mt: 'text',
      to: 'pg-team',
      d: '{}',
      p: JSON.stringify({ text: 'help' }),
      t: 'cs',
      tid: 'pg-team',
      guid: 'pg-cs-1',
    });
    expect((await agent.request('CS_PENDING_CONVERSATION', {})).content).toHaveLength(1);
    const accept = await agent.request('CS_ACCEPT', {
      teamId: 'pg-team',
      customer: { id: 'pg-cust', data: '{"n":"C"}' },
    });
    expect(accept.code).toBe(200);
    expect(
      (await customer.request('CS_CUSTOMER_STATUS', { teamId: 'pg-team', customerId: 'pg-cust' })).content,
    ).toMatchObject({
      status: 'ACCEPTED',
      agent: { id: 'pg-agent' },
    });
  });
});

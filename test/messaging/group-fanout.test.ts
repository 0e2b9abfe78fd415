import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messagingDb } from '../../server/db/messaging-schema';
import { type Client, type TestServer, connected, pgSchema, removeDir, sleep, startServer } from './helpers';

/**
 * A group message names every member in three statements (the delivery rows, the conversation rows, the
 * acknowledgements' delete), each binding the whole member list as one parameter. These run a group larger than
 * any statement's old chunk of 500 on SQLite, and on PostgreSQL when LENSMATE_TEST_PG is set.
 */
const backends: [string, boolean][] = [
  ['SQLite', true],
  ['PostgreSQL', Boolean(process.env.LENSMATE_TEST_PG)],
];

describe.each(backends)('a group message to a large group on %s', (backend, enabled) => {
  const d = enabled ? describe : describe.skip;
  d('fan-out', () => {
    let server: TestServer;
    let dropSchema: (() => Promise<void>) | undefined;
    const clients: Client[] = [];
    async function user(id: string) {
      const { client } = await connected(server.url, id);
      clients.push(client);
      return client;
    }

    beforeAll(async () => {
      const dir = mkdtempSync(join(tmpdir(), 'lensmate-msg-fanout-'));
      const schema = backend === 'PostgreSQL' ? await pgSchema('msg_fanout') : undefined;
      dropSchema = schema?.drop;
      server = await startServer({ MESSAGING_REDELIVERY_MS: '60000' }, dir, schema?.url);
    });
    afterEach(() => {
      for (const client of clients.splice(0)) client.close();
    });
    afterAll(async () => {
      await server.close();
      removeDir(server.dir);
      await dropSchema?.();
    });

    it('writes a delivery row per other member and a conversation row per member, each acknowledgement deletes its own, two messages at once leave every conversation on the later one', async () => {
      const db = messagingDb(server.db.db);
      // 1,200 members (the directory's rows, as the shop's would be), 520 of them online.
      const members = Array.from({ length: 1200 }, (_, index) => `big-${index}`);
      for (let start = 0; start < members.length; start += 200) {
        await db
          .insertInto('msg_group_member')
          .values(members.slice(start, start + 200).map((userId) => ({ group_id: 'big', user_id: userId })))
          .execute();
      }
      const online: Client[] = [];
      for (let start = 0; start < 520; start += 52) {
        online.push(...(await Promise.all(members.slice(start, start + 52).map((id) => user(id)))));
      }
      const sent = await online[0].request('publishIM', {
        mt: 'text',
        to: 'big',
        d: JSON.stringify({ name: 'Big group' }),
        p: JSON.stringify({ text: 'to 1,199' }),
        t: 'group',
        guid: 'big-1',
      });
      expect(sent.code).toBe(200);
      await Promise.all(online.slice(1).map((client) => client.waitFor('imMessage', 1)));
      const ts = sent.content.timestamp as number;

      const conversations = await db
        .selectFrom('msg_im_conversation')
        .select(['owner_id', 'updated_at', 'data', 'top', 'removed_at'])
        .where('scene', '=', 'group')
        .where('target_id', '=', 'big')
        .execute();
      expect(conversations.map((row) => row.owner_id).sort()).toEqual([...members].sort());
      for (const row of conversations) {
        expect(Number(row.updated_at)).toBe(ts);
        expect(row.data).toBe(JSON.stringify({ name: 'Big group' }));
        expect(Number(row.top)).toBe(0);
        expect(Number(row.removed_at)).toBe(0);
      }

      // The 519 online receivers acknowledge; the 680 offline ones keep their rows.
      const pendingOf = async () =>
        (await db.selectFrom('msg_im_delivery').select('user_id').where('message_id', '=', 'big-1').execute()).map(
          (row) => row.user_id,
        );
      const deadline = Date.now() + 5000;
      while ((await pendingOf()).length > 680 && Date.now() < deadline) await sleep(50);
      expect((await pendingOf()).sort()).toEqual(members.slice(520).sort());

      // An offline member gets it when they come back, once, and their acknowledgement deletes only their row.
      const late = await user('big-1000');
      const [message] = await late.waitFor('imMessage', 1);
      expect(message).toMatchObject({ i: 'big-1', t: 'group', r: 'big', s: 'big-0' });
      while ((await pendingOf()).includes('big-1000') && Date.now() < deadline + 5000) await sleep(50);
      expect((await pendingOf()).sort()).toEqual(
        members
          .slice(520)
          .filter((id) => id !== 'big-1000')
          .sort(),
      );
      const list = await late.request('imLastConversations', {});
      expect(list.content[0]).toMatchObject({
        t: 'group',
        lmsg: { i: 'big-1' },
        d: JSON.stringify({ name: 'Big group' }),
      });

      // A second message moves every member's conversation on and keeps each one's own state (a top).
      expect(await late.request('topConversation', { type: 'group', targetId: 'big', top: true })).toMatchObject({
        code: 200,
      });
      const second = await online[1].request('publishIM', {
        mt: 'text',
        to: 'big',
        d: JSON.stringify({ name: 'Big group 2' }),
        p: JSON.stringify({ text: 'again' }),
        t: 'group',
        guid: 'big-2',
      });
      const after = await db
        .selectFrom('msg_im_conversation')
        .select(['owner_id', 'updated_at', 'data', 'top'])
        .where('scene', '=', 'group')
        .where('target_id', '=', 'big')
        .execute();
      expect(after).toHaveLength(1200);
      expect(after.every((row) => Number(row.updated_at) === second.content.timestamp)).toBe(true);
      expect(after.every((row) => row.data === JSON.stringify({ name: 'Big group 2' }))).toBe(true);
      expect(after.filter((row) => Number(row.top) === 1).map((row) => row.owner_id)).toEqual(['big-1000']);

      // Two members write at once: both messages are stored, and every member's conversation ends on the later one.
      const both = await Promise.all(
        [2, 3].map((index) =>
          online[index].request('publishIM', {
            mt: 'text',
            to: 'big',
            d: JSON.stringify({ name: `Big group from ${index}` }),
            p: JSON.stringify({ text: `at once ${index}` }),
            t: 'group',
            guid: `big-at-once-${index}`,
          }),
        ),
      );
      expect(both.map((answer) => answer.code)).toEqual([200, 200]);
      const later = both[0].content.timestamp > both[1].content.timestamp ? 2 : 3;
      const last = await db
        .selectFrom('msg_im_conversation')
        .select(['updated_at', 'data'])
        .where('scene', '=', 'group')
        .where('target_id', '=', 'big')
        .execute();
      expect(new Set(last.map((row) => `${Number(row.updated_at)} ${row.data}`))).toEqual(
        new Set([`${Math.max(...both.map((answer) => answer.content.timestamp))} {"name":"Big group from ${later}"}`]),
      );
      await online[4].waitFor('imMessage', 4);
    }, 60_000);
  });
});

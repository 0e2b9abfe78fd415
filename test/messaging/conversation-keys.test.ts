import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator } from 'kysely';
import { openDb } from '../../server/db/connection';
import { messagingMigrations, migrateMessaging } from '../../server/db/messaging-migrations';
import { type TestServer, connected, removeDir, startServer } from './helpers';

/**
 * Conversations stored before keys carried their scene (private `a:b`, bare group id, CS `team|customer`) are
 * rewritten once by m002, so their history, read marks and deletions stay with the same users; running the
 * messaging migrations a second time (a second migrator on the same database) changes nothing.
 */
describe('conversation keys written before m002', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lensmate-keys-'));
  const file = join(dir, 'messaging.sqlite');
  let server: TestServer;

  const message = (id: string, scene: string, conversation: string, sender: string, receiver: string, ts: number) => ({
    id,
    scene,
    conversation,
    sender_id: sender,
    sender_data: '{}',
    receiver,
    team_id: scene === 'cs' ? 'team' : null,
    customer_id: scene === 'cs' ? 'carl' : null,
    type: 'text',
    payload: JSON.stringify({ text: id }),
    ts,
    session_id: scene === 'cs' ? '1' : null,
    accepted: 0,
    recalled: 0,
    recaller: null,
    notification: null,
  });

  beforeAll(async () => {
    const handle = openDb(file);
    const { m001_messaging } = messagingMigrations;
    await new Migrator({
      db: handle.db,
      provider: { getMigrations: async () => ({ m001_messaging }) },
      migrationTableName: 'msg_migration',
      migrationLockTableName: 'msg_migration_lock',
    }).migrateToLatest();
    await handle.db
      .insertInto('msg_im_message')
      .values([
        message('old-private', 'private', 'bob:ann', 'ann', 'bob', 1000),
        message('old-group', 'group', 'friends', 'ann', 'friends', 1001),
        message('old-cs', 'cs', 'team|carl', 'carl', 'team', 1002),
      ])
      .execute();
    await handle.db
      .insertInto('msg_im_offset')
      .values([
        { conversation: 'bob:ann', user_id: 'bob', offset: 1000 },
        { conversation: 'team|carl', user_id: 'carl', offset: 1002 },
      ])
      .execute();
    await handle.db
      .insertInto('msg_im_deleted')
      .values({ user_id: 'ann', message_id: 'old-group', conversation: 'friends', ts: 1001 })
      .execute();
    await handle.db.insertInto('msg_group_member').values({ group_id: 'friends', user_id: 'ann' }).execute();
    await handle.close();
    server = await startServer({}, dir, file);
    // The product's migrator running the messaging migrations again on the same database.
    await migrateMessaging(server.db.db);
  });
  afterAll(async () => {
    await server.close();
    removeDir(dir);
  });

  it('keeps each old conversation with its users, under a key of its scene', async () => {
    const keys = await server.db.db.selectFrom('msg_im_message').select(['id', 'conversation']).orderBy('id').execute();
    expect(keys).toEqual([
      { id: 'old-cs', conversation: 'c:team:carl' },
      { id: 'old-group', conversation: 'g:friends' },
      { id: 'old-private', conversation: 'p:bob:ann' },
    ]);
    const { client: bob } = await connected(server.url, 'bob');
    const { client: carl } = await connected(server.url, 'carl');
    const { client: ann } = await connected(server.url, 'ann');
    try {
      const privateHistory = await bob.request('IM_HISTORY', { scene: 'private', id: 'ann' });
      expect(privateHistory.content.messages.map((m: { i: string }) => m.i)).toEqual(['old-private']);
      expect(privateHistory.content.userOffsets).toEqual([{ userId: 'bob', offset: 1000 }]);
      const csHistory = await carl.request('IM_HISTORY', { scene: 'cs', id: 'team', teamId: 'team' });
      expect(csHistory.content.messages.map((m: { i: string }) => m.i)).toEqual(['old-cs']);
      expect(csHistory.content.userOffsets).toEqual([{ userId: 'carl', offset: 1002 }]);
      // Ann deleted the group message for herself before: it stays deleted.
      const groupHistory = await ann.request('IM_HISTORY', { scene: 'group', id: 'friends' });
      expect(groupHistory.content.messages).toEqual([]);
    } finally {
      for (const client of [bob, carl, ann]) client.close();
    }
  });
});

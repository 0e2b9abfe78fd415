import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import { migrationSchema } from './connection';

/**
 * The messaging server's tables (created only if absent, so running them from the product migrator and
 * from `migrateMessaging` on one database is harmless). The server's migrator runs these after the product API's own
 * migrations; names are prefixed `m` so they sort after the core ones and never collide.
 * Times are epoch milliseconds in bigint columns so SQLite and PostgreSQL order them alike.
 */
export const messagingMigrations: Record<string, Migration> = {
  m001_messaging: {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('msg_pubsub_message')
        .ifNotExists()
        .addColumn('guid', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('channel', 'varchar(255)', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('sender_id', 'varchar(255)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('msg_pubsub_message_channel')
        .ifNotExists()
        .on('msg_pubsub_message')
        .columns(['channel', 'created_at'])
        .execute();

      await db.schema
        .createTable('msg_im_message')
        .ifNotExists()
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('scene', 'varchar(16)', (c) => c.notNull())
        .addColumn('conversation', 'varchar(520)', (c) => c.notNull())
        .addColumn('sender_id', 'varchar(255)', (c) => c.notNull())
        .addColumn('sender_data', 'text', (c) => c.notNull())
        .addColumn('receiver', 'varchar(255)', (c) => c.notNull())
        .addColumn('team_id', 'varchar(255)')
        .addColumn('customer_id', 'varchar(255)')
        .addColumn('type', 'varchar(64)', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('ts', 'bigint', (c) => c.notNull())
        .addColumn('session_id', 'varchar(64)')
        .addColumn('accepted', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('recalled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('recaller', 'text')
        .addColumn('notification', 'text')
        .execute();
      await db.schema
        .createIndex('msg_im_message_conversation')
        .ifNotExists()
        .on('msg_im_message')
        .columns(['conversation', 'ts'])
        .execute();

      await db.schema
        .createTable('msg_im_delivery')
        .ifNotExists()
        .addColumn('user_id', 'varchar(255)', (c) => c.notNull())
        .addColumn('message_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('msg_im_delivery_pk', ['user_id', 'message_id'])
        .execute();

      await db.schema
        .createTable('msg_im_deleted')
        .ifNotExists()
        .addColumn('user_id', 'varchar(255)', (c) => c.notNull())
        .addColumn('message_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('conversation', 'varchar(520)', (c) => c.notNull())
        .addColumn('ts', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('msg_im_deleted_pk', ['user_id', 'message_id'])
        .execute();

      await db.schema
        .createTable('msg_im_offset')
        .ifNotExists()
        .addColumn('conversation', 'varchar(520)', (c) => c.notNull())
        .addColumn('user_id', 'varchar(255)', (c) => c.notNull())
        .addColumn('offset', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('msg_im_offset_pk', ['conversation', 'user_id'])
        .execute();

      await db.schema
        .createTable('msg_im_conversation')
        .ifNotExists()
        .addColumn('owner_id', 'varchar(255)', (c) => c.notNull())
        .addColumn('scene', 'varchar(16)', (c) => c.notNull())
        .addColumn('target_id', 'varchar(255)', (c) => c.notNull())
        .addColumn('team_id', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('conversation', 'varchar(520)', (c) => c.notNull())
        .addColumn('top', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('data', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('removed_at', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('msg_im_conversation_pk', ['owner_id', 'scene', 'target_id', 'team_id'])
        .execute();

      await db.schema
        .createTable('msg_group_member')
        .ifNotExists()
        .addColumn('group_id', 'varchar(255)', (c) => c.notNull())
        .addColumn('user_id', 'varchar(255)', (c) => c.notNull())
        .addPrimaryKeyConstraint('msg_group_member_pk', ['group_id', 'user_id'])
        .execute();
      await db.schema
        .createIndex('msg_group_member_user')
        .ifNotExists()
        .on('msg_group_member')
        .column('user_id')
        .execute();

      await db.schema
        .createTable('msg_cs_session')
        .ifNotExists()
        .addColumn('team_id', 'varchar(255)', (c) => c.notNull())
        .addColumn('customer_id', 'varchar(255)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('session_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('start', 'bigint', (c) => c.notNull())
        .addColumn('agent_id', 'varchar(255)')
        .addColumn('agent_data', 'text')
        .addColumn('customer_data', 'text', (c) => c.notNull().defaultTo('{}'))
        .addPrimaryKeyConstraint('msg_cs_session_pk', ['team_id', 'customer_id'])
        .execute();

      await db.schema
        .createTable('msg_cs_agent')
        .ifNotExists()
        .addColumn('team_id', 'varchar(255)', (c) => c.notNull())
        .addColumn('agent_id', 'varchar(255)', (c) => c.notNull())
        .addColumn('agent_data', 'text', (c) => c.notNull())
        .addColumn('team_data', 'text', (c) => c.notNull())
        .addColumn('online', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('msg_cs_agent_pk', ['team_id', 'agent_id'])
        .execute();

      await db.schema
        .createTable('msg_user_wxmp')
        .ifNotExists()
        .addColumn('user_id', 'varchar(255)', (c) => c.primaryKey())
        .addColumn('appid', 'varchar(64)', (c) => c.notNull())
        .addColumn('openid', 'varchar(128)', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('msg_outbox')
        .ifNotExists()
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('recipient', 'varchar(255)', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<any>) {
      for (const table of [
        'msg_outbox',
        'msg_user_wxmp',
        'msg_cs_agent',
        'msg_cs_session',
        'msg_group_member',
        'msg_im_conversation',
        'msg_im_offset',
        'msg_im_deleted',
        'msg_im_delivery',
        'msg_im_message',
        'msg_pubsub_message',
      ]) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  },
  m002_security: {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('msg_revocation')
        .ifNotExists()
        .addColumn('user_id', 'varchar(255)', (c) => c.notNull())
        .addColumn('session_ref', 'varchar(64)', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('msg_revocation_pk', ['user_id', 'session_ref'])
        .execute();

      // The shop's assignment of agents to customer-service teams (admins edit it; CS_ONLINE needs a row).
      await db.schema
        .createTable('msg_cs_assignment')
        .ifNotExists()
        .addColumn('team_id', 'varchar(255)', (c) => c.notNull())
        .addColumn('agent_id', 'varchar(255)', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('msg_cs_assignment_pk', ['team_id', 'agent_id'])
        .execute();
      await db.schema
        .createIndex('msg_cs_assignment_agent')
        .ifNotExists()
        .on('msg_cs_assignment')
        .column('agent_id')
        .execute();

      // The sweep deletes by age.
      for (const table of ['msg_outbox', 'msg_im_delivery', 'msg_pubsub_message']) {
        await db.schema.createIndex(`${table}_created_at`).ifNotExists().on(table).column('created_at').execute();
      }

      await db.schema
        .createTable('msg_marker')
        .ifNotExists()
        .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
        .execute();
      await rewriteConversationKeys(db);
    },
    async down(db: Kysely<any>) {
      for (const table of ['msg_marker', 'msg_cs_assignment', 'msg_revocation']) {
        await db.schema.dropTable(table).ifExists().execute();
      }
    },
  },
};

/**
 * Conversation keys used to be the private pair `a:b`, the bare group id and `team|customer`, so a group id
 * shaped like another key named that conversation. They now carry their scene (protocol.ts conversationKey).
 * Rows written before are rewritten once; the marker row keeps a second migrator on the same database (the
 * product's and migrateMessaging) from prefixing them twice.
 */
async function rewriteConversationKeys(db: Kysely<any>): Promise<void> {
  // The migrator already runs migrations in a transaction where the dialect has them (PostgreSQL).
  const inTransaction = <T>(work: (trx: Kysely<any>) => Promise<T>) =>
    db.isTransaction ? work(db) : db.transaction().execute(work);
  await inTransaction(async (trx) => {
    const done = await trx
      .insertInto('msg_marker')
      .values({ name: 'conversation-keys-by-scene' })
      .onConflict((oc) => oc.column('name').doNothing())
      .executeTakeFirst();
    if (Number(done.numInsertedOrUpdatedRows ?? 0) === 0) return;
    const byScene = sql`case scene when 'private' then 'p:' || conversation when 'group' then 'g:' || conversation
      when 'cs' then 'c:' || replace(conversation, '|', ':') else conversation end`;
    await sql`update msg_im_message set conversation = ${byScene}`.execute(trx);
    await sql`update msg_im_conversation set conversation = ${byScene}`.execute(trx);
    await sql`update msg_im_deleted set conversation = coalesce((select m.conversation from msg_im_message m
      where m.id = msg_im_deleted.message_id), conversation)`.execute(trx);
    // Read marks have no scene: the old key's shape tells it (only a group id forged like a key is misread).
    await sql`update msg_im_offset set conversation = case when conversation like '%|%'
      then 'c:' || replace(conversation, '|', ':') when conversation like '%:%' then 'p:' || conversation
      else 'g:' || conversation end`.execute(trx);
  });
}

const provider: MigrationProvider = { getMigrations: async () => messagingMigrations };

/**
 * Runs only the messaging migrations (tests and a standalone messaging process); the product server runs them with
 * its own. Migrations take `Kysely<any>`, as Kysely prescribes: a migration must not depend on today's schema type.
 */
export async function migrateMessaging(db: Kysely<any>): Promise<void> {
  const migrator = new Migrator({
    db,
    provider,
    migrationTableName: 'msg_migration',
    migrationLockTableName: 'msg_migration_lock',
    ...(await migrationSchema(db)),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`messaging migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

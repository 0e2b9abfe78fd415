import {
  type ColumnDefinitionBuilder,
  type CreateTableBuilder,
  type Kysely,
  type Migration,
  type MigrationProvider,
  Migrator,
  sql,
} from 'kysely';
import pg from 'pg';
import { type Dialect, migrationSchema } from './connection';
import { messagingMigrations } from './messaging-migrations';
import { orderMigrations } from './order-schema';
import { paymentMigrations } from './payment-schema';
import { reviewMigrations } from './review-schema';
import { socialMigrations } from './social-schema';

// Times are epoch milliseconds in int8 columns; pg would hand them back as strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

type Table = CreateTableBuilder<string, never>;

function withId(table: Table, dialect: Dialect): Table {
  return table.addColumn('id', 'integer', (col: ColumnDefinitionBuilder) =>
    dialect === 'postgres' ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement(),
  ) as Table;
}

function coreMigrations(dialect: Dialect): Record<string, Migration> {
  const create = (db: Kysely<unknown>, name: string) => withId(db.schema.createTable(name) as Table, dialect);
  return {
    '0001_core': {
      async up(db: Kysely<unknown>) {
        await create(db, 'users')
          .addColumn('email', 'text', (c) => c.notNull().unique())
          .addColumn('password_hash', 'text', (c) => c.notNull())
          .addColumn('nickname', 'text', (c) => c.notNull())
          .addColumn('avatar', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('bio', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('google_sub', 'text', (c) => c.unique())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('tokens')
          .addColumn('token_hash', 'text', (c) => c.primaryKey())
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('tokens_user').on('tokens').column('user_id').execute();
        await create(db, 'verification_codes')
          .addColumn('email', 'text', (c) => c.notNull())
          .addColumn('code_hash', 'text', (c) => c.notNull())
          .addColumn('expires_at', 'bigint', (c) => c.notNull())
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('verification_codes_email').on('verification_codes').column('email').execute();
        await create(db, 'categories')
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('img', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await create(db, 'colors')
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('img', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('value', 'text', (c) => c.notNull())
          .execute();
        await create(db, 'filters')
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('img', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await create(db, 'goods')
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('img', 'text', (c) => c.notNull())
          .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('shop_price_cents', 'integer', (c) => c.notNull())
          .addColumn('discount', 'integer', (c) => c.notNull())
          .addColumn('final_price_cents', 'integer', (c) => c.notNull())
          .addColumn('category_id', 'integer', (c) => c.references('categories.id').onDelete('set null'))
          .addColumn('on_sale', 'integer', (c) => c.notNull().defaultTo(1))
          .addColumn('lens_width', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('bridge_width', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('temple_length', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('goods_listing')
          .on('goods')
          .columns(['deleted', 'on_sale', 'created_at'])
          .execute();
        await db.schema.createIndex('goods_price').on('goods').columns(['final_price_cents']).execute();
        await create(db, 'goods_colors')
          .addColumn('goods_id', 'integer', (c) => c.notNull().references('goods.id').onDelete('cascade'))
          .addColumn('color_id', 'integer', (c) => c.notNull().references('colors.id'))
          .addColumn('images', 'text', (c) => c.notNull().defaultTo('[]'))
          .addColumn('stock', 'integer')
          .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
          .addUniqueConstraint('goods_colors_unique', ['goods_id', 'color_id'])
          .execute();
        await db.schema
          .createIndex('goods_colors_color')
          .on('goods_colors')
          .columns(['color_id', 'goods_id'])
          .execute();
        await db.schema
          .createTable('goods_filters')
          .addColumn('goods_id', 'integer', (c) => c.notNull().references('goods.id').onDelete('cascade'))
          .addColumn('filter_id', 'integer', (c) => c.notNull().references('filters.id').onDelete('cascade'))
          .addPrimaryKeyConstraint('goods_filters_pk', ['goods_id', 'filter_id'])
          .execute();
        await db.schema
          .createIndex('goods_filters_filter')
          .on('goods_filters')
          .columns(['filter_id', 'goods_id'])
          .execute();
        await create(db, 'lens_types')
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('price_cents', 'integer', (c) => c.notNull())
          .addColumn('needs_prescription', 'integer', (c) => c.notNull())
          .addColumn('needs_add', 'integer', (c) => c.notNull())
          .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await create(db, 'lenses')
          .addColumn('lens_type_id', 'integer', (c) => c.notNull().references('lens_types.id').onDelete('cascade'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('price_cents', 'integer', (c) => c.notNull())
          .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await create(db, 'lens_thickness')
          .addColumn('index_value', 'double precision', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('price_cents', 'integer', (c) => c.notNull())
          .execute();
        await create(db, 'lens_coatings')
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('price_cents', 'integer', (c) => c.notNull())
          .execute();
        await create(db, 'lens_colors')
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('value', 'text', (c) => c.notNull())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('price_cents', 'integer', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('settings')
          .addColumn('key', 'text', (c) => c.primaryKey())
          .addColumn('value', 'text', (c) => c.notNull())
          .execute();
        await create(db, 'article_categories')
          .addColumn('name', 'text', (c) => c.notNull())
          .execute();
        await create(db, 'articles')
          .addColumn('title', 'text', (c) => c.notNull())
          .addColumn('cover', 'text', (c) => c.notNull())
          .addColumn('imgs', 'text', (c) => c.notNull())
          .addColumn('content', 'text', (c) => c.notNull())
          .addColumn('category_id', 'integer', (c) => c.references('article_categories.id').onDelete('set null'))
          .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('countries')
          .addColumn('code', 'text', (c) => c.primaryKey())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('phone_code', 'text', (c) => c.notNull())
          .execute();
        await create(db, 'addresses')
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('first_name', 'text', (c) => c.notNull())
          .addColumn('last_name', 'text', (c) => c.notNull())
          .addColumn('phone', 'text', (c) => c.notNull())
          .addColumn('country_code', 'text', (c) => c.notNull())
          .addColumn('province', 'text', (c) => c.notNull())
          .addColumn('city', 'text', (c) => c.notNull())
          .addColumn('street', 'text', (c) => c.notNull())
          .addColumn('street2', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('zip', 'text', (c) => c.notNull())
          .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('addresses_user').on('addresses').column('user_id').execute();
        await create(db, 'prescriptions')
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('data', 'text', (c) => c.notNull())
          .addColumn('image_url', 'text')
          .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('prescriptions_user').on('prescriptions').column('user_id').execute();
        await db.schema
          .createTable('carts')
          .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
          .addColumn('content', 'text', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute();
        await create(db, 'coupons')
          .addColumn('code', 'text', (c) => c.notNull().unique())
          .addColumn('title', 'text', (c) => c.notNull())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('value', 'integer', (c) => c.notNull())
          .addColumn('threshold_cents', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('valid_from', 'bigint', (c) => c.notNull())
          .addColumn('valid_until', 'bigint', (c) => c.notNull())
          .execute();
        await create(db, 'shipping_methods')
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('price_cents', 'integer', (c) => c.notNull())
          .addColumn('free_threshold_cents', 'integer')
          .addColumn('min_days', 'integer', (c) => c.notNull())
          .addColumn('max_days', 'integer', (c) => c.notNull())
          .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await create(db, 'orders')
          .addColumn('order_sn', 'text', (c) => c.notNull().unique())
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('client_key', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('subtotal_cents', 'integer', (c) => c.notNull())
          .addColumn('coupon_id', 'integer', (c) => c.references('coupons.id').onDelete('set null'))
          .addColumn('coupon_json', 'text')
          .addColumn('coupon_discount_cents', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('shipping_fee_cents', 'integer', (c) => c.notNull())
          .addColumn('total_cents', 'integer', (c) => c.notNull())
          .addColumn('address_json', 'text', (c) => c.notNull())
          .addColumn('shipping_json', 'text', (c) => c.notNull())
          .addColumn('tracking_no', 'text')
          .addColumn('carrier', 'text')
          .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('paid_at', 'bigint')
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .addUniqueConstraint('orders_client_key', ['user_id', 'client_key'])
          .execute();
        await db.schema
          .createTable('coupon_uses')
          .addColumn('coupon_id', 'integer', (c) => c.notNull().references('coupons.id').onDelete('cascade'))
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
          .addPrimaryKeyConstraint('coupon_uses_pk', ['coupon_id', 'user_id'])
          .execute();
        await create(db, 'order_lines')
          .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
          .addColumn('goods_id', 'integer', (c) => c.notNull())
          .addColumn('goods_name', 'text', (c) => c.notNull())
          .addColumn('goods_img', 'text', (c) => c.notNull())
          .addColumn('color_id', 'integer', (c) => c.notNull())
          .addColumn('color_name', 'text', (c) => c.notNull())
          .addColumn('quantity', 'integer', (c) => c.notNull())
          .addColumn('frame_price_cents', 'integer', (c) => c.notNull())
          .addColumn('lens_json', 'text')
          .addColumn('unit_price_cents', 'integer', (c) => c.notNull())
          .addColumn('line_total_cents', 'integer', (c) => c.notNull())
          .addColumn('prescription_json', 'text')
          .execute();
        await db.schema.createIndex('order_lines_order').on('order_lines').column('order_id').execute();
        await create(db, 'payments')
          .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
          .addColumn('provider', 'text', (c) => c.notNull())
          .addColumn('reference', 'text', (c) => c.notNull().unique())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('amount_cents', 'integer', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('sandbox_payments')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('provider', 'text', (c) => c.notNull())
          .addColumn('secret', 'text', (c) => c.notNull())
          .addColumn('amount_cents', 'integer', (c) => c.notNull())
          .addColumn('currency', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema
          .createTable('tracking_registrations')
          .addColumn('tracking_no', 'text', (c) => c.primaryKey())
          .addColumn('carrier', 'text', (c) => c.notNull())
          .addColumn('registered_at', 'bigint', (c) => c.notNull())
          .execute();
      },
    },
    // Word search over goods.search_text: a LIKE '%…%' scan cannot keep up past a few thousand goods.
    '0002_goods_search': {
      async up(db: Kysely<unknown>) {
        if (dialect === 'postgres') {
          await sql`alter table goods add column search_vector tsvector
            generated always as (to_tsvector('simple', search_text)) stored`.execute(db);
          await sql`create index goods_search_vector on goods using gin (search_vector)`.execute(db);
          return;
        }
        await sql`create virtual table goods_fts using fts5(search_text, content='goods', content_rowid='id')`.execute(
          db,
        );
        await sql`create trigger goods_fts_insert after insert on goods begin
          insert into goods_fts(rowid, search_text) values (new.id, new.search_text); end`.execute(db);
        await sql`create trigger goods_fts_delete after delete on goods begin
          insert into goods_fts(goods_fts, rowid, search_text) values ('delete', old.id, old.search_text); end`.execute(
          db,
        );
        await sql`create trigger goods_fts_update after update of search_text on goods begin
          insert into goods_fts(goods_fts, rowid, search_text) values ('delete', old.id, old.search_text);
          insert into goods_fts(rowid, search_text) values (new.id, new.search_text); end`.execute(db);
        await sql`insert into goods_fts(goods_fts) values ('rebuild')`.execute(db);
      },
    },
    // Lists sorted by price walk this index instead of sorting every listed frame. On SQLite, search_page counts its
    // matches as FTS5's count less the unlisted or deleted goods among them, which goods_unlisted alone holds.
    '0003_goods_listing_indexes': {
      async up(db: Kysely<unknown>) {
        await sql`create index goods_listing_price on goods (deleted, on_sale, final_price_cents, id desc)`.execute(db);
        if (dialect === 'postgres') return;
        await sql`create index goods_unlisted on goods (id) where deleted <> 0 or on_sale <> 1`.execute(db);
      },
    },
    // A counter that every change to the listed catalogue moves (goods rows, their colours and filters), however it
    // is written: the API caches listing totals and page ids under it (services/listing-cache.ts). Triggers, so a
    // bulk load or another server process moves it too. Stock updates by orders leave it alone.
    '0004_catalogue_version': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('catalogue_state')
          .addColumn('id', 'integer', (c) => c.primaryKey())
          .addColumn('version', 'bigint', (c) => c.notNull())
          .execute();
        await sql`insert into catalogue_state (id, version) values (1, 1)`.execute(db);
        const watched = [
          ['goods', 'insert or update or delete'],
          ['goods_colors', 'insert or delete or update of goods_id, color_id'],
          ['goods_filters', 'insert or update or delete'],
        ] as const;
        if (dialect === 'postgres') {
          await sql`create function bump_catalogue_version() returns trigger language plpgsql as $$
            begin update catalogue_state set version = version + 1 where id = 1; return null; end $$`.execute(db);
          for (const [table, events] of watched) {
            await sql`create trigger ${sql.raw(`${table}_catalogue_version`)} after ${sql.raw(events)}
              on ${sql.table(table)} for each statement execute function bump_catalogue_version()`.execute(db);
          }
          return;
        }
        for (const [table, events] of watched) {
          for (const event of events.split(' or ')) {
            const name = `${table}_catalogue_version_${event.split(' ')[0]}`;
            await sql`create trigger ${sql.raw(name)} after ${sql.raw(event)} on ${sql.table(table)}
              begin update catalogue_state set version = version + 1 where id = 1; end`.execute(db);
          }
        }
      },
    },
    // Sessions expire: a token unused for TOKEN_IDLE_DAYS (sliding) or older than TOKEN_MAX_AGE_DAYS is refused.
    // Stock moves a counter of its own (orders change it all day; the listing totals do not depend on it): list answers
    // show each colour's stock and are kept as bytes under both counters (services/goods.ts).
    '0004b_catalogue_stock_version': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .alterTable('catalogue_state')
          .addColumn('stock_version', 'bigint', (c) => c.notNull().defaultTo(1))
          .execute();
        if (dialect === 'postgres') {
          await sql`create function bump_stock_version() returns trigger language plpgsql as $$
            begin update catalogue_state set stock_version = stock_version + 1 where id = 1; return null; end $$`.execute(
            db,
          );
          await sql`create trigger goods_colors_stock_version after update of stock on goods_colors
            for each statement execute function bump_stock_version()`.execute(db);
          return;
        }
        await sql`create trigger goods_colors_stock_version after update of stock on goods_colors
          begin update catalogue_state set stock_version = stock_version + 1 where id = 1; end`.execute(db);
      },
    },
    '0005_token_last_used': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .alterTable('tokens')
          .addColumn('last_used_at', 'bigint', (c) => c.notNull().defaultTo(0))
          .execute();
        await sql`update tokens set last_used_at = created_at`.execute(db);
      },
    },
    // Sign in with WeChat: an openid of the mini-program's appid belongs to one account, an account has one openid.
    '0006_wechat_accounts': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('wechat_accounts')
          .addColumn('appid', 'text', (c) => c.notNull())
          .addColumn('openid', 'text', (c) => c.notNull())
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('wechat_accounts_pk', ['appid', 'openid'])
          .addUniqueConstraint('wechat_accounts_user', ['appid', 'user_id'])
          .execute();
      },
    },
  };
}

/** Core migrations first, then the messaging server's (prefixed `m`), orders (`o`), payments (`p`), the social (`s`) and reviews (`u`): names sort so. */
export async function migrateToLatest<DB>(db: Kysely<DB>, dialect: Dialect): Promise<void> {
  const migrations = {
    ...coreMigrations(dialect),
    ...messagingMigrations,
    ...orderMigrations(dialect),
    ...paymentMigrations(dialect),
    ...socialMigrations(dialect),
    ...reviewMigrations(dialect),
  };
  const provider: MigrationProvider = { getMigrations: async () => migrations };
  const { error, results } = await new Migrator({
    db,
    provider,
    allowUnorderedMigrations: true,
    ...(await migrationSchema(db)),
  }).migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message ?? error}`);
  }
}

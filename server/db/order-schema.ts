import { type ColumnDefinitionBuilder, type Generated, type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from './connection';

/**
 * One step of an order's life (services/order-lifecycle.ts writes it in the transaction that makes the step): who
 * made it (`actor`: staff, shopper, system for the expiry job, provider for a payment, carrier for tracking;
 * `actor_user_id` for staff and shoppers) and when. A partial refund is a step whose status does not change.
 */
export interface OrderEventsTable {
  id: Generated<number>;
  order_id: number;
  /** paid | shipped | delivered | cancelled | expired | refunded | partially_refunded */
  kind: string;
  from_status: string;
  to_status: string;
  actor: string;
  actor_user_id: number | null;
  note: string;
  amount_cents: number | null;
  /** A step's own idempotency key (a refund's), unique: the same step is never recorded twice. */
  ref: string | null;
  created_at: number;
}

export interface OrderTables {
  order_events: OrderEventsTable;
}

/** Prefixed `o`: after the core migrations, which made the orders table. */
export function orderMigrations(dialect: Dialect): Record<string, Migration> {
  return {
    o0001_order_lifecycle: {
      async up(db: Kysely<any>) {
        await db.schema
          .createTable('order_events')
          .addColumn('id', 'integer', (col: ColumnDefinitionBuilder) =>
            dialect === 'postgres' ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement(),
          )
          .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('from_status', 'text', (c) => c.notNull())
          .addColumn('to_status', 'text', (c) => c.notNull())
          .addColumn('actor', 'text', (c) => c.notNull())
          .addColumn('actor_user_id', 'integer')
          .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('amount_cents', 'integer')
          .addColumn('ref', 'text', (c) => c.unique())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('order_events_order').on('order_events').columns(['order_id', 'id']).execute();
        await db.schema
          .alterTable('orders')
          .addColumn('refunded_cents', 'integer', (c) => c.notNull().defaultTo(0))
          .execute();
        await db.schema.alterTable('orders').addColumn('shipped_at', 'bigint').execute();
        await db.schema.alterTable('orders').addColumn('delivered_at', 'bigint').execute();
        // The expiry job's and the admin list's walk: unpaid orders by age, any status by date.
        await db.schema.createIndex('orders_status_created').on('orders').columns(['status', 'created_at']).execute();
        await db.schema.createIndex('orders_created').on('orders').column('created_at').execute();
        // When the order job last asked the tracking provider about a parcel (polling, without 17track's webhook).
        await db.schema
          .alterTable('tracking_registrations')
          .addColumn('polled_at', 'bigint', (c) => c.notNull().defaultTo(0))
          .execute();
        // Orders paid before this migration get their payment step, so every paid order's history starts there.
        await sql`insert into order_events (order_id, kind, from_status, to_status, actor, note, created_at)
          select id, 'paid', 'created', 'paid', 'provider', '', paid_at from orders where paid_at is not null`.execute(
          db,
        );
      },
    },
  };
}

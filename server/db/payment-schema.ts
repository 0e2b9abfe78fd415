import type { ColumnDefinitionBuilder, Generated, Kysely, Migration } from 'kysely';
import type { Dialect } from './connection';

/** A webhook event applied: a second delivery of the same id changes nothing. */
export interface PaymentEventsTable {
  provider: string;
  event_id: string;
  type: string;
  received_at: number;
}

/**
 * Money given back on an order, one row per refund asked of the provider (services/payments/refunds.ts writes it
 * when the RefundGateway is called; the provider's webhook moves a pending one). `idempotency_key` is the caller's:
 * a retried call finds its row instead of refunding twice.
 */
export interface RefundsTable {
  id: Generated<number>;
  order_id: number;
  payment_id: number;
  provider: string;
  /** The provider's id of the refund (Stripe re_…, PayPal's refund id, Braintree's credit transaction). */
  provider_refund_id: string;
  amount_cents: number;
  currency: string;
  /** pending | succeeded | failed */
  status: string;
  idempotency_key: string;
  created_at: number;
  updated_at: number;
}

export interface PaymentTables {
  payment_events: PaymentEventsTable;
  refunds: RefundsTable;
}

/**
 * Prefixed `p`: after the core migrations (payments and orders are core tables). The offline sandbox's own table
 * goes: the sandboxes are now fakes of the providers' APIs (server/sandbox), which keep their records themselves.
 */
export function paymentMigrations(dialect: Dialect): Record<string, Migration> {
  return {
    p0001_provider_payments: {
      async up(db: Kysely<any>) {
        await db.schema.dropTable('sandbox_payments').ifExists().execute();
        await db.schema
          .alterTable('payments')
          .addColumn('currency', 'text', (c) => c.notNull().defaultTo('USD'))
          .execute();
        // Why a payment failed, as the provider said it (the card's decline, PayPal's issue), shown to the shopper.
        await db.schema
          .alterTable('payments')
          .addColumn('failure', 'text', (c) => c.notNull().defaultTo(''))
          .execute();
        await db.schema.createIndex('payments_order').on('payments').column('order_id').execute();
        await db.schema
          .createTable('payment_events')
          .addColumn('provider', 'text', (c) => c.notNull())
          .addColumn('event_id', 'text', (c) => c.notNull())
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('received_at', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('payment_events_pk', ['provider', 'event_id'])
          .execute();
        await db.schema
          .createTable('refunds')
          .addColumn('id', 'integer', (col: ColumnDefinitionBuilder) =>
            dialect === 'postgres' ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement(),
          )
          .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id').onDelete('cascade'))
          .addColumn('payment_id', 'integer', (c) => c.notNull().references('payments.id').onDelete('cascade'))
          .addColumn('provider', 'text', (c) => c.notNull())
          .addColumn('provider_refund_id', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('amount_cents', 'integer', (c) => c.notNull())
          .addColumn('currency', 'text', (c) => c.notNull())
          .addColumn('status', 'text', (c) => c.notNull())
          .addColumn('idempotency_key', 'text', (c) => c.notNull().unique())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addColumn('updated_at', 'bigint', (c) => c.notNull())
          .execute();
        await db.schema.createIndex('refunds_order').on('refunds').column('order_id').execute();
      },
    },
  };
}

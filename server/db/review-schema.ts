import type { ColumnDefinitionBuilder, Generated, Kysely, Migration } from 'kysely';
import type { Dialect } from './connection';
import type { Database } from './schema';

export interface ReviewsTable {
  id: Generated<number>;
  goods_id: number;
  user_id: number;
  rating: number;
  content: string;
  created_at: number;
}

/** The database with the reviews table (every table is in `Database`). */
export type ReviewDatabase = Database;

/** The reviews table; prefixed `u` so it runs after the core, messaging and social migrations. */
export function reviewMigrations(dialect: Dialect): Record<string, Migration> {
  return {
    u0001_reviews: {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('reviews')
          .addColumn('id', 'integer', (col: ColumnDefinitionBuilder) =>
            dialect === 'postgres' ? col.primaryKey().generatedByDefaultAsIdentity() : col.primaryKey().autoIncrement(),
          )
          .addColumn('goods_id', 'integer', (c) => c.notNull().references('goods.id').onDelete('cascade'))
          .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
          .addColumn('rating', 'integer', (c) => c.notNull())
          .addColumn('content', 'text', (c) => c.notNull())
          .addColumn('created_at', 'bigint', (c) => c.notNull())
          .addUniqueConstraint('reviews_user_goods', ['user_id', 'goods_id'])
          .execute();
        await db.schema.createIndex('reviews_goods').on('reviews').columns(['goods_id', 'created_at']).execute();
        await db.schema.createIndex('reviews_created').on('reviews').column('created_at').execute();
      },
    },
  };
}

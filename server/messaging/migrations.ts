import type { Migration } from 'kysely';

/**
 * The messaging server's tables. The server's migrator runs these after the product API's own
 * migrations; names are prefixed `m` so they sort after the core ones and never collide.
 */
export const messagingMigrations: Record<string, Migration> = {};

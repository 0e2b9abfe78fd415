import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, PostgresAdapter, PostgresDialect, type SqliteDatabase, SqliteDialect, sql } from 'kysely';
import pg from 'pg';

export type Dialect = 'sqlite' | 'postgres';

/**
 * `Schema` is the shop's `Database` for the shop's callers (server/main.ts, the tests' servers); the messaging
 * server's callers still open it untyped (`any`) until its tables are typed (issue 21 point 4, messaging part).
 */
export interface DbHandle<Schema = any> {
  db: Kysely<Schema>;
  dialect: Dialect;
  close(): Promise<void>;
}

/**
 * One query layer, two engines: a `postgres://` URL opens PostgreSQL through `pg`; anything else
 * is a SQLite file path (`:memory:` for a private in-memory database) opened with better-sqlite3.
 */
export function openDb<Schema = any>(url: string): DbHandle<Schema> {
  if (/^postgres(ql)?:\/\//.test(url)) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    // An idle client losing its connection (database restarted) must not crash the process.
    pool.on('error', () => {});
    // Nor a checked-out one: its query fails (answered 503) and the pool drops it on release.
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  if (url !== ':memory:') mkdirSync(dirname(url), { recursive: true });
  const sqlite = new Database(url);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/** How many prepared statements one SQLite connection keeps (the app's queries are a few hundred shapes). */
const STATEMENT_CACHE = 500;

/**
 * better-sqlite3 with its prepared statements kept by SQL text: Kysely prepares every query it runs, and preparing
 * costs about as much as running a primary-key read. Safe because Kysely runs each statement to its end
 * synchronously (`all`/`run`; nothing here streams with `iterate`), so a statement is never in use twice at once.
 */
function withStatementCache(sqlite: Database.Database): SqliteDatabase {
  const statements = new Map<string, Database.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = statements.get(text);
      if (!statement) {
        statement = sqlite.prepare(text);
        if (statements.size >= STATEMENT_CACHE) statements.delete(statements.keys().next().value as string);
        statements.set(text, statement);
      }
      return statement;
    },
  };
}

/** The answer (HTTP 503) while the database is unreachable, restarting or locked by another process. */
export const DB_UNAVAILABLE = 'The database is unavailable, try again shortly';

// Socket errors, PostgreSQL's connection-exception and shutdown classes, SQLite's lock and I/O errors.
const UNAVAILABLE_CODE =
  /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN|08...|57P0[123]|53300|SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR)\w*)$/;
const UNAVAILABLE_MESSAGE =
  /^Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect/;

/** True when a query failed because the database cannot be reached right now, not because the query is wrong. */
export function isDbUnavailable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && UNAVAILABLE_CODE.test(code)) return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message);
}

/**
 * The schema a PostgreSQL connection works in (its search_path), for the migrators: Kysely otherwise
 * looks for its migration tables in any schema and, with two databases in one server migrating at
 * once (parallel test files, each in its own schema), can see the other's table and skip creating its own.
 */
export async function migrationSchema<DB>(db: Kysely<DB>): Promise<{ migrationTableSchema?: string }> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return {};
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ? { migrationTableSchema: rows[0].schema } : {};
}

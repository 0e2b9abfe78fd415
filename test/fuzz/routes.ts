import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { TestServer } from '../server/helpers';

export interface Route {
  method: 'GET' | 'POST';
  url: string;
}

/**
 * Every API route of the running app, read from fastify's own route tree so that a new endpoint is
 * fuzzed and swept without editing the tests. printRoutes draws a radix tree: each line's depth is its
 * indentation and its full path is its parent's path plus its own segment.
 */
export function apiRoutes(app: FastifyInstance): Route[] {
  const stack: string[] = [];
  const routes: Route[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1].length / 4;
    stack.length = depth;
    const path = (depth > 0 ? stack[depth - 1] : '') + match[2];
    stack.push(path);
    if (!match[3] || !path.startsWith('/api/')) continue;
    for (const method of match[3].split(', ')) {
      if (method === 'GET' || method === 'POST') routes.push({ method, url: path });
    }
  }
  return routes.sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
}

/** Field names the API's validators read, so random payloads also reach past the first "is required". */
export function apiFieldNames(): string[] {
  const dir = join(__dirname, '../../server/api');
  const names = new Set<string>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.ts'))) {
    const source = readFileSync(join(dir, file), 'utf8');
    for (const match of source.matchAll(/\b([a-z][a-z0-9_]*):\s*(?:z\.|id\b|text\(|money\b|\w+Input\b)/g)) {
      names.add(match[1]);
    }
  }
  return [...names].sort();
}

/** A fingerprint of every row of every table: equal fingerprints mean nothing was written. */
export async function dbFingerprint(server: TestServer): Promise<string> {
  const { db, dialect } = server.handle;
  const tables =
    dialect === 'sqlite'
      ? await sql<{ name: string }>`select name from sqlite_master where type = 'table' order by name`.execute(db)
      : await sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() order by table_name`.execute(db);
  const hash = createHash('sha256');
  for (const { name } of tables.rows) {
    const rows = await sql`select * from ${sql.table(name)}`.execute(db);
    // Sorted: PostgreSQL returns rows in no promised order.
    const lines = rows.rows.map((row) => JSON.stringify(row)).sort();
    hash.update(`${name}:${lines.length}:${lines.join('\n')}\n`);
  }
  return hash.digest('hex');
}

export interface Answer {
  http: number;
  body: unknown;
  text: string;
}

/** One raw request: the body is sent as given (already serialised), so invalid JSON reaches the server. */
export async function send(
  server: TestServer,
  method: 'GET' | 'POST',
  url: string,
  rawBody: string | undefined,
  token?: string,
  contentType = 'application/json',
): Promise<Answer> {
  const headers: Record<string, string> = token ? { 'lensmate-token': token } : {};
  if (rawBody !== undefined) headers['content-type'] = contentType;
  const response = await fetch(`${server.base}${url}`, { method, headers, body: rawBody });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { http: response.status, body, text };
}

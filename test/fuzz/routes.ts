import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { DOCS_PREFIX, OPENAPI_PATH } from '../../server/api/openapi';
import type { TestServer } from '../server/helpers';

export interface Route {
  method: 'GET' | 'POST';
  url: string;
}

/** The parts of the OpenAPI document the suites read. */
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, OpenApiOperation>>;
}
export interface OpenApiOperation {
  tags?: string[];
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; schema?: unknown }[];
  requestBody?: { content: Record<string, { schema?: unknown }> };
  responses?: Record<string, unknown>;
}

/** The OpenAPI document the app serves. */
export async function openApiDocument(app: FastifyInstance): Promise<OpenApiDocument> {
  const response = await app.inject({ method: 'GET', url: OPENAPI_PATH });
  if (response.statusCode !== 200) throw new Error(`${OPENAPI_PATH} answered ${response.statusCode}`);
  return response.json() as OpenApiDocument;
}

/**
 * Every API route of the running app, read from its OpenAPI document (generated from the routes' schemas), so that
 * a new endpoint is fuzzed and swept without editing the tests.
 */
export async function apiRoutes(app: FastifyInstance): Promise<Route[]> {
  const document = await openApiDocument(app);
  const routes: Route[] = [];
  for (const [url, operations] of Object.entries(document.paths)) {
    for (const method of Object.keys(operations).map((name) => name.toUpperCase())) {
      if (method === 'GET' || method === 'POST') routes.push({ method, url });
    }
  }
  return routes.sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
}

/**
 * Every route under /api/ that fastify serves, from its own route tree (printRoutes draws a radix tree: each line's
 * depth is its indentation and its full path is its parent's path plus its own segment), less the documentation's
 * own pages: what the OpenAPI document must list.
 */
export function servedApiRoutes(app: FastifyInstance): Route[] {
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
    if (path === OPENAPI_PATH || path === DOCS_PREFIX || path.startsWith(`${DOCS_PREFIX}/`)) continue;
    for (const method of match[3].split(', ')) {
      if (method === 'GET' || method === 'POST') routes.push({ method, url: path });
    }
  }
  return routes.sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
}

/** Every property name anywhere in a JSON Schema. */
function propertyNames(schema: unknown, into: Set<string>): void {
  if (Array.isArray(schema)) {
    for (const item of schema) propertyNames(item, into);
    return;
  }
  if (typeof schema !== 'object' || schema === null) return;
  const record = schema as Record<string, unknown>;
  if (record.properties && typeof record.properties === 'object') {
    for (const name of Object.keys(record.properties)) into.add(name);
  }
  for (const value of Object.values(record)) propertyNames(value, into);
}

/**
 * Field names the API's requests take (read from the OpenAPI document's request schemas), so random payloads also
 * reach past the first "is required".
 */
export async function apiFieldNames(app: FastifyInstance): Promise<string[]> {
  const document = await openApiDocument(app);
  const names = new Set<string>();
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations)) {
      for (const parameter of operation.parameters ?? []) if (parameter.in === 'query') names.add(parameter.name);
      for (const content of Object.values(operation.requestBody?.content ?? {})) propertyNames(content.schema, names);
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

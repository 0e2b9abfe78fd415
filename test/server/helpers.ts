import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { type AppDeps, buildApp } from '../../server/app';
import { type ServerConfig, loadConfig } from '../../server/config';
import { type DbHandle, openDb } from '../../server/db/connection';
import { migrateToLatest } from '../../server/db/migrations';
import type { Database } from '../../server/db/schema';
import { seed } from '../../server/db/seed';
import type { ApiBody } from '../../types/api';

export const PG_BASE = process.env.LENSMATE_TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** The engines a suite runs on: SQLite always, PostgreSQL when LENSMATE_TEST_PG is set. */
export const engines: ('sqlite' | 'postgres')[] = process.env.LENSMATE_TEST_PG ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestServer {
  app: FastifyInstance;
  config: ServerConfig;
  handle: DbHandle<Database>;
  dir: string;
  base: string;
  call<T = any>(
    method: 'GET' | 'POST',
    url: string,
    payload?: unknown,
    token?: string,
  ): Promise<{ http: number; body: ApiBody<T> }>;
  /** A plain GET (a served file, a page): status, content type and raw bytes. */
  fetchRaw(url: string): Promise<{ http: number; type: string; bytes: Buffer }>;
  login(email: string, password: string): Promise<string>;
  close(): Promise<void>;
}

/** A fresh database (a temp SQLite file, or a new PostgreSQL schema), migrated and seeded, served on a free port. */
export async function startServer(
  engine: 'sqlite' | 'postgres',
  env: Record<string, string> = {},
  deps: Partial<AppDeps> = {},
): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'lensmate-server-'));
  let databaseUrl = join(dir, 'test.sqlite');
  let schema = '';
  if (engine === 'postgres') {
    schema = `lm_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    const client = new pg.Client({ connectionString: PG_BASE });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
    databaseUrl = `${PG_BASE}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  }
  const config = loadConfig(
    { DATA_DIR: dir, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', H5_DIR: join(dir, 'no-site'), ...env },
    { messaging: false },
  );
  const handle = openDb<Database>(config.databaseUrl);
  await migrateToLatest(handle.db, handle.dialect);
  await seed(handle.db, config.uploadDir);
  const app = await buildApp(config, { ...deps, db: handle.db, dialect: handle.dialect });
  // Every call goes through app.inject (light-my-request, no socket). The app also listens on a free port so that
  // the suites that need a real socket (raw bodies in test/fuzz, multipart via fetch in test/security) keep `base`.
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const server: TestServer = {
    app,
    config,
    handle,
    dir,
    base,
    async call(method, url, payload, token) {
      const headers: Record<string, string> = token ? { 'lensmate-token': token } : {};
      let body: string | FormData | undefined;
      if (payload instanceof FormData) body = payload;
      else if (payload !== undefined) {
        body = typeof payload === 'string' ? payload : JSON.stringify(payload);
        headers['content-type'] = 'application/json';
      }
      const response = await app.inject({ method, url, headers, body });
      return { http: response.statusCode, body: response.json() as ApiBody<any> };
    },
    async fetchRaw(url) {
      const response = await app.inject({ method: 'GET', url });
      return { http: response.statusCode, type: String(response.headers['content-type']), bytes: response.rawPayload };
    },
    async login(email, password) {
      const { body } = await server.call('POST', '/api/auth/login', { email, password });
      if (body.status !== 200) throw new Error(`login ${email}: ${body.msg}`);
      return body.data.token as string;
    },
    async close() {
      await app.close();
      await handle.close();
      if (schema) {
        const client = new pg.Client({ connectionString: PG_BASE });
        await client.connect();
        await client.query(`drop schema ${schema} cascade`);
        await client.end();
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}

export const ADMIN = { email: 'admin@lensmate.test', password: 'Admin#2026pass' };
export const ADA = { email: 'ada@lensmate.test', password: 'Shopper#2026a' };
export const BEN = { email: 'ben@lensmate.test', password: 'Shopper#2026b' };

/**
 * API throughput and latency, printed (not asserted). In one run:
 *  1. requests/s and p99 at 50 connections for get_goods_page and search_page on the demo catalogue (SQLite, same
 *     process setup as `npm start`), each beside a bare fastify route answering the very same bytes (a POST with
 *     the same body): the share of bare is what the route's own work costs;
 *  2. search_page latency with 1,000 and with 100,000 goods: the first request (which counts the matches) and
 *     the median of 20 (answered from the listing cache of services/listing-cache.ts, as repeated listings are).
 * Run: npm run bench:api   (BENCH_SECONDS=10 for longer runs; DATABASE_URL=postgres://… for PostgreSQL)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { openDb } from '../../server/db/connection';
import { migrateToLatest } from '../../server/db/migrations';
import type { Database } from '../../server/db/schema';
import { seed } from '../../server/db/seed';
import { growCatalogue } from './catalogue';

const seconds = Number(process.env.BENCH_SECONDS || 5);
const connections = 50;

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(url: string, body?: unknown, conns = connections): Promise<Figures> {
  const result = await autocannon({
    url,
    // The load comes from a worker thread: the server's event loop (this thread) is left to the server.
    workers: 1,
    connections: conns,
    duration: seconds,
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

function row(name: string, figures: Figures, bare?: Figures): string {
  const errors = figures.errors ? `  (${figures.errors} errors)` : '';
  const ratio = bare
    ? `   ${((figures.rps / bare.rps) * 100).toFixed(1).padStart(5)} % of bare, p99 ${(figures.p99 / Math.max(bare.p99, 1)).toFixed(1)}x`
    : '';
  return `${name.padEnd(44)} ${String(figures.rps).padStart(7)} req/s   p50 ${String(figures.p50).padStart(4)} ms   p99 ${String(figures.p99).padStart(4)} ms${ratio}${errors}`;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lensmate-bench-'));
  const config = loadConfig(
    { DATA_DIR: dir, LOG_LEVEL: 'silent', H5_DIR: join(dir, 'no-site'), DATABASE_URL: process.env.DATABASE_URL },
    { messaging: false },
  );
  const handle = openDb<Database>(config.databaseUrl);
  await migrateToLatest(handle.db, handle.dialect);
  await seed(handle.db, config.uploadDir);
  const app = await buildApp(config, { db: handle.db, dialect: handle.dialect });
  await app.listen({ port: 0, host: '127.0.0.1' });
  // Bare fastify, answering each route's bytes as they are: filled in before each comparison.
  const bare = Fastify();
  const bareAnswers = new Map<string, string>();
  bare.post('/same/*', async (request, reply) =>
    reply.type('application/json; charset=utf-8').send(bareAnswers.get(request.url) ?? ''),
  );
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const base = (server: FastifyInstance) => {
    const address = server.server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  };
  const api = base(app);

  console.log(
    `Lensmate API bench: ${handle.dialect}, ${connections} connections, ${seconds} s per run, Node ${process.version}`,
  );
  /** The route under load, then bare fastify answering the route's bytes for the same request. */
  const compare = async (label: string, route: string, body: unknown) => {
    const answer = await fetch(`${api}/api/goods/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await answer.text();
    bareAnswers.set(`/same/${route}`, text);
    const ours = await load(`${api}/api/goods/${route}`, body);
    const same = await load(`${base(bare)}/same/${route}`, body);
    console.log(row(`bare fastify, same ${text.length} bytes`, same));
    console.log(row(label, ours, same));
  };
  await compare('get_goods_page (20 per page, 48 goods)', 'get_goods_page', { page: 1, page_size: 20 });
  await compare('search_page "round" (48 goods)', 'search_page', { keyword: 'round' });

  for (const size of [1_000, 100_000]) {
    const started = Date.now();
    await growCatalogue(handle.db, size);
    // What autovacuum does after a bulk load: without statistics PostgreSQL plans for an empty table.
    if (handle.dialect === 'postgres') await sql`vacuum analyze goods, goods_colors, goods_filters`.execute(handle.db);
    console.log(`  (catalogue grown to ${size} goods in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    const singles: [string, string, unknown][] = [
      ['search_page "round"', 'search_page', { keyword: 'round' }],
      ['search_page "harbor 42"', 'search_page', { keyword: 'harbor 42' }],
      ['get_goods_page filtered', 'get_goods_page', { filter_ids: [1, 9], sort: 'price_asc' }],
    ];
    for (const [label, route, payload] of singles) {
      const times: number[] = [];
      // Requests of the last load still in flight may have cached this listing: start it from the database.
      await sql`update catalogue_state set version = version + 1 where id = 1`.execute(handle.db);
      for (let i = 0; i < 20; i += 1) {
        const begin = performance.now();
        await fetch(`${api}/api/goods/${route}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(payload),
        });
        times.push(performance.now() - begin);
      }
      // The first request counts the matches; the rest are answered from the listing cache (the catalogue is unchanged).
      const first = times[0];
      times.sort((a, b) => a - b);
      console.log(
        `${`${label} one at a time (${size} goods)`.padEnd(44)} first ${first.toFixed(1)} ms (uncached)   median ${times[10].toFixed(1)} ms`,
      );
    }
    await compare(`get_goods_page (${size} goods)`, 'get_goods_page', { page: 1, page_size: 20 });
    await compare(`search_page "round" (${size} goods)`, 'search_page', { keyword: 'round' });
    await compare(`search_page "harbor 42" (${size} goods)`, 'search_page', { keyword: 'harbor 42' });
    await compare(`get_goods_page filtered (${size} goods)`, 'get_goods_page', {
      filter_ids: [1, 9],
      sort: 'price_asc',
    });
  }

  await app.close();
  await bare.close();
  await handle.close();
  rmSync(dir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

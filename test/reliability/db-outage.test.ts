import { randomBytes } from 'node:crypto';
import { type Server, type Socket, connect, createServer } from 'node:net';
import Database from 'better-sqlite3';
import pg from 'pg';
import { DB_UNAVAILABLE } from '../../server/db/connection';
import { ADA, PG_BASE, type TestServer, startServer } from '../server/helpers';
import { recordReliability } from '../support/reliability';

const ADDRESS = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  phone: '+44 20 7946 0000',
  country_code: 'gb',
  city: 'London',
  street: '12 Baker St',
  zip: 'NW1 6XE',
};
const UNAVAILABLE = { status: 503, msg: DB_UNAVAILABLE, data: null };

/** A TCP proxy in front of a database: `cut` refuses new connections and drops the open ones, `restore` reopens. */
class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    const address = server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise((resolve) => server.close(resolve));
  }
}

async function expectOutageThenRecovery(
  s: TestServer,
  token: string,
  outage: { start(): Promise<void>; end(): Promise<void>; readsWork: boolean },
) {
  let checked = 0;
  const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
    checked += 1;
    return s.call(method, url, payload, token);
  };
  expect((await call('POST', '/api/user/set_user_address', ADDRESS)).body.status).toBe(200);
  await outage.start();
  const write = await call('POST', '/api/user/set_user_address', { ...ADDRESS, city: 'Paris' });
  expect(write).toEqual({ http: 503, body: UNAVAILABLE });
  const read = await call('POST', '/api/goods/get_goods_page', { page_size: 5 });
  if (outage.readsWork) expect(read.body.status).toBe(200);
  else expect(read).toEqual({ http: 503, body: UNAVAILABLE });
  await outage.end();
  // The same process serves again: no restart, no reconnect by hand.
  expect((await call('POST', '/api/user/set_user_address', { ...ADDRESS, city: 'Oslo' })).body.status).toBe(200);
  const addresses = (await call('POST', '/api/user/get_user_address', {})).body.data as { city: string }[];
  // The write refused during the outage left nothing behind.
  expect(addresses.map((address) => address.city).sort()).toEqual(['London', 'Oslo']);
  expect((await call('POST', '/api/goods/get_goods_page', { page_size: 5 })).body.data.list.length).toBe(5);
  return checked;
}

describe('the database unavailable for a moment', () => {
  it('SQLite: a write lock held by another process answers writes with 503 and the API recovers', async () => {
    const s = await startServer('sqlite');
    try {
      const token = await s.login(ADA.email, ADA.password);
      // Another process (a backup, a migration) holding the write lock past busy_timeout: WAL readers go on.
      const other = new Database(s.config.databaseUrl);
      const checked = await expectOutageThenRecovery(s, token, {
        readsWork: true,
        start: async () => {
          other.exec('BEGIN IMMEDIATE');
        },
        end: async () => {
          other.exec('ROLLBACK');
          other.close();
        },
      });
      recordReliability({
        suite: 'db-outage-sqlite',
        faults: 1,
        requestsChecked: checked,
      });
    } finally {
      await s.close();
    }
  }, 60000);

  const pgIt = process.env.LENSMATE_TEST_PG ? it : it.skip;
  pgIt(
    'PostgreSQL: connections cut by a proxy answer 503 and the pool reconnects once it is back',
    async () => {
      const base = new URL(PG_BASE);
      const proxy = new TcpProxy({ host: base.hostname, port: Number(base.port || 5432) });
      await proxy.open();
      const schema = `lm_rel_${randomBytes(5).toString('hex')}`;
      const admin = new pg.Client({ connectionString: PG_BASE });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      const viaProxy = new URL(PG_BASE);
      viaProxy.port = String(proxy.port);
      viaProxy.search = `?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
      const s = await startServer('postgres', { DATABASE_URL: viaProxy.toString() });
      try {
        const token = await s.login(ADA.email, ADA.password);
        const checked = await expectOutageThenRecovery(s, token, {
          readsWork: false,
          start: () => proxy.cut(),
          end: () => proxy.open(),
        });
        recordReliability({
          suite: 'db-outage-postgres',
          faults: 1,
          requestsChecked: checked,
        });
      } finally {
        await s.close();
        await proxy.cut();
        await admin.query(`drop schema ${schema} cascade`);
        await admin.end();
      }
    },
    60000,
  );
});

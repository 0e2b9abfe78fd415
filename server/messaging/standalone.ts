import Fastify from 'fastify';
import { openDb } from '../db/connection';
import { migrateMessaging } from '../db/messaging-migrations';
import { refuseUnsafeProduction } from '../production-mode';
import { messagingConfigFromEnv } from './config';
import { openGroups } from './directory';
import { registerMessaging } from './index';

/**
 * The messaging server on its own (no product API): used by the crash/restart and multi-process
 * tests and by the benchmark. Reads MESSAGING_DB (SQLite path or postgres URL), DATA_DIR (where
 * secrets not in the environment are generated) and PORT, prints `listening <port>` once ready, and
 * stops cleanly on SIGTERM. Without a shop, groups are GoEasy's open ones and CS agents are the rows
 * an operator writes to msg_cs_assignment.
 */
async function main() {
  const config = messagingConfigFromEnv(process.env, { dataDir: process.env.DATA_DIR || 'data' });
  await refuseUnsafeProduction({ env: process.env, messaging: config });
  const handle = openDb(process.env.MESSAGING_DB || 'data/messaging.sqlite');
  await migrateMessaging(handle.db);
  const app = Fastify({ logger: false });
  const messaging = await registerMessaging(app, {
    db: handle.db,
    dialect: handle.dialect,
    config,
    groups: openGroups(handle.db),
  });
  await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
  const address = app.server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`);
  process.once('SIGTERM', async () => {
    await messaging.close();
    await app.close();
    await handle.close();
    process.exit(0);
  });
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

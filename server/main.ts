import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, type ServerConfig, loadConfig } from './config';
import { openDb } from './db/connection';
import { migrateToLatest } from './db/migrations';
import type { Database } from './db/schema';
import { needsSeed, seed } from './db/seed';
import { buildShop } from './shop';

/** One process, one port: the product API, the messaging server (socket.io) and the H5 site. */
async function main(): Promise<void> {
  let config: ServerConfig;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const handle = openDb<Database>(config.databaseUrl);
  await migrateToLatest(handle.db, handle.dialect);
  if (config.seedOnFirstRun && (await needsSeed(handle.db))) {
    console.log('First run: seeding the demo catalogue…');
    await seed(handle.db, config.uploadDir);
  }
  const { app, messaging } = await buildShop(config, { db: handle.db, dialect: handle.dialect, logger: true });
  const shutdown = async () => {
    await messaging?.close();
    await app.close();
    await handle.close();
    process.exit(0);
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const site = existsSync(resolve(config.h5Dir, 'index.html')) ? '' : ' (API only: no H5 build found)';
  console.log(`Lensmate is running at http://${shownHost}:${port}/${site}`);
  console.log(`Database: ${handle.dialect === 'postgres' ? 'PostgreSQL' : config.databaseUrl}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, type Env, type ServerConfig, loadConfig } from './config';
import { openDb } from './db/connection';
import { migrateToLatest } from './db/migrations';
import type { Database } from './db/schema';
import { needsSeed, seed } from './db/seed';
import { ProductionRefused, isProduction, refuseUnsafeProduction } from './production-mode';
import type { ProviderFakes } from './sandbox';
import { buildShop } from './shop';

/**
 * PAYMENT_SANDBOX=1 (what `npm start`'s demo sets): the local fakes of the payment providers start here, in this
 * process, and the providers left unconfigured point at them. Never with NODE_ENV=production, which refuses it.
 */
async function paymentSandbox(env: Env): Promise<{ env: Env; fakes: ProviderFakes | null }> {
  const on = ['1', 'true', 'yes', 'on'].includes((env.PAYMENT_SANDBOX ?? '').toLowerCase());
  if (!on || isProduction(env)) return { env, fakes: null };
  const { startProviderFakes, sandboxEnvironment } = await import('./sandbox');
  const fakes = await startProviderFakes();
  fakes.braintree.settleOnSale = true;
  return { env: sandboxEnvironment(env, fakes), fakes };
}

/** One process, one port: the product API, the messaging server (socket.io) and the H5 site. */
async function main(): Promise<void> {
  let config: ServerConfig;
  const sandbox = await paymentSandbox(process.env);
  try {
    config = loadConfig(sandbox.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const handle = openDb<Database>(config.databaseUrl);
  try {
    await refuseUnsafeProduction({ env: sandbox.env, config, db: handle.db });
  } catch (error) {
    if (error instanceof ProductionRefused) {
      console.error(`Configuration error: ${error.message}`);
      await handle.close();
      process.exit(1);
    }
    throw error;
  }
  await migrateToLatest(handle.db, handle.dialect);
  if (config.seedOnFirstRun && (await needsSeed(handle.db))) {
    console.log('First run: seeding the demo catalogue…');
    await seed(handle.db, config.uploadDir);
  }
  const { app, messaging } = await buildShop(config, { db: handle.db, dialect: handle.dialect, logger: true });
  const shutdown = async () => {
    await sandbox.fakes?.close();
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
  if (sandbox.fakes) {
    sandbox.fakes.connect(`http://${shownHost === 'localhost' ? '127.0.0.1' : shownHost}:${port}`);
    console.log(
      'Payments: test mode, against local fakes of Stripe, PayPal, Braintree and WeChat Pay (no money moves)',
    );
  }
  const site = existsSync(resolve(config.h5Dir, 'index.html')) ? '' : ' (API only: no H5 build found)';
  console.log(`Lensmate is running at http://${shownHost}:${port}/${site}`);
  console.log(`Database: ${handle.dialect === 'postgres' ? 'PostgreSQL' : config.databaseUrl}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

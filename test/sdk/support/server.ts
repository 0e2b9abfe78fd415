/**
 * The real messaging server for the SDK suites, run as a child process (the suites themselves run
 * in jsdom). Usage: tsx server.ts <sqlite file> [port]; prints "PORT <n>" once listening.
 */
import { dirname } from 'node:path';
import Fastify from 'fastify';
import { openDb } from '../../../server/db/connection';
import {
  MessagingControl,
  type SystemMessage,
  messagingConfigFromEnv,
  migrateMessaging,
  openGroups,
  registerMessaging,
} from '../../../server/messaging';

async function main(): Promise<void> {
  const [dbFile, portArg] = process.argv.slice(2);
  const handle = openDb(dbFile);
  await migrateMessaging(handle.db);
  const app = Fastify();
  const config = messagingConfigFromEnv(
    {
      ...process.env,
      MESSAGING_UPLOAD_LOCAL_DIR: `${dbFile}.oss`,
      MESSAGING_REDELIVERY_MS: '1000',
    },
    { dataDir: dirname(dbFile) },
  );
  const control = new MessagingControl(handle.db);
  const messaging = await registerMessaging(app, {
    db: handle.db,
    dialect: handle.dialect,
    config,
    groups: openGroups(handle.db),
    control,
  });
  // What the shop's services do (an order shipped, a refund made), reachable by the suites over loopback only.
  app.post('/test/system-message', async (request, reply) => {
    try {
      return await control.sendSystemMessage(request.body as SystemMessage);
    } catch (error) {
      const { code, content } = error as { code?: number; content?: string };
      return reply.code(400).send({ code, content });
    }
  });
  await app.listen({ host: '127.0.0.1', port: Number(portArg ?? 0) });
  const address = app.server.address();
  process.stdout.write(`PORT ${typeof address === 'object' && address ? address.port : 0}\n`);
  const stop = async () => {
    await messaging.close();
    await app.close();
    await handle.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});

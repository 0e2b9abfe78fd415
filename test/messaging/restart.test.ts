import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordReliability } from '../support/reliability';
import { type Client, connected, removeDir, sleep } from './helpers';
import { type ServerProcess, spawnServer, stopServer } from './process';

describe('a server process killed mid-conversation', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lensmate-restart-'));
  // One secret across the restart, and a flood limit above the 200 messages sent as fast as acks come back.
  const env = {
    MESSAGING_DB: join(dir, 'messaging.sqlite'),
    MESSAGING_UPLOAD_LOCAL_DIR: join(dir, 'oss'),
    MESSAGING_OTP_SECRET: randomBytes(24).toString('base64url'),
    MESSAGING_RATE_PER_CONNECTION: '1000',
    MESSAGING_RATE_PER_USER: '1000',
  };
  let server: ServerProcess | undefined;
  const clients: Client[] = [];

  afterAll(async () => {
    for (const client of clients) client.close();
    if (server) await stopServer(server);
    removeDir(dir);
  });

  it('loses no acknowledged message and delivers each to the offline receiver once after the restart', async () => {
    server = await spawnServer(env);
    const { client: alice } = await connected(server.url, 'alice');
    clients.push(alice);
    const acked: string[] = [];
    const sending = (async () => {
      for (let i = 0; i < 200; i += 1) {
        const guid = `crash-${i}`;
        try {
          const ack = await alice.request(
            'publishIM',
            { mt: 'text', to: 'bob', d: '{}', p: JSON.stringify({ text: `m${i}` }), t: 'private', guid },
            1000,
          );
          if (ack.code === 200) acked.push(guid);
        } catch {
          return;
        }
      }
    })();
    await sleep(300);
    await stopServer(server, 'SIGKILL');
    await sending;
    expect(acked.length).toBeGreaterThan(0);

    server = await spawnServer(env);
    const { client: bob } = await connected(server.url, 'bob');
    clients.push(bob);
    const received = await bob.waitFor('imMessage', acked.length, 10000);
    const ids = received.map((message) => message.i);
    expect(ids.slice(0, acked.length)).toEqual(acked);
    // Every acknowledged message is stored; at most the one in flight at the kill is stored unacknowledged.
    const stored: string[] = [];
    let before: number | undefined;
    for (;;) {
      const page = await bob.request('IM_HISTORY', { id: 'alice', scene: 'private', limit: 30, lastTimestamp: before });
      const messages = page.content.messages as { i: string; ts: number }[];
      if (messages.length === 0) break;
      stored.unshift(...messages.map((message) => message.i));
      before = messages[0].ts;
    }
    const inFlight = `crash-${acked.length}`;
    expect(stored.filter((id) => id !== inFlight)).toEqual(acked);
    await sleep(800);
    const arrived = new Set(bob.received.imMessage.map((message) => message.i));
    recordReliability({
      suite: 'server-kill',
      faults: 1,
      messagesChecked: acked.length,
      lost: acked.filter((guid) => !arrived.has(guid)).length,
      duplicated: bob.count('imMessage') - arrived.size,
    });
    expect(arrived.size).toBe(bob.count('imMessage'));
  });
});

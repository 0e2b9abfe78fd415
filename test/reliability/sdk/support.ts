import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { issueOtp } from '../../../server/messaging/otp';
import { type AnyMessage, GoEasy, IM_EVENT } from '../../../src/messaging';
import type { IoSocket } from '../../../src/messaging/socket';
import { APPKEY } from '../../sdk/support/harness';

/** The client's Socket.IO socket (private to the SDK's Connection). */
function socketOf(client: GoEasy): IoSocket {
  const socket = (client.socket() as unknown as { socket: IoSocket | null }).socket;
  if (!socket) throw new Error('the client has no socket');
  return socket;
}

/**
 * Kills the client's transport as a network drop would: the socket sees "transport close" and the SDK reconnects
 * by itself. `fastRetry` shortens the socket's backoff (1 to 3 s per the spec) so a test can drop it 100 times.
 */
export function dropSocket(client: GoEasy, fastRetry = false): void {
  const socket = socketOf(client);
  if (fastRetry) Object.assign(socket.settings, { reconnectionDelay: 300, reconnectionDelayMax: 400 });
  socket.drop();
}

/** Every private message a client is told about, in arrival order. */
export function collectPrivate(client: GoEasy): AnyMessage[] {
  const received: AnyMessage[] = [];
  client.im.on(IM_EVENT.PRIVATE_MESSAGE_RECEIVED, (message: AnyMessage) => received.push(message));
  return received;
}

/** Sent vs received ids: how many never arrived and how many arrived more than once. */
export function tally(sent: string[], received: string[]) {
  const unique = new Set(received);
  return {
    messagesChecked: sent.length,
    lost: sent.filter((id) => !unique.has(id)).length,
    duplicated: received.length - unique.size,
  };
}

const ROOT = join(__dirname, '..', '..', '..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/** Spawns a child and resolves once a line of its stdout matches `ready`. */
function spawnUntil(command: string, args: string[], env: Record<string, string>, ready: RegExp) {
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise<{ child: ChildProcess; match: RegExpExecArray }>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${command} did not start: ${output}`)), 20000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({ child, match });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code}: ${output}`));
    });
  });
}

/** A private redis-server (no persistence: a restart loses every key and stream) on a free port. */
export class RedisProcess {
  private child: ChildProcess | null = null;
  port = 0;

  async start(): Promise<void> {
    if (!this.port) this.port = await freePort();
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    this.child = (await spawnUntil('/usr/bin/redis-server', args, {}, /Ready to accept connections/)).child;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child) return;
    child.kill(signal);
    await exited(child);
  }
}

export interface MessagingProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** One more messaging server process (test/sdk/support/server.ts) on `dbFile`, configured by `env`. */
export async function spawnMessaging(dbFile: string, env: Record<string, string>): Promise<MessagingProcess> {
  const server = join(ROOT, 'test', 'sdk', 'support', 'server.ts');
  const { child, match } = await spawnUntil(process.execPath, ['--import', 'tsx', server, dbFile], env, /PORT (\d+)/);
  return {
    url: `http://127.0.0.1:${match[1]}`,
    child,
    async stop() {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited(child);
      clearTimeout(killer);
    },
  };
}

/** An SDK client connected as `id` to the server at `url`, proven with the servers' OTP secret. */
export async function connectAt(url: string, id: string, otpSecret: string): Promise<GoEasy> {
  const client = new GoEasy({ host: url, appkey: APPKEY, modules: ['im'] });
  await client.connect({ id, data: { name: id }, otp: issueOtp(id, otpSecret) });
  return client;
}

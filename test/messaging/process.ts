import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { rememberSecret } from './helpers';

const ROOT = join(__dirname, '..', '..');

export interface ServerProcess {
  child: ChildProcess;
  url: string;
}

/**
 * Starts server/messaging/standalone.ts in a child process and resolves once it listens. Its OTP secret is
 * `env.MESSAGING_OTP_SECRET` (give one to processes that must share it) or a fresh one; `connected` proves
 * ids with it. Other secrets are generated beside a SQLite MESSAGING_DB.
 */
export function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  const otpSecret = env.MESSAGING_OTP_SECRET ?? randomBytes(24).toString('base64url');
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server/messaging/standalone.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      MESSAGING_OTP_SECRET: otpSecret,
      ...(env.MESSAGING_DB && !env.MESSAGING_DB.includes('://') ? { DATA_DIR: dirname(env.MESSAGING_DB) } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let errors = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${errors}`)), 20000);
    child.stderr?.on('data', (chunk) => {
      errors += chunk;
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (!match) return;
      clearTimeout(timer);
      const url = `http://127.0.0.1:${match[1]}`;
      rememberSecret(url, otpSecret);
      resolve({ child, url });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${errors}`));
    });
  });
}

export function stopServer(server: ServerProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return resolve();
    server.child.once('exit', () => resolve());
    server.child.kill(signal);
  });
}

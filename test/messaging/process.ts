import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

export interface ServerProcess {
  child: ChildProcess;
  url: string;
}

/** Starts server/messaging/standalone.ts in a child process and resolves once it listens. */
export function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server/messaging/standalone.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', ...env },
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
      resolve({ child, url: `http://127.0.0.1:${match[1]}` });
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

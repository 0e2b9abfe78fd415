import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { issueOtp } from '../../../server/messaging/otp';
import { GoEasy } from '../../../src/messaging';

const root = join(__dirname, '..', '..', '..');

export interface TestServer {
  url: string;
  port: number;
  /** The identity proof for `id`, signed with this server's secret (what the shop's token route hands out). */
  otp(id: string): string;
  /** Sends a system message as the shop's services do (MessagingControl.sendSystemMessage in the server). */
  sendSystemMessage(message: Record<string, unknown>): Promise<{ status: number; body: unknown }>;
  /** Makes the user an agent of the team in the server's database, as the shop's admins do. */
  assignAgent(teamId: string, userId: string): Promise<void>;
  /** Kills the process (no clean shutdown) and, with `restart`, starts it again on the same port and database. */
  kill(): Promise<void>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

function launch(
  dbFile: string,
  env: Record<string, string>,
  port?: number,
): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    // One process (no tsx watcher parent), so killing it really drops every connection.
    const args = ['--import', 'tsx', join(__dirname, 'server.ts'), dbFile];
    if (port) args.push(String(port));
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /PORT (\d+)/.exec(output);
      if (match) resolve({ child, port: Number(match[1]) });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    child.on('exit', (code) => reject(new Error(`messaging server exited (${code}): ${errors}`)));
  });
}

export async function startServer(extraEnv: Record<string, string> = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'lensmate-sdk-'));
  const dbFile = join(dir, 'messaging.sqlite');
  const secret = randomBytes(24).toString('base64url');
  const env = { MESSAGING_OTP_SECRET: secret, ...extraEnv };
  let running = await launch(dbFile, env);
  const port = running.port;
  const exited = (child: ChildProcess) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    otp: (id) => issueOtp(id, secret),
    sendSystemMessage: (message) => postJson(port, '/test/system-message', message),
    // The suites run in jsdom, where the server's Kysely/pg layer does not load: the row is written directly.
    async assignAgent(teamId, userId) {
      const db = new Database(dbFile);
      try {
        db.pragma('busy_timeout = 5000');
        db.prepare(
          'insert into msg_cs_assignment (team_id, agent_id, created_at) values (?, ?, ?) on conflict do nothing',
        ).run(teamId, userId, Date.now());
      } finally {
        db.close();
      }
    },
    async kill() {
      running.child.kill('SIGKILL');
      await exited(running.child);
    },
    async restart() {
      running = await launch(dbFile, env, port);
    },
    async stop() {
      running.child.kill('SIGTERM');
      await exited(running.child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A JSON POST over loopback with node's own http (the suites run in jsdom, whose fetch would apply CORS). */
function postJson(port: number, path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json' } },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text || 'null') }));
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

export const APPKEY = 'BC-lensmate-demo';

export async function connectUser(
  server: TestServer,
  id: string,
  data: Record<string, unknown> = { name: id },
  modules = ['im', 'pubsub'],
): Promise<GoEasy> {
  const client = new GoEasy({ host: server.url, appkey: APPKEY, modules });
  await client.connect({ id, data, otp: server.otp(id) });
  return client;
}

/** Polls until the check passes (or throws its last failure after `timeoutMs`). */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 8000): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() - started > timeoutMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Socket, io } from 'socket.io-client';
import { issueOtp } from '../../server/messaging/otp';

/**
 * Prints, for N connected clients on loopback (BENCH_CLIENTS, default 1000): publish-to-deliver latency
 * p50/p99 and fan-out deliveries per second for our messaging server and for a bare socket.io broadcast
 * server doing the same work, and the resident memory each idle connection costs the server process.
 * Usage: node --import tsx bench/messaging/run.ts
 */
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100);
/** Connections made before the memory baseline (a tenth of CLIENTS): see `measure`. */
const WARM_CLIENTS = Math.floor(CLIENTS / 10);
/** Channel messages sent first and not measured (BENCH_WARMUP, default 10). */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 10);
/** Persisted group messages to all CLIENTS members (BENCH_GROUP_MESSAGES, default 20). */
const GROUP_MESSAGES = Number(process.env.BENCH_GROUP_MESSAGES ?? 20);
/** Group messages sent first and not measured (BENCH_GROUP_WARMUP, default 3). */
const GROUP_WARMUP = Number(process.env.BENCH_GROUP_WARMUP ?? 3);
const ROOT = join(__dirname, '..', '..');
/** Our server's proof secret: each bench client connects with the proof the shop would issue it. */
const OTP_SECRET = randomBytes(24).toString('base64url');

function start(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const probe = join(ROOT, 'bench', 'messaging', 'memory-probe.ts');
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', '--import', probe, join(ROOT, script)], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) resolve({ child, url: `http://127.0.0.1:${match[1]}` });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

interface Memory {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

/** The server's memory after two full collections (bench/messaging/memory-probe.ts answers over IPC). */
function memoryOf(child: ChildProcess): Promise<Memory> {
  return new Promise((resolve) => {
    child.once('message', (message) => resolve(message as Memory));
    child.send('memory');
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function connectClient(url: string, index: number): Promise<Socket> {
  const socket = io(url, { path: '/socket.io/', transports: ['websocket'], forceNew: true, reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  const ack = await socket.emitWithAck('authorize', {
    appkey: 'BC-lensmate-demo',
    userId: `bench-${index}`,
    userData: '{}',
    otp: issueOtp(`bench-${index}`, OTP_SECRET),
    modules: ['PUBSUB', 'IM'],
  });
  if (ack.code !== 200 && ack.resultCode !== 200) throw new Error(`authorize failed: ${JSON.stringify(ack)}`);
  return socket;
}

/** The CPU time (user + system) a process has used so far, in milliseconds (/proc/<pid>/stat, clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function measure(name: string, script: string, env: Record<string, string>) {
  const server = await start(script, env);
  await sleep(300);
  const pid = server.child.pid as number;
  const sockets: Socket[] = [];
  const connectUpTo = async (count: number) => {
    for (let i = sockets.length; i < count; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, count - i) }, (_, j) => connectClient(server.url, i + j)),
      );
      await Promise.all(batch.map((socket) => socket.emitWithAck('subscribe', { channels: ['bench'] })));
      sockets.push(...batch);
    }
  };
  // The first connections pay once for what any server keeps (compiled code, its database's page cache, pools):
  // the memory of an idle connection is what each further one adds.
  await connectUpTo(WARM_CLIENTS);
  await sleep(500);
  const base = await memoryOf(server.child);
  await connectUpTo(CLIENTS);
  await sleep(1000);
  const idle = await memoryOf(server.child);
  const measured = CLIENTS - WARM_CLIENTS;
  const perConnection = (idle.rss - base.rss) / measured;
  const heapPerConnection = (idle.heapUsed + idle.external - base.heapUsed - base.external) / measured;
  const pubsub = await fanOut(name, sockets, pid);
  const group = await groupFanOut(name, sockets, pid);
  for (const socket of sockets) socket.disconnect();
  server.child.kill('SIGTERM');
  await sleep(300);
  return {
    name,
    clients: CLIENTS,
    messages: MESSAGES,
    ...pubsub,
    rssPerIdleConnectionKiB: Number((perConnection / 1024).toFixed(1)),
    heapPerIdleConnectionKiB: Number((heapPerConnection / 1024).toFixed(1)),
    ...group,
  };
}

/** Waits until `done()`, for two minutes at most from `since` (a server that loses messages is reported, not hung on). */
async function until(done: () => boolean, since: number): Promise<void> {
  while (!done() && performance.now() - since < 120_000) await sleep(20);
}

/**
 * A group message to every client: for ours persisted (stored once, one delivery row and one conversation row per
 * member, pushed, acknowledged with imAck); for the bare server a room broadcast of the same body.
 */
async function groupFanOut(name: string, sockets: Socket[], pid: number) {
  await Promise.all(sockets.map((socket) => socket.emitWithAck('subscribeGroups', { groupIds: ['bench-group'] })));
  const latencies: number[] = [];
  let delivered = 0;
  for (const socket of sockets) {
    socket.on('imMessage', (message: { i: string; p: string }) => {
      socket.emit('imAck', { publishGuid: message.i });
      latencies.push(performance.now() - Number(JSON.parse(message.p).text));
      delivered += 1;
    });
  }
  const sender = sockets[0];
  const send = async (i: number) => {
    const ack = await sender.emitWithAck('publishIM', {
      mt: 'text',
      to: 'bench-group',
      t: 'group',
      d: '{}',
      p: JSON.stringify({ text: String(performance.now()) }),
      guid: `${name.replace(/\W/g, '')}-g-${i}-${Date.now()}`,
    });
    if (ack.code !== 200 && ack.resultCode !== 200) throw new Error(`publishIM failed: ${JSON.stringify(ack)}`);
  };
  // The sender's own socket is not pushed its message.
  const settle = (expected: number, since: number) => until(() => delivered >= expected, since);
  // Warm-up, not measured, for both servers alike: the first messages pay for compiling the path (and, for ours,
  // preparing the statements and reading the group's pages into the cache); the figures are the steady state.
  const warmupStarted = performance.now();
  for (let i = 0; i < GROUP_WARMUP; i += 1) await send(-1 - i);
  await settle(GROUP_WARMUP * (sockets.length - 1), warmupStarted);
  latencies.length = 0;
  delivered = 0;
  const cpuBefore = cpuMs(pid);
  const started = performance.now();
  for (let i = 0; i < GROUP_MESSAGES; i += 1) await send(i);
  await settle(GROUP_MESSAGES * (sockets.length - 1), started);
  const elapsedSeconds = (performance.now() - started) / 1000;
  // Acknowledgements are deleted in batches a moment later: their cost belongs to the message.
  await sleep(200);
  const serverCpuMs = cpuMs(pid) - cpuBefore;
  latencies.sort((a, b) => a - b);
  return {
    groupMessages: GROUP_MESSAGES,
    groupDelivered: delivered,
    groupP50Ms: Number(percentile(latencies, 50).toFixed(2)),
    groupP99Ms: Number(percentile(latencies, 99).toFixed(2)),
    groupFanOutPerSecond: Math.round(delivered / elapsedSeconds),
    /** The server's CPU time per group message: what the machine's load does not change much. */
    groupServerCpuMsPerMessage: Number((serverCpuMs / GROUP_MESSAGES).toFixed(1)),
  };
}

/** Channel messages to every client (pub/sub, not persisted beyond the channel history). */
async function fanOut(name: string, sockets: Socket[], pid: number) {
  const latencies: number[] = [];
  let delivered = 0;
  for (const socket of sockets) {
    socket.on('message', (message: { c: string }) => {
      latencies.push(performance.now() - Number(message.c));
      delivered += 1;
    });
  }
  const publisher = sockets[0];
  const publish = (i: number) =>
    publisher.emitWithAck('publish', {
      channel: 'bench',
      content: String(performance.now()),
      guid: `${name}-${i}-${Date.now()}`,
    });
  // Warm-up, not measured, for both servers alike (as for the group messages): the first messages pay for compiling
  // the path in the server and in this process's clients. Without it the server measured first (ours) also warmed
  // the clients' receiving code for the one measured after it.
  const warmupStarted = performance.now();
  for (let i = 0; i < WARMUP; i += 1) await publish(-1 - i);
  await until(() => delivered >= WARMUP * CLIENTS, warmupStarted);
  latencies.length = 0;
  delivered = 0;
  const cpuBefore = cpuMs(pid);
  const started = performance.now();
  for (let i = 0; i < MESSAGES; i += 1) await publish(i);
  const expected = MESSAGES * CLIENTS;
  await until(() => delivered >= expected, started);
  const elapsedSeconds = (performance.now() - started) / 1000;
  const serverCpuMs = cpuMs(pid) - cpuBefore;
  latencies.sort((a, b) => a - b);
  return {
    delivered,
    p50Ms: Number(percentile(latencies, 50).toFixed(2)),
    p99Ms: Number(percentile(latencies, 99).toFixed(2)),
    fanOutPerSecond: Math.round(delivered / elapsedSeconds),
    /** The server's CPU time per channel message: what the machine's load does not change much. */
    serverCpuMsPerMessage: Number((serverCpuMs / MESSAGES).toFixed(1)),
  };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'lensmate-bench-'));
  try {
    const ours = await measure('lensmate messaging', 'server/messaging/standalone.ts', {
      MESSAGING_DB: join(dir, 'bench.sqlite'),
      MESSAGING_UPLOAD_LOCAL_DIR: join(dir, 'oss'),
      DATA_DIR: dir,
      MESSAGING_OTP_SECRET: OTP_SECRET,
      // One publisher sends as fast as acks return: the fan-out is measured, not the flood limit.
      MESSAGING_RATE_PER_CONNECTION: '1000000',
      MESSAGING_RATE_PER_USER: '1000000',
    });
    const bare = await measure('bare socket.io', 'bench/messaging/bare-server.ts', {});
    console.table([ours, bare]);
    const ratio = (a: number, b: number) => (b ? (a / b).toFixed(2) : 'n/a');
    console.log(
      `ours / bare socket.io: fan-out ${ratio(ours.fanOutPerSecond, bare.fanOutPerSecond)}x, ` +
        `p50 ${ratio(ours.p50Ms, bare.p50Ms)}x, p99 ${ratio(ours.p99Ms, bare.p99Ms)}x, ` +
        `server CPU per message ${ours.serverCpuMsPerMessage} ms against ${bare.serverCpuMsPerMessage} ms, ` +
        `memory per idle connection ${ratio(ours.rssPerIdleConnectionKiB, bare.rssPerIdleConnectionKiB)}x ` +
        `(heap and buffers kept ${ratio(ours.heapPerIdleConnectionKiB, bare.heapPerIdleConnectionKiB)}x); ` +
        `persisted group message to ${CLIENTS} members: fan-out ` +
        `${ratio(ours.groupFanOutPerSecond, bare.groupFanOutPerSecond)}x, p50 ${ratio(ours.groupP50Ms, bare.groupP50Ms)}x, ` +
        `p99 ${ratio(ours.groupP99Ms, bare.groupP99Ms)}x, ` +
        `server CPU per message ${ours.groupServerCpuMsPerMessage} ms against ${bare.groupServerCpuMsPerMessage} ms`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

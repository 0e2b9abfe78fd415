import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { io } from 'socket.io-client';
import { issueOtp } from '../../server/messaging/otp';
import { type BenchSocket, LeanSocket } from './lean-client';

/**
 * Prints, for N connected clients on loopback (BENCH_CLIENTS, default 1000): publish-to-deliver latency
 * p50/p99 and fan-out deliveries per second for our messaging server and for a bare socket.io broadcast
 * server doing the same work, and the resident memory each idle connection costs the server process.
 * Both servers run at once and are measured in turns (see `interleaved`). The clients are bench/messaging/lean-client.ts,
 * so that the servers and not this process's clients set the rate; BENCH_CLIENT=socket.io runs them on socket.io-client.
 * Usage: npm run bench:messaging
 */
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 1000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100);
/** Connections made before the memory baseline, and between readings (a tenth of CLIENTS): see `prepare`. */
const WARM_CLIENTS = Math.floor(CLIENTS / 10);
/** Channel messages sent first and not measured (BENCH_WARMUP, default 10). */
const WARMUP = Number(process.env.BENCH_WARMUP ?? 10);
/** Channel messages per turn of one server before the other's turn (BENCH_BATCH, default 10). */
const BATCH = Number(process.env.BENCH_BATCH ?? 10);
/** Persisted group messages to all CLIENTS members (BENCH_GROUP_MESSAGES, default 20). */
const GROUP_MESSAGES = Number(process.env.BENCH_GROUP_MESSAGES ?? 20);
/** Group messages sent first and not measured (BENCH_GROUP_WARMUP, default 3). */
const GROUP_WARMUP = Number(process.env.BENCH_GROUP_WARMUP ?? 3);
/** Group messages per turn of one server before the other's turn (BENCH_GROUP_BATCH, default 2). */
const GROUP_BATCH = Number(process.env.BENCH_GROUP_BATCH ?? 2);
/** The clients: `lean` (bench/messaging/lean-client.ts, the default) or `socket.io` (socket.io-client). */
const CLIENT = process.env.BENCH_CLIENT === 'socket.io' ? 'socket.io' : 'lean';
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

async function openSocket(url: string): Promise<BenchSocket> {
  if (CLIENT === 'lean') return LeanSocket.connect(url);
  const socket = io(url, { path: '/socket.io/', transports: ['websocket'], forceNew: true, reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket as unknown as BenchSocket;
}

async function connectClient(url: string, index: number): Promise<BenchSocket> {
  const socket = await openSocket(url);
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

/**
 * A full collection in this process (the script runs with --expose-gc), before each measured phase and between
 * batches: garbage left by one server's batch is not collected during the other's.
 */
function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Waits until `done()`, for two minutes at most from `since` (a server that loses messages is reported, not hung on). */
async function until(done: () => boolean, since: number): Promise<void> {
  while (!done() && performance.now() - since < 120_000) await sleep(5);
}

/** The least-squares slope of y over x. */
function slope(points: [number, number][]): number {
  const n = points.length;
  const meanX = points.reduce((sum, [x]) => sum + x, 0) / n;
  const meanY = points.reduce((sum, [, y]) => sum + y, 0) / n;
  let covariance = 0;
  let variance = 0;
  for (const [x, y] of points) {
    covariance += (x - meanX) * (y - meanY);
    variance += (x - meanX) ** 2;
  }
  return covariance / variance;
}

interface Subject {
  name: string;
  child: ChildProcess;
  pid: number;
  url: string;
  sockets: BenchSocket[];
  rssPerIdleConnectionKiB: number;
  /** The same from the first and last readings alone (how it was measured before 2026-11-28 19:45). */
  rssTwoReadingsKiB: number;
  heapPerIdleConnectionKiB: number;
}

/** Starts a server, connects CLIENTS clients subscribed to the channel, and measures what an idle connection costs. */
async function prepare(name: string, script: string, env: Record<string, string>): Promise<Subject> {
  const server = await start(script, env);
  await sleep(300);
  const sockets: BenchSocket[] = [];
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
  // the memory of an idle connection is what each further one adds. It is the slope of the memory over the number
  // of connections, measured after each further tenth of them (least squares over the ten points): one difference
  // of two readings swung by the allocator's and the heap's page-sized steps, by up to a fifth either way.
  const points: { connections: number; memory: Memory }[] = [];
  for (let count = WARM_CLIENTS; count <= CLIENTS; count += WARM_CLIENTS) {
    await connectUpTo(count);
    await sleep(count === WARM_CLIENTS ? 500 : 200);
    points.push({ connections: sockets.length, memory: await memoryOf(server.child) });
  }
  const rssSlope = slope(points.map((point) => [point.connections, point.memory.rss]));
  const heapSlope = slope(points.map((point) => [point.connections, point.memory.heapUsed + point.memory.external]));
  const [first, last] = [points[0], points[points.length - 1]];
  const rssTwoReadings = (last.memory.rss - first.memory.rss) / (last.connections - first.connections);
  await Promise.all(sockets.map((socket) => socket.emitWithAck('subscribeGroups', { groupIds: ['bench-group'] })));
  return {
    name,
    child: server.child,
    pid: server.child.pid as number,
    url: server.url,
    sockets,
    rssPerIdleConnectionKiB: Number((rssSlope / 1024).toFixed(1)),
    rssTwoReadingsKiB: Number((rssTwoReadings / 1024).toFixed(1)),
    heapPerIdleConnectionKiB: Number((heapSlope / 1024).toFixed(1)),
  };
}

/** One kind of message, as `interleaved` sends it to each server and counts its deliveries. */
interface Phase {
  /** Registers the receiving of one server's clients: `received(latencyMs)` for each delivery. */
  listen(subject: Subject, received: (latencyMs: number) => void): void;
  /** Sends message `i` to one server and waits for its ack. */
  send(subject: Subject, i: number): Promise<void>;
  /** Deliveries of one message. */
  perMessage: number;
  count: number;
  warmup: number;
  batch: number;
  /** Waits after a turn's deliveries, within the turn's CPU figure (the acknowledgements' deletes of a group message). */
  settleMs: number;
}

interface PhaseResult {
  p50Ms: number;
  p99Ms: number;
  perSecond: number;
  serverCpuMsPerMessage: number;
  delivered: number;
}

/**
 * One kind of message measured on both servers in turns: `batch` messages to one, then `batch` to the other, the
 * order alternating, until each has had `count`. Each server is measured only while its own turn runs (the other's
 * clients are idle meanwhile), so a slow moment of this shared machine falls on both alike instead of on whichever
 * server happened to be measured then.
 */
async function interleaved(subjects: Subject[], phase: Phase): Promise<PhaseResult[]> {
  const state = subjects.map(() => ({ latencies: [] as number[], delivered: 0, elapsedMs: 0, cpuMs: 0 }));
  subjects.forEach((subject, k) => {
    phase.listen(subject, (latency) => {
      state[k].latencies.push(latency);
      state[k].delivered += 1;
    });
  });
  const turn = async (k: number, from: number, to: number, measured: boolean) => {
    const subject = subjects[k];
    const s = state[k];
    const expected = s.delivered + (to - from) * phase.perMessage;
    collectGarbage();
    const cpuBefore = cpuMs(subject.pid);
    const started = performance.now();
    for (let i = from; i < to; i += 1) await phase.send(subject, i);
    await until(() => s.delivered >= expected, started);
    const elapsed = performance.now() - started;
    if (phase.settleMs) await sleep(phase.settleMs);
    if (measured) {
      s.elapsedMs += elapsed;
      s.cpuMs += cpuMs(subject.pid) - cpuBefore;
    }
  };
  // Warm-up, not measured, for both servers alike: the first messages pay for compiling the path in the server (and,
  // for ours, preparing the statements and reading the pages into the cache) and in this process's clients.
  for (let k = 0; k < subjects.length; k += 1) await turn(k, -phase.warmup, 0, false);
  for (const s of state) {
    s.latencies.length = 0;
    s.delivered = 0;
  }
  for (let from = 0, round = 0; from < phase.count; from += phase.batch, round += 1) {
    const to = Math.min(phase.count, from + phase.batch);
    const order = round % 2 === 0 ? subjects.map((_, k) => k) : subjects.map((_, k) => subjects.length - 1 - k);
    for (const k of order) await turn(k, from, to, true);
  }
  return state.map((s) => {
    const sorted = [...s.latencies].sort((a, b) => a - b);
    return {
      p50Ms: Number(percentile(sorted, 50).toFixed(2)),
      p99Ms: Number(percentile(sorted, 99).toFixed(2)),
      perSecond: Math.round(s.delivered / (s.elapsedMs / 1000)),
      serverCpuMsPerMessage: Number((s.cpuMs / phase.count).toFixed(2)),
      delivered: s.delivered,
    };
  });
}

/** Channel messages to every client (pub/sub, kept in the channel's history by ours). */
function pubsubPhase(): Phase {
  return {
    listen(subject, received) {
      for (const socket of subject.sockets) {
        socket.on('message', (message: { c: string }) => received(performance.now() - Number(message.c)));
      }
    },
    async send(subject, i) {
      await subject.sockets[0].emitWithAck('publish', {
        channel: 'bench',
        content: String(performance.now()),
        // The same length for both servers: every byte of the body is received by every client.
        guid: `pubsub-${i}-${Date.now()}`,
      });
    },
    perMessage: CLIENTS,
    count: MESSAGES,
    warmup: WARMUP,
    batch: BATCH,
    settleMs: 0,
  };
}

/**
 * A group message to every client: for ours persisted (stored once, one delivery row and one conversation row per
 * member, pushed, acknowledged with imAck); for the bare server a room broadcast of the same body. The sender's own
 * socket is not pushed its message.
 */
function groupPhase(): Phase {
  return {
    listen(subject, received) {
      for (const socket of subject.sockets) {
        socket.on('imMessage', (message: { i: string; p: string }) => {
          socket.emit('imAck', { publishGuid: message.i });
          received(performance.now() - Number(JSON.parse(message.p).text));
        });
      }
    },
    async send(subject, i) {
      const ack = await subject.sockets[0].emitWithAck('publishIM', {
        mt: 'text',
        to: 'bench-group',
        t: 'group',
        d: '{}',
        p: JSON.stringify({ text: String(performance.now()) }),
        guid: `group-${i}-${Date.now()}`,
      });
      if (ack.code !== 200 && ack.resultCode !== 200) throw new Error(`publishIM failed: ${JSON.stringify(ack)}`);
    },
    perMessage: CLIENTS - 1,
    count: GROUP_MESSAGES,
    warmup: GROUP_WARMUP,
    batch: GROUP_BATCH,
    // Acknowledgements are deleted in batches a moment later: their cost belongs to the message.
    settleMs: 200,
  };
}

/** BENCH_PROFILE=<dir>: each server's CPU profiles of the channel messages and of the group messages go there (.cpuprofile). */
const PROFILE_DIR = process.env.BENCH_PROFILE;

/** Starts a server's profiler (`'start'`) or stops it into a file (bench/messaging/memory-probe.ts). */
function profile(child: ChildProcess, what: string): Promise<void> {
  if (!PROFILE_DIR) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('message', () => resolve());
    child.send({ profile: what });
  });
}

/** Runs one phase with each server's profiler on; the profiles go to `<server name><suffix>.cpuprofile`. */
async function profiled<T>(subjects: Subject[], suffix: string, run: () => Promise<T>): Promise<T> {
  for (const subject of subjects) await profile(subject.child, 'start');
  const result = await run();
  for (const subject of subjects) {
    await profile(subject.child, join(PROFILE_DIR ?? '', `${subject.name.replace(/\W+/g, '-')}${suffix}.cpuprofile`));
  }
  return result;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'lensmate-bench-'));
  const subjects: Subject[] = [];
  try {
    subjects.push(
      await prepare('lensmate messaging', 'server/messaging/standalone.ts', {
        MESSAGING_DB: join(dir, 'bench.sqlite'),
        MESSAGING_UPLOAD_LOCAL_DIR: join(dir, 'oss'),
        DATA_DIR: dir,
        MESSAGING_OTP_SECRET: OTP_SECRET,
        // One publisher sends as fast as acks return: the fan-out is measured, not the flood limit.
        MESSAGING_RATE_PER_CONNECTION: '1000000',
        MESSAGING_RATE_PER_USER: '1000000',
      }),
    );
    subjects.push(await prepare('bare socket.io', 'bench/messaging/bare-server.ts', {}));
    const pubsub = await profiled(subjects, '', () => interleaved(subjects, pubsubPhase()));
    const group = await profiled(subjects, '-group', () => interleaved(subjects, groupPhase()));
    const rows = subjects.map((subject, k) => ({
      name: subject.name,
      clients: CLIENTS,
      messages: MESSAGES,
      delivered: pubsub[k].delivered,
      p50Ms: pubsub[k].p50Ms,
      p99Ms: pubsub[k].p99Ms,
      fanOutPerSecond: pubsub[k].perSecond,
      /** The server's CPU time per channel message. */
      serverCpuMsPerMessage: pubsub[k].serverCpuMsPerMessage,
      rssPerIdleConnectionKiB: subject.rssPerIdleConnectionKiB,
      rssTwoReadingsKiB: subject.rssTwoReadingsKiB,
      heapPerIdleConnectionKiB: subject.heapPerIdleConnectionKiB,
      groupMessages: GROUP_MESSAGES,
      groupDelivered: group[k].delivered,
      groupP50Ms: group[k].p50Ms,
      groupP99Ms: group[k].p99Ms,
      groupFanOutPerSecond: group[k].perSecond,
      groupServerCpuMsPerMessage: group[k].serverCpuMsPerMessage,
    }));
    console.table(rows);
    const [ours, bare] = rows;
    const ratio = (a: number, b: number) => (b ? (a / b).toFixed(2) : 'n/a');
    console.log(
      `clients: ${CLIENT === 'lean' ? 'lean (bench/messaging/lean-client.ts)' : 'socket.io-client'}\n` +
        `ours / bare socket.io: fan-out ${ratio(ours.fanOutPerSecond, bare.fanOutPerSecond)}x, ` +
        `p50 ${ratio(ours.p50Ms, bare.p50Ms)}x, p99 ${ratio(ours.p99Ms, bare.p99Ms)}x, ` +
        `server CPU per message ${ours.serverCpuMsPerMessage} ms against ${bare.serverCpuMsPerMessage} ms, ` +
        `memory per idle connection ${ratio(ours.rssPerIdleConnectionKiB, bare.rssPerIdleConnectionKiB)}x ` +
        `(from two readings ${ratio(ours.rssTwoReadingsKiB, bare.rssTwoReadingsKiB)}x; ` +
        `heap and buffers kept ${ratio(ours.heapPerIdleConnectionKiB, bare.heapPerIdleConnectionKiB)}x); ` +
        `persisted group message to ${CLIENTS} members: fan-out ` +
        `${ratio(ours.groupFanOutPerSecond, bare.groupFanOutPerSecond)}x, p50 ${ratio(ours.groupP50Ms, bare.groupP50Ms)}x, ` +
        `p99 ${ratio(ours.groupP99Ms, bare.groupP99Ms)}x, ` +
        `server CPU per message ${ours.groupServerCpuMsPerMessage} ms against ${bare.groupServerCpuMsPerMessage} ms`,
    );
  } finally {
    for (const subject of subjects) {
      for (const socket of subject.sockets) socket.disconnect();
      subject.child.kill('SIGTERM');
    }
    await sleep(300);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

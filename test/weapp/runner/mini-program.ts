import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import vm from 'node:vm';
import { WeChatServers, type WeChatUser } from './wechat-servers';
import { createWx } from './wx';
import { type Owner, type RenderedElement, type RenderedNode, Renderer, WxmlFile, isText } from './wxml';

/** WeChat's cap on the data of one setData call, in bytes. */
export const SET_DATA_LIMIT = 256 * 1024;
/** WeChat's page stack: navigateTo fails beyond ten pages. */
export const PAGE_STACK_LIMIT = 10;

/**
 * The globals of WeChat's JS engine (the AppService), besides the ECMAScript built-ins and `console` (a JS
 * engine's own, which the runner replaces to record what is logged). Anything else (window,
 * document, localStorage, navigator, location, XMLHttpRequest, fetch, WebSocket, URL, TextEncoder, atob,
 * MessageChannel, setImmediate, requestAnimationFrame, process, Buffer, ...) is absent, so a use of it throws.
 */
export const WECHAT_GLOBALS = [
  'wx',
  'App',
  'Page',
  'Component',
  'Behavior',
  'getApp',
  'getCurrentPages',
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
] as const;

/** V8 built-ins that WeChat's engines do not offer (it has WXWebAssembly instead of WebAssembly). */
export const ABSENT_BUILTINS = ['WebAssembly', 'SharedArrayBuffer', 'Atomics'];

const PROGRAMMING_ERRORS = new Set(['ReferenceError', 'TypeError', 'RangeError', 'SyntaxError', 'EvalError']);

const BROWSER_GLOBALS = new Set([
  'window',
  'document',
  'localStorage',
  'sessionStorage',
  'navigator',
  'location',
  'history',
  'XMLHttpRequest',
  'fetch',
  'WebSocket',
  'URL',
  'URLSearchParams',
  'TextEncoder',
  'TextDecoder',
  'atob',
  'btoa',
  'MessageChannel',
  'setImmediate',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'queueMicrotask',
  'structuredClone',
  'AbortController',
  'performance',
  'crypto',
  'process',
  'Buffer',
  'global',
  'self',
  'alert',
  'confirm',
  'prompt',
]);

type AnyFunction = (...args: unknown[]) => unknown;
type Instance = Record<string, unknown> & { data: Record<string, unknown> };

export interface PageRecord {
  route: string;
  query: Record<string, string>;
  instance: Instance;
  view: WxmlFile;
  webviewId: number;
  tabBar?: ComponentRecord;
  title?: string;
}

interface ComponentRecord {
  path: string;
  instance: Instance;
  view: WxmlFile;
  config: Record<string, unknown>;
}

export interface SetDataFigure {
  route: string;
  calls: number;
  largest: number;
}

export interface Toast {
  title: string;
  icon: string;
}

export interface PendingModal {
  title: string;
  content: string;
  showCancel: boolean;
  confirmText: string;
  cancelText: string;
  answer(confirm: boolean, content?: string): void;
}

export interface PendingActionSheet {
  items: string[];
  choose(index: number | null): void;
}

export interface LaunchOptions {
  /** The built mini-program (dist/weapp or a copy). */
  distDir: string;
  /** Where the shop server actually listens, e.g. http://127.0.0.1:51234. */
  server: string;
  /** The API origin the build was made with (LENSMATE_API_BASE); its requests and sockets go to `server`. */
  apiOrigin?: string;
  /** Storage survives a relaunch of the same user: pass the previous run's. */
  storage?: Map<string, string>;
  /** WeChat's servers for wx.login, wx.requestPayment and wx.requestSubscribeMessage. */
  wechat?: WeChatServers;
  /** The WeChat user on this phone. */
  user?: WeChatUser;
  /** The page opened at launch (default: the first page of app.json), with its query. */
  path?: string;
  query?: Record<string, string>;
}

export class MiniProgramError extends Error {}

function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** Splits a setData key (`root.cn.[0].v`, `list[2].name`) into its steps. */
export function dataPath(key: string): (string | number)[] {
  const steps: (string | number)[] = [];
  for (const match of key.matchAll(/\[(\d+)\]|([^.[\]]+)/g)) {
    steps.push(match[1] !== undefined ? Number(match[1]) : match[2]);
  }
  return steps;
}

function applyPath(target: Record<string, unknown>, key: string, value: unknown): void {
  const steps = dataPath(key);
  let node: Record<string | number, unknown> = target;
  steps.forEach((step, index) => {
    if (index === steps.length - 1) {
      node[step] = value;
      return;
    }
    const next = node[step];
    if (next === null || typeof next !== 'object') node[step] = typeof steps[index + 1] === 'number' ? [] : {};
    node = node[step] as Record<string | number, unknown>;
  });
}

/**
 * One phone running the built mini-program: WeChat's AppService (a JS context with WeChat's globals only, the
 * module system, App/Page/Component, the page stack) and its view (base.wxml rendered from each setData).
 */
export class MiniProgram {
  readonly distDir: string;
  readonly server: string;
  readonly apiOrigin: string;
  readonly storage: Map<string, string>;
  readonly wechat: WeChatServers;
  readonly user: WeChatUser;
  readonly appJson: {
    pages: string[];
    subPackages?: { root: string; pages: string[] }[];
    tabBar?: { custom?: boolean; list: { pagePath: string }[] };
    window?: { navigationBarTitleText?: string };
  };
  readonly errors: string[] = [];
  readonly logs: string[] = [];
  readonly toasts: Toast[] = [];
  readonly modals: PendingModal[] = [];
  readonly actionSheets: PendingActionSheet[] = [];
  readonly loadedFiles: string[] = [];
  readonly setDataFigures = new Map<string, SetDataFigure>();
  readonly tempDir: string;
  readonly launchedAt = Date.now();
  /** When the first page's view first had text to show, in ms after the launch began. */
  firstRenderAfterMs: number | null = null;
  /** What chooseImage/chooseMedia pick next (fixture files); empty means the user cancels the picker. */
  readonly mediaToPick: string[] = [];
  /** The frame WeChat takes of a picked video (chooseVideo's thumbTempFilePath), by the video's fixture path. */
  readonly videoPosters = new Map<string, { path: string; width: number; height: number }>();
  toastShown: Toast | null = null;
  loadingShown: string | null = null;
  tabBarBadge: string | null = null;
  clipboard = '';

  private readonly context: vm.Context;
  private readonly modules = new Map<string, { exports: unknown }>();
  private readonly pageConfigs = new Map<string, Record<string, unknown>>();
  private readonly componentConfigs = new Map<string, Record<string, unknown>>();
  private readonly wxmlFiles = new Map<string, WxmlFile>();
  private readonly embedded = new Map<string, ComponentRecord>();
  private readonly renderer: Renderer;
  private readonly timers = new Map<number, NodeJS.Timeout>();
  private readonly closers = new Set<() => void>();
  private readonly rejectionListener: (reason: unknown, promise: Promise<unknown>) => void;
  private readonly contextPromise: PromiseConstructor;
  private readonly contextJson: JSON;
  private stack: PageRecord[] = [];
  private readonly aliveTabs = new Map<string, PageRecord>();
  private loadingModule: string | null = null;
  private appInstance: Record<string, unknown> | null = null;
  private nextTimer = 1;
  private nextWebview = 1;
  private dataVersion = 0;
  private rendered: { version: number; page: PageRecord; nodes: RenderedNode[] } | null = null;
  private closed = false;

  constructor(options: LaunchOptions) {
    this.distDir = options.distDir;
    this.server = options.server.replace(/\/$/, '');
    this.apiOrigin = (options.apiOrigin ?? process.env.LENSMATE_API_BASE ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
    this.storage = options.storage ?? new Map();
    this.wechat = options.wechat ?? new WeChatServers();
    this.user = options.user ?? { appid: 'touristappid', openid: `o${Math.random().toString(36).slice(2, 14)}` };
    this.tempDir = mkdtempSync(join(tmpdir(), 'lensmate-weapp-'));
    if (!existsSync(join(this.distDir, 'app.json'))) {
      throw new MiniProgramError(`no mini-program build in ${this.distDir}: run npm run build:weapp`);
    }
    this.appJson = JSON.parse(readFileSync(join(this.distDir, 'app.json'), 'utf8'));
    this.context = vm.createContext({}, { name: 'WeChat AppService', codeGeneration: { strings: false, wasm: false } });
    vm.runInContext(ABSENT_BUILTINS.map((name) => `delete globalThis.${name};`).join(''), this.context);
    this.contextPromise = vm.runInContext('Promise', this.context);
    this.contextJson = vm.runInContext('JSON', this.context);
    this.installGlobals();
    this.renderer = new Renderer(
      (owner, _tag, path, properties, place) => this.embeddedComponent(owner, path, properties, place),
      (file, tag) => {
        const target = file.usingComponents[tag];
        return target ? posix.normalize(posix.join(posix.dirname(file.path), target)) : undefined;
      },
    );
    this.rejectionListener = (reason, promise) => {
      if (promise instanceof this.contextPromise) this.fail(reason, 'an unhandled promise rejection');
    };
    realProcess().on('unhandledRejection', this.rejectionListener);
  }

  /** Starts the mini-program as WeChat does: app.js, App onLaunch/onShow, then the first page. */
  launch(path?: string, query: Record<string, string> = {}): void {
    const route = (path ?? this.appJson.pages[0]).replace(/^\//, '');
    const options = { path: route, query, scene: 1001, referrerInfo: {} };
    this.requireModule('app.js');
    if (!this.appInstance) throw new MiniProgramError('app.js did not call App()');
    this.callLifecycle(this.appInstance, 'onLaunch', 'App onLaunch', options);
    this.callLifecycle(this.appInstance, 'onShow', 'App onShow', options);
    this.openFirst(route, query);
  }

  /** Everything the tests and the runner need to tear down: timers, sockets, temporary files, listeners. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const record of [...this.stack].reverse()) this.unloadPage(record);
    for (const record of this.aliveTabs.values()) if (!this.stack.includes(record)) this.unloadPage(record);
    this.stack = [];
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    for (const close of this.closers) close();
    realProcess().off('unhandledRejection', this.rejectionListener);
    rmSync(this.tempDir, { recursive: true, force: true });
  }

  /** The globals of the mini-program's context beyond what a bare JS context has (for the runner's own tests). */
  globalsBeyondEcmaScript(): { added: string[]; removed: string[] } {
    const bare = new Set(vm.runInNewContext('Object.getOwnPropertyNames(globalThis)') as string[]);
    const own = new Set(vm.runInContext('Object.getOwnPropertyNames(globalThis)', this.context) as string[]);
    return {
      added: [...own].filter((name) => !bare.has(name)).sort(),
      removed: [...bare].filter((name) => !own.has(name)).sort(),
    };
  }

  /** What App() registered (getApp() in the mini-program). */
  get app(): Record<string, unknown> | null {
    return this.appInstance;
  }

  // ---- errors ----

  /** Records an error thrown by the mini-program's code (uncaught in WeChat: it would reach wx.onError). */
  fail(error: unknown, where: string): void {
    if (this.closed) return;
    const text =
      error && typeof error === 'object' && 'stack' in error && typeof error.stack === 'string'
        ? error.stack
        : String(error && typeof error === 'object' && 'errMsg' in error ? error.errMsg : error);
    const missing = /^ReferenceError: (\w+) is not defined/.exec(text)?.[1];
    const hint =
      missing && BROWSER_GLOBALS.has(missing) ? `\n  "${missing}" is not a global of WeChat's JS engine` : '';
    this.errors.push(`${where}: ${text}${hint}`);
  }

  /** Throws when the mini-program has failed: an uncaught error, a missing global, a setData over the limit. */
  assertHealthy(): void {
    if (this.errors.length === 0) return;
    throw new MiniProgramError(
      `the mini-program failed on ${this.currentRoute() || 'launch'}:\n${this.errors.join('\n')}` +
        (this.logs.length ? `\nlast console lines:\n${this.logs.slice(-8).join('\n')}` : ''),
    );
  }

  guard<T>(where: string, run: () => T): T | undefined {
    try {
      return run();
    } catch (error) {
      this.fail(error, where);
      return undefined;
    }
  }

  /** The app realm's Promise: what a wx API called without callbacks returns (its rejections are the app's). */
  get appPromise(): PromiseConstructor {
    return this.contextPromise;
  }

  /** A plain value handed to the app as its own realm's objects (so instanceof Array/Object hold there). */
  toApp<T>(value: T): T {
    return value === undefined ? value : (this.contextJson.parse(JSON.stringify(value)) as T);
  }

  // ---- the JS context ----

  private installGlobals(): void {
    const global = this.context as Record<string, unknown>;
    const logger =
      (level: string) =>
      (...args: unknown[]) => {
        this.logs.push(`[${level}] ${args.map(describe).join(' ')}`);
        // React reports a render error that no boundary caught only through console.error, and the page stays
        // blank: a programming error logged this way is as uncaught as a thrown one.
        const programmingError = args.find(
          (arg) => arg && typeof arg === 'object' && PROGRAMMING_ERRORS.has(String((arg as Error).name)),
        );
        if (level === 'error' && programmingError) this.fail(programmingError, 'an error logged to console.error');
        if (this.logs.length > 200) this.logs.shift();
      };
    global.console = {
      log: logger('log'),
      info: logger('info'),
      debug: logger('debug'),
      warn: logger('warn'),
      error: logger('error'),
      group: logger('group'),
      groupEnd: () => undefined,
      time: () => undefined,
      timeEnd: () => undefined,
    };
    global.setTimeout = (callback: AnyFunction, ms?: number, ...args: unknown[]) =>
      this.addTimer(callback, ms ?? 0, args, false);
    global.setInterval = (callback: AnyFunction, ms?: number, ...args: unknown[]) =>
      this.addTimer(callback, ms ?? 0, args, true);
    global.clearTimeout = (id: number) => this.clearTimer(id);
    global.clearInterval = (id: number) => this.clearTimer(id);
    global.wx = createWx(this);
    global.App = (config: Record<string, unknown>) => {
      this.appInstance = config;
    };
    global.getApp = () => this.appInstance;
    global.Page = (config: Record<string, unknown>) => {
      if (!this.loadingModule) throw new Error('Page() called outside a page file');
      this.pageConfigs.set(this.loadingModule.replace(/\.js$/, ''), config);
    };
    global.Component = (config: Record<string, unknown>) => {
      if (!this.loadingModule) throw new Error('Component() called outside a component file');
      this.componentConfigs.set(this.loadingModule.replace(/\.js$/, ''), config);
    };
    global.Behavior = (config: Record<string, unknown>) => config;
    global.getCurrentPages = () => this.stack.map((record) => record.instance);
  }

  private addTimer(callback: AnyFunction, ms: number, args: unknown[], repeat: boolean): number {
    const id = this.nextTimer++;
    if (this.closed) return id;
    const run = () => {
      if (!repeat) this.timers.delete(id);
      this.guard(repeat ? 'setInterval callback' : 'setTimeout callback', () => callback(...args));
    };
    this.timers.set(id, repeat ? setInterval(run, ms) : setTimeout(run, ms));
    return id;
  }

  private clearTimer(id: number): void {
    const timer = this.timers.get(id);
    if (timer) clearTimeout(timer);
    this.timers.delete(id);
  }

  /** A macrotask for the runner's own callbacks into the app (API answers, lifecycles after navigation). */
  later(where: string, run: () => void, ms = 0): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.closers.delete(cancel);
      if (!this.closed) this.guard(where, run);
    }, ms);
    const cancel = () => clearTimeout(timer);
    this.closers.add(cancel);
  }

  onClose(close: () => void): () => void {
    this.closers.add(close);
    return () => this.closers.delete(close);
  }

  /** WeChat's module system: require() relative to the requiring file, `.js` implied, each file run once. */
  requireModule(path: string): unknown {
    const file = path.endsWith('.js') ? path : `${path}.js`;
    const cached = this.modules.get(file);
    if (cached) return cached.exports;
    const absolute = join(this.distDir, file);
    if (!existsSync(absolute)) throw new Error(`module "${file}" is not defined`);
    const module = { exports: {} as unknown };
    this.modules.set(file, module);
    this.loadedFiles.push(file);
    const code = readFileSync(absolute, 'utf8');
    const wrapped = new vm.Script(`(function (require, module, exports) {${code}\n})`, { filename: absolute });
    const run = wrapped.runInContext(this.context) as AnyFunction;
    const localRequire = (request: string) =>
      this.requireModule(posix.normalize(posix.join(posix.dirname(file), request)));
    const previous = this.loadingModule;
    this.loadingModule = file;
    try {
      run(localRequire, module, module.exports);
    } finally {
      this.loadingModule = previous;
    }
    return module.exports;
  }

  // ---- pages ----

  pageRoutes(): string[] {
    return [
      ...this.appJson.pages,
      ...(this.appJson.subPackages ?? []).flatMap((pkg) => pkg.pages.map((page) => `${pkg.root}/${page}`)),
    ];
  }

  isTabPage(route: string): boolean {
    return (this.appJson.tabBar?.list ?? []).some((item) => item.pagePath === route);
  }

  get pages(): readonly PageRecord[] {
    return this.stack;
  }

  top(): PageRecord | undefined {
    return this.stack[this.stack.length - 1];
  }

  currentRoute(): string {
    return this.top()?.route ?? '';
  }

  parseUrl(url: string, from = this.currentRoute()): { route: string; query: Record<string, string> } {
    const [pathPart, search = ''] = url.split('?');
    const route = pathPart.startsWith('/')
      ? pathPart.slice(1)
      : posix.normalize(posix.join(posix.dirname(from || 'x'), pathPart));
    const query: Record<string, string> = {};
    for (const pair of search.split('&').filter(Boolean)) {
      const [key, value = ''] = pair.split('=');
      query[decodeURIComponent(key)] = decodeURIComponent(value);
    }
    return { route: route.replace(/\.html$/, ''), query };
  }

  private openFirst(route: string, query: Record<string, string>): void {
    const record = this.createPage(route, query);
    if (!record) return;
    this.stack.push(record);
    if (this.isTabPage(route)) this.aliveTabs.set(route, record);
    this.showNew(record);
  }

  private loadPageCode(route: string): Record<string, unknown> | undefined {
    if (!this.pageRoutes().includes(route)) return undefined;
    if (!this.pageConfigs.has(route)) this.requireModule(`${route}.js`);
    const config = this.pageConfigs.get(route);
    if (!config) throw new MiniProgramError(`${route}.js did not call Page()`);
    return config;
  }

  private readJson(path: string): Record<string, unknown> {
    const file = join(this.distDir, path);
    return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  }

  private view(path: string): WxmlFile {
    const cached = this.wxmlFiles.get(path);
    if (cached) return cached;
    const json = this.readJson(path.replace(/\.wxml$/, '.json'));
    const load = (imported: string): WxmlFile => {
      const hit = this.wxmlFiles.get(imported);
      if (hit) return hit;
      const file = new WxmlFile(this.distDir, imported, load);
      this.wxmlFiles.set(imported, file);
      return file;
    };
    const file = new WxmlFile(
      this.distDir,
      path,
      load,
      (json.usingComponents as Record<string, string> | undefined) ?? {},
    );
    this.wxmlFiles.set(path, file);
    return file;
  }

  private createPage(route: string, query: Record<string, string>): PageRecord | undefined {
    const config = this.guard(`loading ${route}`, () => this.loadPageCode(route));
    if (!config) return undefined;
    const webviewId = this.nextWebview++;
    const instance = { ...config } as Instance;
    instance.data = clone((config.data as Record<string, unknown>) ?? {});
    const record: PageRecord = { route, query, instance, view: this.view(`${route}.wxml`), webviewId };
    Object.assign(instance, {
      route,
      __route__: route,
      is: route,
      options: { ...query },
      __wxWebviewId__: webviewId,
      setData: (data: Record<string, unknown>, callback?: AnyFunction) =>
        this.setData(record, instance, data, callback),
      getPageId: () => `pageId:${webviewId}`,
      getTabBar: () => record.tabBar?.instance ?? null,
      selectComponent: () => null,
      selectAllComponents: () => [],
      createSelectorQuery: () => (this.context.wx as { createSelectorQuery(): unknown }).createSelectorQuery(),
      getOpenerEventChannel: () => ({ emit: () => undefined, on: () => undefined, once: () => undefined }),
    });
    return record;
  }

  private setData(
    record: PageRecord | null,
    instance: Instance,
    data: Record<string, unknown>,
    callback?: AnyFunction,
  ): void {
    if (this.closed) return;
    if (data === null || typeof data !== 'object') throw new Error('setData: data must be an object');
    const json = JSON.stringify(data);
    const bytes = Buffer.byteLength(json);
    const route = record?.route ?? String(instance.is ?? 'component');
    const figure = this.setDataFigures.get(route) ?? { route, calls: 0, largest: 0 };
    figure.calls += 1;
    figure.largest = Math.max(figure.largest, bytes);
    this.setDataFigures.set(route, figure);
    if (bytes > SET_DATA_LIMIT) {
      this.fail(
        `setData of ${(bytes / 1024).toFixed(1)} KB on ${route} is over WeChat's ${SET_DATA_LIMIT / 1024} KB limit`,
        'setData',
      );
    }
    const copy = JSON.parse(json) as Record<string, unknown>;
    for (const [key, value] of Object.entries(copy)) applyPath(instance.data, key, this.toApp(value));
    this.dataVersion += 1;
    this.noteFirstRender();
    if (callback) this.later('setData callback', () => callback.call(instance));
  }

  private callLifecycle(target: Record<string, unknown> | undefined, name: string, where: string, ...args: unknown[]) {
    const hook = target?.[name];
    if (typeof hook === 'function') return this.guard(where, () => (hook as AnyFunction).apply(target, args));
    return undefined;
  }

  private showNew(record: PageRecord): void {
    const { instance, route } = record;
    this.callLifecycle(instance, 'onLoad', `${route} onLoad`, this.toApp(record.query));
    if (this.isTabPage(route) && this.appJson.tabBar?.custom) {
      record.tabBar = this.guard(`custom-tab-bar on ${route}`, () =>
        this.createComponent('custom-tab-bar/index', {}, record),
      );
    }
    this.callLifecycle(instance, 'onShow', `${route} onShow`);
    this.later(`${route} onReady`, () => this.callLifecycle(instance, 'onReady', `${route} onReady`));
    this.dataVersion += 1;
    this.noteFirstRender();
  }

  /** The first time the first page's view has text to show (a Taro page's initial data is an empty tree). */
  private noteFirstRender(): void {
    if (this.firstRenderAfterMs !== null || this.stack.length === 0) return;
    const hasText = (nodes: RenderedNode[]): boolean =>
      nodes.some((node) => (isText(node) ? node.text.trim() !== '' : hasText(node.children)));
    if (this.guard('rendering', () => hasText(this.screen()))) this.firstRenderAfterMs = Date.now() - this.launchedAt;
  }

  private hidePage(record: PageRecord | undefined): void {
    if (record) this.callLifecycle(record.instance, 'onHide', `${record.route} onHide`);
  }

  private unloadPage(record: PageRecord): void {
    this.callLifecycle(record.instance, 'onUnload', `${record.route} onUnload`);
    if (record.tabBar) this.detachComponent(record.tabBar);
    for (const [key, embedded] of this.embedded) {
      if (key.startsWith(`${record.webviewId}:`)) {
        this.detachComponent(embedded);
        this.embedded.delete(key);
      }
    }
    this.aliveTabs.delete(record.route);
  }

  private reshow(record: PageRecord): void {
    this.callLifecycle(record.instance, 'onShow', `${record.route} onShow`);
    this.dataVersion += 1;
  }

  /** wx.navigateTo and friends: checks as WeChat does, then changes the stack on a later task. */
  navigate(kind: 'navigateTo' | 'redirectTo' | 'switchTab' | 'reLaunch', url: string): string | null {
    const { route, query } = this.parseUrl(url);
    if (!this.pageRoutes().includes(route)) return `page "${route}" is not found`;
    const tab = this.isTabPage(route);
    if ((kind === 'navigateTo' || kind === 'redirectTo') && tab) return `can not ${kind} a tabbar page`;
    if (kind === 'switchTab' && !tab) return 'can not switch to no-tabBar page';
    if (kind === 'navigateTo' && this.stack.length >= PAGE_STACK_LIMIT) return 'webview count limit exceed';
    this.later(kind, () => {
      if (kind === 'navigateTo') {
        const record = this.createPage(route, query);
        if (!record) return;
        this.hidePage(this.top());
        this.stack.push(record);
        this.showNew(record);
      } else if (kind === 'redirectTo') {
        const top = this.stack.pop();
        if (top) this.unloadPage(top);
        const record = this.createPage(route, query);
        if (!record) return;
        this.stack.push(record);
        this.showNew(record);
      } else if (kind === 'switchTab') {
        const top = this.top();
        if (top?.route === route) return;
        for (const record of [...this.stack].reverse()) {
          if (this.isTabPage(record.route)) this.hidePage(record);
          else this.unloadPage(record);
        }
        const alive = this.aliveTabs.get(route);
        if (alive) {
          this.stack = [alive];
          this.reshow(alive);
          return;
        }
        const record = this.createPage(route, {});
        if (!record) return;
        this.stack = [record];
        this.aliveTabs.set(route, record);
        this.showNew(record);
      } else {
        for (const record of [...this.stack].reverse()) this.unloadPage(record);
        for (const record of [...this.aliveTabs.values()]) this.unloadPage(record);
        this.stack = [];
        this.openFirst(route, query);
      }
    });
    return null;
  }

  navigateBack(delta: number): string | null {
    if (this.stack.length <= 1) return 'cannot navigate back at first page.';
    this.later('navigateBack', () => {
      const count = Math.min(Math.max(1, delta), this.stack.length - 1);
      for (let step = 0; step < count; step += 1) {
        const top = this.stack.pop();
        if (top) this.unloadPage(top);
      }
      const back = this.top();
      if (back) this.reshow(back);
    });
    return null;
  }

  // ---- components ----

  private createComponent(path: string, properties: Record<string, unknown>, page: PageRecord): ComponentRecord {
    if (!this.componentConfigs.has(path)) this.requireModule(`${path}.js`);
    const config = this.componentConfigs.get(path);
    if (!config) throw new MiniProgramError(`${path}.js did not call Component()`);
    const declared = (config.properties ?? {}) as Record<string, { value?: unknown } | AnyFunction>;
    const data: Record<string, unknown> = clone((config.data as Record<string, unknown>) ?? {});
    for (const [name, spec] of Object.entries(declared)) {
      data[name] = name in properties ? properties[name] : typeof spec === 'object' ? clone(spec.value) : undefined;
    }
    const instance = { data } as Instance;
    const record: ComponentRecord = { path, instance, view: this.view(`${path}.wxml`), config };
    Object.assign(instance, (config.methods as object) ?? {}, {
      is: path,
      properties: data,
      setData: (update: Record<string, unknown>, callback?: AnyFunction) =>
        this.setData(null, instance, update, callback),
      getPageId: () => `pageId:${page.webviewId}`,
      triggerEvent: () => undefined,
      selectComponent: () => null,
      selectAllComponents: () => [],
      createSelectorQuery: () => (this.context.wx as { createSelectorQuery(): unknown }).createSelectorQuery(),
    });
    const lifetimes = (config.lifetimes ?? {}) as Record<string, unknown>;
    const attached = lifetimes.attached ?? config.attached;
    if (typeof attached === 'function') this.guard(`${path} attached`, () => attached.call(instance));
    return record;
  }

  private detachComponent(record: ComponentRecord): void {
    const lifetimes = (record.config.lifetimes ?? {}) as Record<string, unknown>;
    const detached = lifetimes.detached ?? record.config.detached;
    if (typeof detached === 'function') this.guard(`${record.path} detached`, () => detached.call(record.instance));
  }

  private embeddedComponent(owner: Owner, path: string, properties: Record<string, unknown>, place: string) {
    const page = this.top();
    if (!page) throw new MiniProgramError('a component rendered with no page');
    const key = `${page.webviewId}:${owner.label}:${place}`;
    let record = this.embedded.get(key);
    if (!record) {
      record = this.createComponent(path, properties, page);
      this.embedded.set(key, record);
    } else {
      Object.assign(record.instance.data, properties);
    }
    return { view: record.view, data: record.instance.data, owner: { instance: record.instance, label: key } };
  }

  // ---- the screen ----

  /** What the page on top shows (its tab bar included), as WeChat's view renders it from the page's data. */
  screen(): RenderedNode[] {
    const page = this.top();
    if (!page) return [];
    if (this.rendered && this.rendered.page === page && this.rendered.version === this.dataVersion) {
      return this.rendered.nodes;
    }
    const version = this.dataVersion;
    const nodes = this.renderer.render(page.view, page.instance.data, { instance: page.instance, label: page.route });
    if (page.tabBar) {
      const bar = page.tabBar;
      nodes.push(...this.renderer.render(bar.view, bar.instance.data, { instance: bar.instance, label: bar.path }));
    }
    this.rendered = { version, page, nodes };
    return nodes;
  }

  /** Sends a WeChat event to an element: bound handlers from the element up (bubbling events), until a catch. */
  dispatch(target: RenderedElement, type: string, detail: Record<string, unknown> = {}): void {
    const bubbles = BUBBLING_EVENTS.has(type);
    const targetInfo = { id: String(target.attrs.id ?? ''), dataset: target.dataset };
    const touch = { identifier: 0, pageX: 10, pageY: 10, clientX: 10, clientY: 10, force: 1 };
    for (let node: RenderedElement | null = target; node; node = bubbles ? node.parent : null) {
      const binding = node.bindings.get(type);
      if (!binding) continue;
      const handler = node.owner.instance[binding.method];
      if (typeof handler !== 'function') {
        this.fail(`${node.owner.label} has no method "${binding.method}" to handle ${type}`, 'event');
        return;
      }
      const event = this.toApp({
        type,
        timeStamp: Date.now() - this.launchedAt,
        target: targetInfo,
        currentTarget: { id: String(node.attrs.id ?? ''), dataset: node.dataset },
        detail,
        touches: type.startsWith('touch') && type !== 'touchend' ? [touch] : [],
        changedTouches: type.startsWith('touch') || type === 'tap' ? [touch] : [],
        mark: {},
        mut: false,
      });
      const owner = node.owner.instance;
      this.guard(`${type} handler on ${node.owner.label}`, () => (handler as AnyFunction).call(owner, event));
      if (binding.catches) return;
    }
  }

  /** Page-level events: scrolled to the bottom, pulled down to refresh. */
  pageEvent(name: 'onReachBottom' | 'onPullDownRefresh' | 'onPageScroll', argument?: unknown): void {
    const page = this.top();
    if (page) this.callLifecycle(page.instance, name, `${page.route} ${name}`, this.toApp(argument));
  }
}

const BUBBLING_EVENTS = new Set([
  'touchstart',
  'touchmove',
  'touchcancel',
  'touchend',
  'tap',
  'longpress',
  'longtap',
  'transitionend',
  'animationstart',
  'animationiteration',
  'animationend',
  'touchforcechange',
]);

/** A console argument as text: errors with their stack (JSON would give `{}`), objects as JSON. */
function describe(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'stack' in value && typeof value.stack === 'string') return value.stack;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Node's own process: inside jest, `process` is a copy whose events never fire. (Jest fails a test on an
 * unhandled rejection by itself; outside jest, in the bench, this listener is what catches one.)
 */
function realProcess(): NodeJS.Process {
  return vm.runInThisContext('process') as NodeJS.Process;
}

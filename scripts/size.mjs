#!/usr/bin/env node
/**
 * Package budgets. Prints the size of every weapp package (the main package and each subpackage,
 * as WeChat counts them: every file under the package root) and the H5 first-load JavaScript
 * (every script the browser fetches to show the home page, measured in headless Chromium),
 * raw and gzip. Fails when a weapp package passes 2 MB, the main package passes 600 KB, the H5 first-load
 * JavaScript passes 160 KB gzip (issue 23: an empty Taro 4 app loads 118 KB), a page opened from home fetches
 * more than 40 KB gzip, or the messaging SDK's share of the weapp bundle passes 60 KB minified (DESIGN.md).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import babel from '@babel/core';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { tsImport } from 'tsx/esm/api';
import { chromiumLaunchOptions } from './lib/chromium.mjs';
import { serveStatic } from './lib/static-server.mjs';

/**
 * The start script the server sends with the prerendered home (START_SCRIPT of server/prerender/home.ts), read
 * through tsx's own loader: its named exports on every Node this project runs on (a `--import tsx` child gave Node
 * 20 only a `default`).
 */
async function startScript() {
  const { START_SCRIPT } = await tsImport('../server/prerender/home.ts', import.meta.url);
  if (typeof START_SCRIPT !== 'string' || START_SCRIPT === '')
    throw new Error('no START_SCRIPT in server/prerender/home.ts');
  return Buffer.from(START_SCRIPT);
}

const MB = 1024 * 1024;
const KB = 1024;
const budgets = {
  package: 2 * MB,
  main: 600 * KB,
  h5FirstLoadGzip: 160 * KB,
  h5NextPageGzip: 40 * KB,
  sdkMinified: 60 * KB,
};
/** Pages a shopper opens from home; each is measured on its own, as the JavaScript its client-side navigation fetches. */
const nextPages = [
  '/pages/product/product-list-main',
  '/pages/product/product?id=1',
  '/pages/order/cart/cart',
  '/pages/article/article?id=1',
  '/pages/mine/index/mine',
];
const weappDir = process.env.WEAPP_DIR || 'dist/weapp';
const h5Dir = process.env.H5_DIR || 'dist/h5';
const failures = [];

const fmt = (bytes) => (bytes >= MB ? `${(bytes / MB).toFixed(2)} MB` : `${(bytes / KB).toFixed(1)} KB`);

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? files(path) : [path];
  });
}

function weappPackages() {
  if (!existsSync(join(weappDir, 'app.json'))) {
    failures.push(`no weapp build in ${weappDir}: run npm run build:weapp`);
    return;
  }
  const app = JSON.parse(readFileSync(join(weappDir, 'app.json'), 'utf8'));
  const roots = (app.subPackages ?? app.subpackages ?? []).map((pkg) => pkg.root.replace(/\/$/, ''));
  const sizes = new Map([['main', 0], ...roots.map((root) => [root, 0])]);
  for (const file of files(weappDir)) {
    const rel = relative(weappDir, file).split(sep).join('/');
    if (rel.endsWith('.LICENSE.txt') || rel === 'project.config.json' || rel.endsWith('.map')) continue;
    const owner = roots.find((root) => rel === root || rel.startsWith(`${root}/`)) ?? 'main';
    sizes.set(owner, sizes.get(owner) + statSync(file).size);
  }
  let total = 0;
  console.log('weapp packages:');
  for (const [name, size] of sizes) {
    total += size;
    const limit = name === 'main' ? budgets.main : budgets.package;
    const ok = size <= limit;
    console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${name.padEnd(28)} ${fmt(size).padStart(10)}  (budget ${fmt(limit)})`);
    if (!ok) failures.push(`weapp package ${name} is ${fmt(size)}, over ${fmt(limit)}`);
  }
  console.log(`  total ${fmt(total)} in ${sizes.size} package(s)`);
}

async function h5FirstLoad() {
  if (!existsSync(join(h5Dir, 'index.html'))) {
    failures.push(`no H5 build in ${h5Dir}: run npm run build:h5`);
    return;
  }
  const server = await serveStatic(h5Dir);
  const browser = await chromium.launch(chromiumLaunchOptions());
  const measure = (scripts) => {
    let raw = 0;
    let gzip = 0;
    for (const path of scripts) {
      const body = readFileSync(join(h5Dir, path));
      raw += body.length;
      gzip += gzipSync(body, { level: 9 }).length;
    }
    return { raw, gzip };
  };
  const open = async (next) => {
    const page = await browser.newPage({ viewport: { width: 375, height: 812 } });
    const home = new Set();
    const after = new Set();
    let fetching = home;
    page.on('request', (request) => {
      if (request.resourceType() === 'script') fetching.add(new URL(request.url()).pathname);
    });
    await page.goto(`${server.url}/`, { waitUntil: 'networkidle' });
    // Home's page chunk comes once the entry has run: on a loaded machine that is after a first quiet moment.
    await page.waitForSelector('.taro_page .home', { timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    if (next) {
      fetching = after;
      // The router follows the history, as it does on a tapped link: no new document, only the page's chunks.
      await page.evaluate((to) => {
        history.pushState(null, '', to);
        dispatchEvent(new PopStateEvent('popstate'));
      }, next);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(500);
    }
    await page.close();
    return { home, after };
  };
  try {
    const { home } = await open();
    const built = measure(home);
    // The server's prerendered home adds its start script (server/prerender/home.ts), which this static server
    // does not serve: counted from its source.
    const start = await startScript();
    const startGzip = gzipSync(start, { level: 9 }).length;
    const raw = built.raw + start.length;
    const gzip = built.gzip + startGzip;
    const ok = gzip <= budgets.h5FirstLoadGzip;
    console.log('H5 first-load JavaScript (home page, headless Chromium):');
    console.log(
      `  ${ok ? 'ok  ' : 'FAIL'} ${home.size + 1} scripts  raw ${fmt(raw)}  gzip ${fmt(gzip)}  (budget ${fmt(budgets.h5FirstLoadGzip)} gzip; ` +
        `the server's start script ${fmt(startGzip)} gzip of it)`,
    );
    if (!ok) failures.push(`H5 first-load JavaScript is ${fmt(gzip)} gzip, over ${fmt(budgets.h5FirstLoadGzip)}`);
    // The messaging SDK (its Socket.IO transport names `EIO=4`) connects after the first screen, never in it.
    const sdkInFirstLoad = [...home].filter((path) => readFileSync(join(h5Dir, path), 'utf8').includes('EIO=4'));
    console.log(`  ${sdkInFirstLoad.length ? 'FAIL' : 'ok  '} the messaging SDK is not in the first load`);
    if (sdkInFirstLoad.length) {
      failures.push(
        `the messaging SDK is in home's first load (${sdkInFirstLoad.join(', ')}): load it after the first screen`,
      );
    }
    console.log(`H5 JavaScript fetched opening a page from home (budget ${fmt(budgets.h5NextPageGzip)} gzip each):`);
    for (const next of nextPages) {
      const { after } = await open(next);
      const sizes = measure(after);
      const within = after.size > 0 && sizes.gzip <= budgets.h5NextPageGzip;
      console.log(
        `  ${within ? 'ok  ' : 'FAIL'} ${next.padEnd(36)} ${after.size} scripts  raw ${fmt(sizes.raw)}  gzip ${fmt(sizes.gzip)}`,
      );
      if (after.size === 0)
        failures.push(`opening ${next} from home fetched no script: the router did not load the page`);
      else if (!within)
        failures.push(`opening ${next} from home fetches ${fmt(sizes.gzip)} gzip, over ${fmt(budgets.h5NextPageGzip)}`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

/**
 * The SDK as the weapp build gets it: src/messaging compiled by babel with the project's babel.config.js for weapp,
 * and babel's runtime helpers left out (the whole app shares them).
 */
const asWeappBuilds = {
  name: 'as-weapp-builds',
  setup(bundler) {
    bundler.onResolve({ filter: /[\\/]@babel[\\/]runtime[\\/]/ }, (args) => ({ path: args.path, external: true }));
    bundler.onLoad({ filter: /[\\/]src[\\/]messaging[\\/].*\.ts$/ }, async (args) => {
      const { code } = await babel.transformFileAsync(args.path);
      return { contents: code, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

/** The messaging SDK's share of the weapp bundle: src/messaging, compiled and minified. */
async function sdkShare() {
  process.env.TARO_ENV = 'weapp';
  process.env.NODE_ENV = 'production';
  const result = await build({
    entryPoints: ['src/messaging/index.ts'],
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    external: ['@tarojs/taro'],
    plugins: [asWeappBuilds],
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].contents;
  const gzip = gzipSync(code, { level: 9 }).length;
  const within = code.length <= budgets.sdkMinified;
  console.log('messaging SDK share of the weapp bundle (src/messaging, minified):');
  console.log(
    `  ${within ? 'ok  ' : 'FAIL'} ${fmt(code.length)} minified, ${fmt(gzip)} gzip  (budget ${fmt(budgets.sdkMinified)} minified)`,
  );
  if (!within) {
    failures.push(`the messaging SDK is ${fmt(code.length)} minified, over ${fmt(budgets.sdkMinified)} (DESIGN.md)`);
  }
}

weappPackages();
await h5FirstLoad();
await sdkShare();
if (failures.length) {
  console.error(`\nsize budgets failed:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log('\nsize budgets: all within limits');

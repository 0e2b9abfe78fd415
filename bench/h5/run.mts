import { spawnSync } from 'node:child_process';
/**
 * H5 performance: Lighthouse (mobile configuration, simulated throttling) against the home, product-list and
 * product pages served by the real shop server with its demo catalogue, each the median of RUNS runs, beside an
 * empty Taro 4 app (bench/h5/empty-taro.mts) measured the same way in the same run. Prints performance score,
 * FCP, LCP, TBT, CLS and transferred bytes per page, and the targets of issue 23 (home: score >= 95, LCP <= 2.0 s,
 * TBT <= 150 ms, CLS <= 0.05; product list and product: score >= 95).
 * Run: npm run bench:h5   (builds H5 first, so it measures the code as it is; BENCH_H5_BUILT=1 measures dist/h5 as it
 *                          stands; BENCH_H5_RUNS=5 for more runs)
 */
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startShop } from '../../test/e2e/support/server';
import { buildEmptyTaroApp, serveEmptyTaroApp } from './empty-taro';

const chromePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const RUNS = Number(process.env.BENCH_H5_RUNS || 3);

interface Figures {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  kb: number;
}

async function firstGoodsId(base: string): Promise<number | undefined> {
  const response = await fetch(`${base}/api/goods/get_goods_page`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ page: 1, page_size: 1 }),
  });
  const body = (await response.json()) as { data?: { list?: Array<{ goods_id: number }> } };
  return body.data?.list?.[0]?.goods_id;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function measure(port: number, url: string): Promise<Figures> {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { lhr } = result;
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    fcp: audit('first-contentful-paint'),
    lcp: audit('largest-contentful-paint'),
    tbt: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    kb: audit('total-byte-weight') / 1024,
  };
}

/** The median of each figure over RUNS runs (each figure on its own, as Lighthouse's own median-run advice does). */
async function medianOf(port: number, url: string): Promise<Figures> {
  const runs: Figures[] = [];
  for (let run = 0; run < RUNS; run += 1) runs.push(await measure(port, url));
  const pick = (key: keyof Figures) => median(runs.map((figures) => figures[key]));
  return {
    score: pick('score'),
    fcp: pick('fcp'),
    lcp: pick('lcp'),
    tbt: pick('tbt'),
    cls: pick('cls'),
    kb: pick('kb'),
  };
}

function row(name: string, f: Figures): string {
  return (
    `${name.padEnd(16)} ${String(f.score).padStart(5)} ${f.fcp.toFixed(0).padStart(7)} ${f.lcp.toFixed(0).padStart(7)} ` +
    `${f.tbt.toFixed(0).padStart(7)} ${f.cls.toFixed(3).padStart(6)} ${f.kb.toFixed(1).padStart(9)} KB`
  );
}

async function main() {
  // A build left from other code would be measured in silence: build unless told the one there is current.
  if (!process.env.BENCH_H5_BUILT || !existsSync('dist/h5/index.html')) {
    const built = spawnSync('npm', ['run', '-s', 'build:h5'], { stdio: 'inherit' });
    if (built.status !== 0) throw new Error('npm run build:h5 failed');
  }
  console.log('building the empty Taro 4 app (once; kept in bench/results/empty-taro)…');
  const emptyDir = await buildEmptyTaroApp();
  const shop = await startShop();
  const empty = await serveEmptyTaroApp(emptyDir);
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    const goodsId = await firstGoodsId(shop.url);
    const pages: Array<[string, string]> = [
      ['home', `${shop.url}/`],
      ['product-list', `${shop.url}/pages/product/product-list-main`],
      ['product', `${shop.url}/pages/product/product?id=${goodsId ?? 1}`],
    ];
    const results = new Map<string, Figures>();
    // The empty app first and between our pages, so both see the machine's load alike.
    results.set('empty Taro app', await medianOf(chrome.port, `${empty.url}/`));
    for (const [name, url] of pages) results.set(name, await medianOf(chrome.port, url));
    console.log(`\nLighthouse ${RUNS}x median, mobile (simulated throttling), Debian Chromium; load: ${loadAverage()}`);
    console.log('page             score  FCP ms  LCP ms  TBT ms    CLS  transferred');
    for (const [name, figures] of results) console.log(row(name, figures));
    const home = results.get('home') as Figures;
    const base = results.get('empty Taro app') as Figures;
    console.log(
      `\nhome vs the empty app: score ${signed(home.score - base.score)}, LCP ${signed(home.lcp - base.lcp)} ms, ` +
        `TBT ${signed(home.tbt - base.tbt)} ms`,
    );
    const targets: Array<[string, boolean]> = [
      ['home score >= 95', home.score >= 95],
      ['home LCP <= 2000 ms', home.lcp <= 2000],
      ['home TBT <= 150 ms', home.tbt <= 150],
      ['home CLS <= 0.05', home.cls <= 0.05],
      ['product-list score >= 95', (results.get('product-list') as Figures).score >= 95],
      ['product score >= 95', (results.get('product') as Figures).score >= 95],
    ];
    for (const [target, met] of targets) console.log(`  ${met ? 'met   ' : 'MISSED'} ${target}`);
  } finally {
    await chrome.kill();
    await empty.close();
    await shop.stop();
  }
}

function signed(value: number): string {
  const rounded = Math.round(value);
  return rounded > 0 ? `+${rounded}` : String(rounded);
}

function loadAverage(): string {
  return `${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')} on ${cpus().length} cores`;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

import { spawnSync } from 'node:child_process';
/**
 * H5 performance: Lighthouse (mobile configuration, simulated throttling) against the home,
 * product-list and product pages served by the real shop server with its demo catalogue.
 * Prints performance score, LCP, TBT, CLS and transferred bytes per page.
 * Run: npm run bench:h5   (builds H5 first when dist/h5 is missing)
 */
import { existsSync } from 'node:fs';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startShop } from '../../test/e2e/support/server';

const chromePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

async function firstGoodsId(base: string): Promise<number | undefined> {
  const response = await fetch(`${base}/api/goods/get_goods_page`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ page: 1, page_size: 1 }),
  });
  const body = (await response.json()) as { data?: { list?: Array<{ goods_id: number }> } };
  return body.data?.list?.[0]?.goods_id;
}

async function main() {
  if (!existsSync('dist/h5/index.html')) spawnSync('npm', ['run', '-s', 'build:h5'], { stdio: 'inherit' });
  const shop = await startShop();
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
      ['home', '/'],
      ['product-list', '/pages/product/product-list-main'],
      ['product', `/pages/product/product?id=${goodsId ?? 1}`],
    ];
    console.log('Lighthouse mobile (simulated throttling), Debian Chromium, 2 cores');
    console.log('page           score   LCP ms   TBT ms    CLS    transferred');
    for (const [name, path] of pages) {
      const result = await lighthouse(`${shop.url}${path}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
      });
      if (!result) throw new Error(`Lighthouse gave no result for ${path}`);
      const { lhr } = result;
      const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
      const score = Math.round((lhr.categories.performance.score ?? 0) * 100);
      console.log(
        `${name.padEnd(14)} ${String(score).padStart(5)} ${audit('largest-contentful-paint').toFixed(0).padStart(8)} ` +
          `${audit('total-blocking-time').toFixed(0).padStart(8)} ${audit('cumulative-layout-shift').toFixed(3).padStart(6)} ` +
          `${(audit('total-byte-weight') / 1024).toFixed(1).padStart(10)} KB`,
      );
    }
  } finally {
    await chrome.kill();
    await shop.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

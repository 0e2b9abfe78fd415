/**
 * The mini-program in the headless runner (test/weapp/runner), printed (not asserted). In one run:
 *  1. launch to home's first render (the first time its view has text to show) and to the catalogue on screen,
 *     median of fresh launches of the built dist/weapp, beside the runner's own floor measured the same way on the
 *     hand-written page of test/weapp/fixtures/tiny-app (no Taro, no network);
 *  2. the largest setData payload of every page (and the custom tab bar) that the journeys of
 *     test/weapp/journeys.ts open, against WeChat's 256 KB limit, replaying those journeys on the real server.
 * Run: npm run bench:weapp   (LAUNCHES=15 for more launches; WEAPP_DIR for another build)
 */
import { join } from 'node:path';
import { CHAT_JOURNEY, type JourneyContext, SHOP_JOURNEY, journeyContext } from '../../test/weapp/journeys';
import { SET_DATA_LIMIT, type SetDataFigure } from '../../test/weapp/runner/mini-program';
import { Phone } from '../../test/weapp/runner/phone';
import { type RunningShop, openPhone, startShop, startWeChatWorld, weappDir } from '../../test/weapp/support';

const launches = Number(process.env.LAUNCHES || 7);

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function timeLaunches(shop: RunningShop): Promise<{ firstRender: number[]; catalogue: number[] }> {
  const firstRender: number[] = [];
  const catalogue: number[] = [];
  for (let run = 0; run < launches; run += 1) {
    const started = Date.now();
    const phone = await openPhone(shop);
    try {
      firstRender.push(phone.program.firstRenderAfterMs ?? Number.NaN);
      await phone.see('New Arrivals');
      catalogue.push(Date.now() - started);
    } finally {
      phone.close();
    }
  }
  return { firstRender, catalogue };
}

async function timeTinyLaunches(server: string): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < launches; run += 1) {
    const phone = new Phone({ distDir: join(__dirname, '../../test/weapp/fixtures/tiny-app'), server });
    try {
      await phone.launch();
      times.push(phone.program.firstRenderAfterMs ?? Number.NaN);
    } finally {
      phone.close();
    }
  }
  return times;
}

async function replay(context: JourneyContext): Promise<Map<string, SetDataFigure>> {
  for (const step of [...SHOP_JOURNEY, ...CHAT_JOURNEY]) {
    const started = Date.now();
    await step.run(context);
    console.log(`  ${step.name}: ${Date.now() - started} ms`);
  }
  const figures = new Map<string, SetDataFigure>();
  for (const phone of context.phones) {
    for (const figure of phone.program.setDataFigures.values()) {
      const sum = figures.get(figure.route) ?? { route: figure.route, calls: 0, largest: 0 };
      sum.calls += figure.calls;
      sum.largest = Math.max(sum.largest, figure.largest);
      figures.set(figure.route, sum);
    }
  }
  return figures;
}

async function main(): Promise<void> {
  console.log(`build: ${weappDir}`);
  const wechat = await startWeChatWorld();
  const shop = await startShop({ AUTH_RATE_LIMIT_MAX: '50', ...wechat.env });
  wechat.connect(shop);
  const context = journeyContext(shop, wechat);
  try {
    const tiny = await timeTinyLaunches(shop.url);
    const built = await timeLaunches(shop);
    console.log(`\nlaunch to home's first render, median of ${launches} fresh launches:`);
    console.log(`  dist/weapp: home's first render ${median(built.firstRender)} ms (${built.firstRender.join(', ')})`);
    console.log(`  dist/weapp: catalogue on screen ${median(built.catalogue)} ms (${built.catalogue.join(', ')})`);
    console.log(`  baseline, the runner on a hand-written page: ${median(tiny)} ms (${tiny.join(', ')})`);

    console.log('\njourneys replayed:');
    const figures = await replay(context);
    console.log(`\nlargest setData payload per page (WeChat's limit ${kb(SET_DATA_LIMIT)}):`);
    const rows = [...figures.values()].sort((a, b) => b.largest - a.largest);
    const width = Math.max(...rows.map((row) => row.route.length));
    for (const row of rows) {
      const share = ((row.largest / SET_DATA_LIMIT) * 100).toFixed(1);
      console.log(
        `  ${row.route.padEnd(width)}  ${kb(row.largest).padStart(9)}  ${share.padStart(5)} % of the limit  ${row.calls} setData calls`,
      );
    }
  } finally {
    for (const phone of context.phones) phone.close();
    await shop.stop();
    await wechat.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Goods, Page as ListPage } from '../../types/api';
import { type RunningShop, api, openPhone, startShop, weappDir } from './support';

jest.setTimeout(60_000);

/**
 * A bug in weapp-only code fails a journey: a copy of the build whose product page touches `document` (fine in a
 * browser, absent in WeChat) breaks the walk from home to a frame, with a message naming the global and the file;
 * an untouched copy walks through.
 */
describe('a browser-only call in the built product page fails the journey', () => {
  let shop: RunningShop;
  let copies: string;
  let frame: Goods;

  beforeAll(async () => {
    shop = await startShop();
    copies = mkdtempSync(join(tmpdir(), 'lensmate-weapp-copies-'));
    cpSync(weappDir, join(copies, 'untouched'), { recursive: true });
    cpSync(weappDir, join(copies, 'broken'), { recursive: true });
    const productPage = join(copies, 'broken/pages/product/product.js');
    const code = readFileSync(productPage, 'utf8');
    const injected = code.replace('children:"Frame size"', 'children:(document.title,"Frame size")');
    if (injected === code) throw new Error('the built product page no longer renders "Frame size" as expected');
    writeFileSync(productPage, injected);
    frame = (await api<ListPage<Goods>>(shop, '/api/goods/get_goods_page', { page: 1, page_size: 1 })).list[0];
  });

  afterAll(async () => {
    if (copies) rmSync(copies, { recursive: true, force: true });
    await shop?.stop();
  });

  async function walkToFrame(distDir: string): Promise<void> {
    const phone = await openPhone(shop, { distDir });
    try {
      await phone.tap('All frames');
      await phone.tap(frame.goods_name);
      await phone.see('Frame size');
    } finally {
      phone.close();
    }
  }

  it('walks from home to a frame on the untouched copy', async () => {
    await walkToFrame(join(copies, 'untouched'));
  });

  it('fails on the copy whose product page uses document, naming the global and the built file', async () => {
    await expect(walkToFrame(join(copies, 'broken'))).rejects.toThrow(
      /the mini-program failed on pages\/product\/product:[\s\S]*ReferenceError: document is not defined[\s\S]*pages\/product\/product\.js[\s\S]*"document" is not a global of WeChat's JS engine/,
    );
  });
});

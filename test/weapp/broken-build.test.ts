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
/**
 * The built page's code with `document.title` read at the top of the page component, found as Taro's build names
 * it: the component handed to createPageConfig with the page's route, `(0,x.y)(Component,"pages/product/product"`.
 */
function readDocumentTitleOnRender(code: string): string {
  const component = /\(0,[\w$]+\.[\w$]+\)\(([\w$]+),"pages\/product\/product"/.exec(code)?.[1];
  const start = component ? new RegExp(`function ${component.replace('$', '\\$')}\\([^)]*\\)\\{`).exec(code) : null;
  if (!start) throw new Error('the built product page no longer registers its component as this test expects');
  const at = start.index + start[0].length;
  return `${code.slice(0, at)}document.title;${code.slice(at)}`;
}

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
    writeFileSync(productPage, readDocumentTitleOnRender(readFileSync(productPage, 'utf8')));
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

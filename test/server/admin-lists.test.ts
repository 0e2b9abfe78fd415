import { MSG } from '../../server/http';
import { ADA, ADMIN, type TestServer, engines, startServer } from './helpers';

/** The admin's lists of glasses and articles past 50 items: paged, searched on the server, for admins only. */
describe.each(engines)('admin lists of glasses and articles on %s', (engine) => {
  let s: TestServer;
  let admin: string;
  let ada: string;
  const MANY = 120;
  let seededGoods = 0;
  let seededArticles = 0;
  let unlistedId = 0;

  beforeAll(async () => {
    s = await startServer(engine);
    admin = await s.login(ADMIN.email, ADMIN.password);
    ada = await s.login(ADA.email, ADA.password);
    const db = s.handle.db;
    // Newer than the demo's rows, one a millisecond, so the newest-first order is known.
    const at = Date.now() + 60_000;
    for (let n = 1; n <= MANY; n += 1) {
      const row = await db
        .insertInto('goods')
        .values({
          name: `Paged Frame ${String(n).padStart(3, '0')}${n % 10 === 0 ? ' Tortoise' : ''}`,
          img: '/uploads/goods/paged.png',
          description: '',
          shop_price_cents: 10000,
          discount: 100,
          final_price_cents: 10000,
          category_id: null,
          on_sale: n === 7 ? 0 : 1,
          lens_width: 50,
          bridge_width: 18,
          temple_length: 140,
          search_text: '',
          deleted: n === 8 ? 1 : 0,
          created_at: at + n,
          updated_at: at + n,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (n === 7) unlistedId = row.id;
      await db
        .insertInto('articles')
        .values({
          title: `Paged Article ${String(n).padStart(3, '0')}${n % 10 === 0 ? ' on 50% Off_Sales' : ''}`,
          cover: '/uploads/article/paged.png',
          imgs: '[]',
          content: '<p>text</p>',
          category_id: null,
          author_id: null,
          created_at: at + n,
          updated_at: at + n,
        })
        .execute();
    }
    seededGoods = MANY - 1; // one deleted
    seededArticles = MANY;
  });
  afterAll(async () => {
    await s.close();
  });

  /** As the admin unless another token is given ('' for none). */
  const goodsList = (body: unknown, token = admin) => s.call('POST', '/api/admin/goods/list', body, token || undefined);
  const articleList = (body: unknown, token = admin) =>
    s.call('POST', '/api/admin/article/list', body, token || undefined);

  test('glasses come a page at a time, newest first, unlisted ones too and deleted ones never, past 50', async () => {
    const first = await goodsList({ page: 1, page_size: 20 });
    expect(first.body.status).toBe(200);
    const { total } = first.body.data;
    expect(total).toBeGreaterThanOrEqual(seededGoods);
    const seen: { goods_id: number; goods_name: string; is_on_sale: boolean }[] = [];
    for (let page = 1; page <= Math.ceil(total / 20); page += 1) {
      const answer = await goodsList({ page, page_size: 20 });
      expect(answer.body.data).toMatchObject({ page, page_size: 20, total });
      expect(answer.body.data.list.length).toBe(Math.min(20, total - (page - 1) * 20));
      seen.push(...answer.body.data.list);
    }
    expect(new Set(seen.map((item) => item.goods_id)).size).toBe(total);
    const paged = seen.filter((item) => item.goods_name.startsWith('Paged Frame'));
    expect(paged.length).toBe(seededGoods);
    expect(paged[0].goods_name).toMatch(/^Paged Frame 120/);
    expect(paged.map((item) => item.goods_name)).not.toContain('Paged Frame 008');
    expect(paged.find((item) => item.goods_id === unlistedId)?.is_on_sale).toBe(false);
    // Past the end: an empty page with the total.
    const past = await goodsList({ page: 99, page_size: 20 });
    expect(past.body.data).toMatchObject({ list: [], total });
  });

  test('glasses are found by their name in any case, or by their id, on the server', async () => {
    const tortoise = await goodsList({ q: '  tortoise ', page_size: 5 });
    expect(tortoise.body.data.total).toBe(12);
    expect(tortoise.body.data.list.map((item: { goods_name: string }) => item.goods_name)).toEqual([
      'Paged Frame 120 Tortoise',
      'Paged Frame 110 Tortoise',
      'Paged Frame 100 Tortoise',
      'Paged Frame 090 Tortoise',
      'Paged Frame 080 Tortoise',
    ]);
    const third = await goodsList({ q: 'TORTOISE', page: 3, page_size: 5 });
    expect(third.body.data.list.map((item: { goods_name: string }) => item.goods_name)).toEqual([
      'Paged Frame 020 Tortoise',
      'Paged Frame 010 Tortoise',
    ]);
    for (const q of [String(unlistedId), `#${unlistedId}`]) {
      const byId = await goodsList({ q });
      expect(byId.body.data.list.map((item: { goods_id: number }) => item.goods_id)).toContain(unlistedId);
    }
    const none = await goodsList({ q: 'no frame is called this' });
    expect(none.body.data).toMatchObject({ list: [], total: 0 });
  });

  test('articles come a page at a time, newest first, past 50, and are found by words of a title', async () => {
    const first = await articleList({ page_size: 50 });
    const { total } = first.body.data;
    expect(total).toBeGreaterThanOrEqual(seededArticles);
    expect(first.body.data.list[0].title).toBe('Paged Article 120 on 50% Off_Sales');
    const second = await articleList({ page: 2, page_size: 50 });
    const third = await articleList({ page: 3, page_size: 50 });
    const ids = [...first.body.data.list, ...second.body.data.list, ...third.body.data.list].map(
      (item: { article_id: number }) => item.article_id,
    );
    expect(new Set(ids).size).toBe(Math.min(total, 150));
    expect(second.body.data.list[0].title).toBe('Paged Article 070 on 50% Off_Sales');
    const found = await articleList({ q: 'paged article 05' });
    expect(found.body.data.list.map((item: { title: string }) => item.title)).toEqual(
      Array.from({ length: 10 }, (_, index) => `Paged Article 05${9 - index}${index === 9 ? ' on 50% Off_Sales' : ''}`),
    );
  });

  test('what a search types is taken literally: % and _ and quotes match only themselves', async () => {
    // `%` and `_` are LIKE's wildcards: unescaped, "50%" would match every title holding 50, and "_" everything.
    expect((await articleList({ q: '50% off_' })).body.data.total).toBe(12);
    expect((await articleList({ q: '1%' })).body.data.total).toBe(0);
    expect((await articleList({ q: '_' })).body.data.total).toBe(12);
    expect((await goodsList({ q: '%' })).body.data.total).toBe(0);
    expect((await goodsList({ q: '\\' })).body.data.total).toBe(0);
    for (const q of ["' or 1=1 --", '"; drop table goods; --', "Frame' union select * from users --"]) {
      const answer = await goodsList({ q });
      expect(answer.body).toMatchObject({ status: 200, data: { list: [], total: 0 } });
    }
    // Nothing was dropped.
    expect((await goodsList({ q: 'paged frame' })).body.data.total).toBe(seededGoods);
  });

  test("the shop's article list takes its keyword the same way, in any case, on both engines", async () => {
    const list = (keyword: string) => s.call('POST', '/api/article/get_article_list', { keyword, page_size: 100 });
    // Before: PostgreSQL's LIKE was case-sensitive, and on SQLite an escaped % matched nothing (no ESCAPE named).
    expect((await list('OFF_SALES')).body.data.total).toBe(12);
    expect((await list('50% off')).body.data.total).toBe(12);
    expect((await list('1%')).body.data.total).toBe(0);
  });

  test.each([
    [{ page: 0 }, 'page: must be 1 or more'],
    [{ page: -3 }, 'page: must be 1 or more'],
    [{ page: 1.5 }, 'page: must be a whole number'],
    [{ page: '2' }, 'page: must be a number'],
    [{ page: 10_000_000 }, 'page: must be at most 100000'],
    [{ page_size: 0 }, 'page_size: must be 1 or more'],
    [{ page_size: 1_000_000 }, 'page_size: must be at most 100'],
    [{ page_size: 101 }, 'page_size: must be at most 100'],
    [{ page_size: null }, 'page_size: must be a number'],
    [{ q: 'x'.repeat(101) }, 'q: must be at most 100 characters'],
    [{ q: 'long '.repeat(20_000) }, 'q: must be at most 100 characters'],
    [{ q: 42 }, 'q: must be text'],
    [{ q: ['a'] }, 'q: must be text'],
  ])('%#: a bad request is refused with a 400 that names the field, by every admin list', async (body, message) => {
    const orderList = (request: unknown) => s.call('POST', '/api/admin/order/list', request, admin);
    for (const list of [goodsList, articleList, orderList]) {
      const answer = await list(body);
      expect(answer.http).toBe(400);
      expect(answer.body).toMatchObject({ status: 400, msg: message });
    }
  });

  test('a shopper and an anonymous caller get neither list', async () => {
    for (const list of [goodsList, articleList]) {
      const shopper = await list({}, ada);
      expect([shopper.http, shopper.body.msg]).toEqual([403, MSG.adminOnly]);
      const anonymous = await list({}, '');
      expect([anonymous.http, anonymous.body.msg]).toEqual([403, MSG.invalidToken]);
      expect(shopper.body.data ?? null).toBeNull();
      expect(anonymous.body.data ?? null).toBeNull();
    }
  });
});

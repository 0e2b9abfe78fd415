import { growCatalogue } from '../../bench/api/catalogue';
import { FEW_MATCHES } from '../../server/services/goods';
import { ADMIN, type TestServer, engines, startServer } from './helpers';

interface Row {
  id: number;
  search_text: string;
  created_at: number;
  final_price_cents: number;
  discount: number;
  deleted: number;
  on_sale: number;
}

type Sort = 'newest' | 'price_asc' | 'price_desc' | 'discount';

/**
 * What search_page must answer, computed here from the rows themselves: listed goods whose search text has, for
 * every keyword word, a word starting with it; in the sort's order, newest id first on ties.
 */
function expected(rows: Row[], keyword: string, sort: Sort, page: number, size: number) {
  const words = keyword.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const keyOf: Record<Sort, (row: Row) => number> = {
    newest: (row) => -row.created_at,
    price_asc: (row) => row.final_price_cents,
    price_desc: (row) => -row.final_price_cents,
    discount: (row) => row.discount,
  };
  const found = rows
    .filter((row) => row.deleted === 0 && row.on_sale === 1)
    .filter((row) => {
      const tokens = row.search_text.match(/[\p{L}\p{N}]+/gu) ?? [];
      return words.every((word) => tokens.some((token) => token.startsWith(word)));
    })
    .sort((a, b) => keyOf[sort](a) - keyOf[sort](b) || b.id - a.id);
  return { ids: found.slice((page - 1) * size, page * size).map((row) => row.id), total: found.length };
}

describe.each(engines)('search_page over 1,500 goods on %s', (engine) => {
  let s: TestServer;
  let rows: Row[];
  beforeAll(async () => {
    s = await startServer(engine);
    await growCatalogue(s.handle.db, 1_500);
    const admin = await s.login(ADMIN.email, ADMIN.password);
    // Unlisted and deleted goods are matched by the word index but never answered nor counted: some of each among
    // the goods the searches below find first.
    const first = async (keyword: string) =>
      (await s.call('POST', '/api/goods/search_page', { keyword, page_size: 5 })).body.data.list.map(
        (goods: { goods_id: number }) => goods.goods_id,
      ) as number[];
    const [round, harbor, black] = await Promise.all(['round', 'harbor', 'black'].map(first));
    expect([round.length, harbor.length, black.length]).toEqual([5, 5, 5]);
    for (const goodsId of [...round.slice(0, 3), ...harbor.slice(0, 2), black[0], 3, 999]) {
      expect((await s.call('POST', '/api/goods/unlist_goods', { goods_id: goodsId }, admin)).body.status).toBe(200);
    }
    for (const goodsId of [...round.slice(3, 5), harbor[2], black[1], 1300]) {
      expect((await s.call('POST', '/api/goods/delete_goods', { goods_id: goodsId }, admin)).body.status).toBe(200);
    }
    const all = await s.handle.db
      .selectFrom('goods')
      .select(['id', 'search_text', 'created_at', 'final_price_cents', 'discount', 'deleted', 'on_sale'])
      .execute();
    rows = all.map((row) => ({ ...row, created_at: Number(row.created_at) }));
    expect(rows).toHaveLength(1_500);
  });
  afterAll(async () => {
    await s.close();
  });

  const searches: [string, Sort, number, number][] = [
    ['round', 'newest', 1, 20],
    ['round', 'newest', 4, 20],
    ['Round', 'price_asc', 2, 50],
    ['round', 'price_desc', 1, 100],
    ['round', 'discount', 3, 7],
    ['harbor', 'newest', 1, 20],
    ['harbor 42', 'newest', 1, 20],
    ['harbor 4', 'price_asc', 2, 10],
    ['black metal', 'newest', 1, 100],
    ['black', 'newest', 2, 20],
    ['black', 'price_asc', 1, 20],
    ['black', 'price_desc', 1, 30],
    ['ti', 'newest', 1, 20],
    ['nova', 'discount', 1000, 20],
    ['zzzz', 'newest', 1, 20],
    ['cat-eye', 'newest', 1, 20],
  ];
  test.each(searches)('"%s" sorted %s, page %d of %d', async (keyword, sort, page, size) => {
    const answer = await s.call('POST', '/api/goods/search_page', { keyword, sort, page, page_size: size });
    expect(answer.body.status).toBe(200);
    const want = expected(rows, keyword, sort, page, size);
    expect({
      ids: answer.body.data.list.map((goods: { goods_id: number }) => goods.goods_id),
      total: answer.body.data.total,
    }).toEqual(want);
  });

  test('the searches above are not trivial: they find many (both query plans), few and no goods', () => {
    const totals = searches.map(([keyword, sort]) => expected(rows, keyword, sort, 1, 1).total);
    expect(Math.max(...totals)).toBeGreaterThan(FEW_MATCHES + 50);
    expect(totals.some((total) => total > 20 && total < FEW_MATCHES - 50)).toBe(true);
    expect(totals).toContain(0);
    expect(totals.some((total) => total > 0 && total < 20)).toBe(true);
  });
});

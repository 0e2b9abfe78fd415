import { sql } from 'kysely';
import { ListingCache } from '../../server/services/listing-cache';
import { ADMIN, type TestServer, engines, startServer } from './helpers';

/**
 * Listing totals and page ids are cached under the catalogue version that triggers move (migration 0004). These
 * write behind the API's back, as another server process or a bulk load would, and expect every listing to see it.
 */
describe.each(engines)('listing cache on %s', (engine) => {
  let s: TestServer;
  const version = async () =>
    Number(
      (await s.handle.db.selectFrom('catalogue_state').select('version').where('id', '=', 1).executeTakeFirstOrThrow())
        .version,
    );
  const listing = async (payload: Record<string, unknown>) =>
    (await s.call('POST', '/api/goods/get_goods_page', payload)).body.data;
  const search = async (keyword: string) => (await s.call('POST', '/api/goods/search_page', { keyword })).body.data;

  beforeAll(async () => {
    s = await startServer(engine);
  });
  afterAll(async () => {
    await s.close();
  });

  it('moves the catalogue version on every change to goods, their colours and filters, but not on stock', async () => {
    const goodsId = (await listing({ page_size: 1 })).list[0].goods_id;
    const db = s.handle.db;
    const colorId = (
      await db
        .selectFrom('colors')
        .select('id')
        .where('id', 'not in', db.selectFrom('goods_colors').select('color_id').where('goods_id', '=', goodsId))
        .executeTakeFirstOrThrow()
    ).id;
    const filterId = (
      await db
        .selectFrom('filters')
        .select('id')
        .where('id', 'not in', db.selectFrom('goods_filters').select('filter_id').where('goods_id', '=', goodsId))
        .executeTakeFirstOrThrow()
    ).id;
    const steps: [string, () => Promise<unknown>, boolean][] = [
      ['goods update', () => db.updateTable('goods').set({ discount: 90 }).where('id', '=', goodsId).execute(), true],
      [
        'colour added',
        () =>
          db
            .insertInto('goods_colors')
            .values({ goods_id: goodsId, color_id: colorId, images: '[]', sort: 9 })
            .execute(),
        true,
      ],
      [
        'stock change',
        () => db.updateTable('goods_colors').set({ stock: 3 }).where('goods_id', '=', goodsId).execute(),
        false,
      ],
      [
        'colour removed',
        () => db.deleteFrom('goods_colors').where('goods_id', '=', goodsId).where('color_id', '=', colorId).execute(),
        true,
      ],
      [
        'filter added',
        () => db.insertInto('goods_filters').values({ goods_id: goodsId, filter_id: filterId }).execute(),
        true,
      ],
      [
        'filter removed',
        () =>
          db.deleteFrom('goods_filters').where('goods_id', '=', goodsId).where('filter_id', '=', filterId).execute(),
        true,
      ],
    ];
    for (const [what, write, moves] of steps) {
      const before = await version();
      await write();
      expect([what, (await version()) > before]).toEqual([what, moves]);
    }
  });

  it('answers a listing changed behind its back: a new frame, an unlisted one, a renamed one, fresh stock', async () => {
    const filtered = { filter_ids: [1], sort: 'newest' };
    const first = await listing(filtered);
    expect(await listing(filtered)).toEqual(first);
    const template = await s.handle.db
      .selectFrom('goods')
      .selectAll()
      .where('id', '=', first.list[0].goods_id)
      .executeTakeFirstOrThrow();
    // PostgreSQL computes search_vector (a generated column) itself.
    const { id: _id, search_vector: _vector, ...fields } = template as typeof template & { search_vector?: unknown };
    const created = await s.handle.db
      .insertInto('goods')
      .values({ ...fields, name: 'Quasar Behind', search_text: 'quasar behind', created_at: Date.now() + 60_000 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await s.handle.db.insertInto('goods_filters').values({ goods_id: created.id, filter_id: 1 }).execute();
    await s.handle.db
      .insertInto('goods_colors')
      .values({ goods_id: created.id, color_id: 1, images: '[]', sort: 0, stock: 5 })
      .execute();

    const grown = await listing(filtered);
    expect(grown.total).toBe(first.total + 1);
    expect(grown.list[0]).toMatchObject({ goods_id: created.id, goods_name: 'Quasar Behind' });
    expect((await search('quasar')).list.map((goods: { goods_id: number }) => goods.goods_id)).toEqual([created.id]);

    // Stock is read fresh though it leaves the version alone.
    await s.handle.db.updateTable('goods_colors').set({ stock: 2 }).where('goods_id', '=', created.id).execute();
    expect((await listing(filtered)).list[0].color_arr[0].stock).toBe(2);

    await s.handle.db
      .updateTable('goods')
      .set({ name: 'Pulsar Behind', search_text: 'pulsar behind' })
      .where('id', '=', created.id)
      .execute();
    expect((await search('quasar')).total).toBe(0);
    expect((await search('pulsar')).list[0].goods_name).toBe('Pulsar Behind');

    await s.handle.db.updateTable('goods').set({ on_sale: 0 }).where('id', '=', created.id).execute();
    const shrunk = await listing(filtered);
    expect(shrunk.total).toBe(first.total);
    expect(shrunk.list.map((goods: { goods_id: number }) => goods.goods_id)).not.toContain(created.id);
  });

  it('sees an admin edit at once, and answers the same filters in any order from one entry', async () => {
    const admin = await s.login(ADMIN.email, ADMIN.password);
    const before = await listing({ filter_ids: [1, 9] });
    expect(await listing({ filter_ids: [9, 1, 9] })).toEqual(before);
    const target = before.list[0].goods_id;
    const unlisted = await s.call('POST', '/api/goods/unlist_goods', { goods_id: target }, admin);
    expect(unlisted.body.status).toBe(200);
    const after = await listing({ filter_ids: [1, 9] });
    expect(after.total).toBe(before.total - 1);
    expect(after.list.map((goods: { goods_id: number }) => goods.goods_id)).not.toContain(target);
  });

  it('lists cards: a page of 20 frames answers at most 8 KB, with only what a list card shows', async () => {
    const response = await s.app.inject({
      method: 'POST',
      url: '/api/goods/get_goods_page',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ page_size: 20 }),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const page = response.json().data;
    expect(page.list).toHaveLength(20);
    expect(response.rawPayload.length).toBeLessThanOrEqual(8 * 1024);
    const card = page.list[0];
    expect(Object.keys(card).sort()).toEqual(
      [
        'goods_id',
        'goods_name',
        'goods_img',
        'shop_price',
        'discount',
        'final_price',
        'color_arr',
        'is_on_sale',
      ].sort(),
    );
    expect(Object.keys(card.color_arr[0]).sort()).toEqual(['color_id', 'color_name', 'color_value', 'stock'].sort());
    // The frame's own answer stays complete, and agrees with its card.
    const whole = (await s.call('POST', '/api/goods/get_goods_by_id', { goods_id: card.goods_id })).body.data;
    expect(whole).toMatchObject({ goods_desc: expect.any(String), filters: expect.any(Array) });
    expect(whole).toMatchObject({
      goods_name: card.goods_name,
      goods_img: card.goods_img,
      final_price: card.final_price,
      color_arr: card.color_arr.map((colour: { color_id: number; stock: number | null }) => ({
        color_id: colour.color_id,
        stock: colour.stock,
      })),
    });
    const found = await search('round');
    expect(Object.keys(found.list[0]).sort()).toEqual(Object.keys(card).sort());
  });

  it('answers a repeated listing with the same bytes, and shows a stock or catalogue change written behind its back', async () => {
    const payload = { page_size: 5, sort: 'price_asc' };
    const bytes = async () =>
      (
        await s.app.inject({
          method: 'POST',
          url: '/api/goods/get_goods_page',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(payload),
        })
      ).body;
    const first = await bytes();
    expect(await bytes()).toBe(first);
    const card = JSON.parse(first).data.list[0];
    const db = s.handle.db;
    const catalogue = await version();
    // An order elsewhere (another server process) takes stock: the catalogue version stays, the answer moves.
    await db
      .updateTable('goods_colors')
      .set({ stock: 1 })
      .where('goods_id', '=', card.goods_id)
      .where('color_id', '=', card.color_arr[0].color_id)
      .execute();
    expect(await version()).toBe(catalogue);
    const afterStock = JSON.parse(await bytes()).data.list[0];
    expect(afterStock.color_arr[0].stock).toBe(1);
    const searched = await search(card.goods_name.split(' ')[0]);
    expect(searched.list.find((g: { goods_id: number }) => g.goods_id === card.goods_id).color_arr[0].stock).toBe(1);
    // A rename by an admin on another process moves the catalogue version: the new name is listed.
    await db.updateTable('goods').set({ name: 'Renamed Behind The Back' }).where('id', '=', card.goods_id).execute();
    expect(JSON.parse(await bytes()).data.list[0].goods_name).toBe('Renamed Behind The Back');
  });

  it('keeps what shows stock apart: only a cache made withStock is dropped when stock moves', async () => {
    const plain = new ListingCache(10);
    const stocked = new ListingCache(10, true);
    await (await plain.view(s.handle.db)).remember('k', async () => 1);
    await (await stocked.view(s.handle.db)).remember('k', async () => 1);
    await sql`update catalogue_state set stock_version = stock_version + 1 where id = 1`.execute(s.handle.db);
    expect(await (await plain.view(s.handle.db)).remember('k', async () => 2)).toBe(1);
    expect(await (await stocked.view(s.handle.db)).remember('k', async () => 2)).toBe(2);
  });

  it('keeps at most its bound of entries, dropping the least recently used', async () => {
    const cache = new ListingCache(2);
    const view = await cache.view(s.handle.db);
    let computed = 0;
    const value = (n: number) => async () => {
      computed++;
      return n;
    };
    await view.remember('a', value(1));
    await view.remember('b', value(2));
    await view.remember('a', value(1));
    await view.remember('c', value(3));
    expect(cache.size).toBe(2);
    expect(await view.remember('a', value(1))).toBe(1);
    expect(await view.remember('b', value(2))).toBe(2);
    expect(computed).toBe(4);
    await sql`update catalogue_state set version = version + 1 where id = 1`.execute(s.handle.db);
    const next = await cache.view(s.handle.db);
    expect(cache.size).toBe(0);
    expect(await next.remember('a', value(10))).toBe(10);
  });
});

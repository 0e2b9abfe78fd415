import { readFileSync } from 'node:fs';
import jpeg from 'jpeg-js';
import { ADA, ADMIN, type TestServer, engines, startServer } from './helpers';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

function upload(saveTo: string, name: string, bytes: Buffer): FormData {
  const form = new FormData();
  form.append('save_to', saveTo);
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  return form;
}

describe.each(engines)('catalogue, content and admin on %s', (engine) => {
  let s: TestServer;
  let admin: string;
  let ada: string;
  beforeAll(async () => {
    s = await startServer(engine);
    admin = await s.login(ADMIN.email, ADMIN.password);
    ada = await s.login(ADA.email, ADA.password);
  });
  afterAll(async () => {
    await s.close();
  });

  test('the demo catalogue has 40+ glasses over every filter value and colour', async () => {
    const page = (await s.call('POST', '/api/goods/get_goods_page', { page_size: 100 })).body.data;
    expect(page.total).toBeGreaterThanOrEqual(40);
    const filters = (await s.call('GET', '/api/config/get_filters')).body.data as { filter_id: number; type: string }[];
    expect(new Set(filters.map((f) => f.type))).toEqual(new Set(['Gender', 'Type', 'Shape', 'Material', 'Tag']));
    // A list shows cards; the filters of each frame are in its own answer.
    const whole = await Promise.all(
      page.list.map(
        async (g: any) => (await s.call('POST', '/api/goods/get_goods_by_id', { goods_id: g.goods_id })).body.data,
      ),
    );
    const used = new Set(whole.flatMap((g: any) => g.filters.map((f: any) => f.filter_id)));
    for (const filter of filters) expect(used.has(filter.filter_id)).toBe(true);
    const colors = (await s.call('GET', '/api/config/get_colors')).body.data as { color_id: number }[];
    const usedColors = new Set(page.list.flatMap((g: any) => g.color_arr.map((c: any) => c.color_id)));
    expect(usedColors.size).toBe(colors.length);
    const image = await s.fetchRaw(whole[0].color_arr[0].goods_color_img[0]);
    expect(image.http).toBe(200);
    expect(image.bytes.toString()).toContain('<svg');
  });

  test('prices: final_price = shop_price × discount / 100 and the shown discount is 100 − discount', async () => {
    const page = (await s.call('POST', '/api/goods/get_goods_page', { page_size: 100 })).body.data;
    const discounted = page.list.find((g: any) => g.discount < 100);
    expect(discounted.final_price).toBeCloseTo((discounted.shop_price * discounted.discount) / 100, 2);
    const whole = (await s.call('POST', '/api/goods/get_goods_by_id', { goods_id: discounted.goods_id })).body.data;
    expect(whole.final_price).toBe(discounted.final_price);
    expect(whole.shown_discount).toBe(100 - discounted.discount);
  });

  test('colour and filter filtering: OR within a type, AND across types; sort and paging', async () => {
    const filters = (await s.call('GET', '/api/config/get_filters')).body.data as any[];
    const round = filters.find((f) => f.filter_name === 'Round').filter_id;
    const square = filters.find((f) => f.filter_name === 'Square').filter_id;
    const acetate = filters.find((f) => f.filter_name === 'Acetate').filter_id;
    const either = (await s.call('POST', '/api/goods/get_goods_page', { filter_ids: [round, square], page_size: 100 }))
      .body.data;
    expect(either.total).toBeGreaterThan(0);
    const filtersOf = async (goodsId: number): Promise<number[]> =>
      (await s.call('POST', '/api/goods/get_goods_by_id', { goods_id: goodsId })).body.data.filters.map(
        (f: any) => f.filter_id,
      );
    for (const goods of either.list) {
      const ids = await filtersOf(goods.goods_id);
      expect(ids.includes(round) || ids.includes(square)).toBe(true);
    }
    const both = (await s.call('POST', '/api/goods/get_goods_page', { filter_ids: [round, acetate], page_size: 100 }))
      .body.data;
    for (const goods of both.list) {
      const ids = await filtersOf(goods.goods_id);
      expect(ids).toContain(round);
      expect(ids).toContain(acetate);
    }
    const colors = (await s.call('GET', '/api/config/get_colors')).body.data as any[];
    const gold = colors.find((c) => c.color_name === 'Gold').color_id;
    const golden = (await s.call('POST', '/api/goods/get_goods_page', { color_ids: [gold], page_size: 100 })).body.data;
    expect(golden.total).toBeGreaterThan(0);
    for (const goods of golden.list) expect(goods.color_arr.map((c: any) => c.color_id)).toContain(gold);
    const cheap = (await s.call('POST', '/api/goods/get_goods_page', { sort: 'price_asc', page_size: 5 })).body.data;
    const prices = cheap.list.map((g: any) => g.final_price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const second = (await s.call('POST', '/api/goods/get_goods_page', { sort: 'price_asc', page: 2, page_size: 5 }))
      .body.data;
    expect(second.list[0].final_price).toBeGreaterThanOrEqual(prices[4]);
    expect(second.list.map((g: any) => g.goods_id)).not.toContain(cheap.list[0].goods_id);
  });

  test('bad paging and sort input name the field', async () => {
    expect((await s.call('POST', '/api/goods/get_goods_page', { page_size: 1000 })).body).toMatchObject({
      status: 400,
      msg: expect.stringMatching(/^page_size: /),
    });
    expect((await s.call('POST', '/api/goods/get_goods_page', { sort: 'cheapest' })).body.msg).toBe(
      'sort: must be newest, price_asc, price_desc or discount',
    );
    expect((await s.call('POST', '/api/goods/get_goods_by_id', {})).body.msg).toMatch(/^goods_id: /);
    expect((await s.call('POST', '/api/goods/get_goods_by_id', { goods_id: 99999 })).body.status).toBe(404);
  });

  test('search_page finds by name, shape and colour words', async () => {
    const round = (await s.call('POST', '/api/goods/search_page', { keyword: 'round' })).body.data;
    expect(round.total).toBeGreaterThan(0);
    for (const goods of round.list) expect(JSON.stringify(goods).toLowerCase()).toContain('round');
    expect((await s.call('POST', '/api/goods/search_page', { keyword: 'zzzz%' })).body.data.total).toBe(0);
    expect((await s.call('POST', '/api/goods/search_page', {})).body.msg).toBe('keyword: is required');
  });

  test('lens options, config and home answer the seeded data', async () => {
    const types = (await s.call('POST', '/api/goods/get_lens_type', {})).body.data;
    expect(types.find((t: any) => t.name === 'Progressive')).toMatchObject({
      needs_add: true,
      needs_prescription: true,
    });
    expect(types[0].lenses.length).toBeGreaterThan(0);
    expect((await s.call('POST', '/api/goods/get_lens_thickness', {})).body.data.map((t: any) => t.index)).toEqual([
      1.5, 1.56, 1.61, 1.67, 1.74,
    ]);
    expect((await s.call('POST', '/api/goods/get_lens_color', {})).body.data.length).toBe(5);
    expect((await s.call('GET', '/api/goods/lens_coating')).body.data.length).toBe(4);
    expect((await s.call('GET', '/api/goods/prism_price')).body.data).toEqual({ price: 15 });
    const config = (await s.call('GET', '/api/config/shop_config')).body.data;
    expect(config.shop_logo).toMatch(/^\/uploads\//);
    expect((await s.call('GET', '/api/config/get_countries')).body.data.length).toBeGreaterThan(10);
    const coupons = (await s.call('GET', '/api/config/get_coupons')).body.data;
    expect(coupons.map((c: any) => c.code)).not.toContain('SUMMER2025');
    const recommended = (await s.call('POST', '/api/config/get_recommend_coupons', { subtotal: 130 })).body.data;
    expect(recommended[0]).toMatchObject({ code: 'SAVE15', saving: 19.5 });
    const shipping = (await s.call('POST', '/api/config/get_shipping_method', { subtotal: 120 })).body.data;
    expect(shipping.find((m: any) => m.name === 'Standard').price).toBe(0);
    expect((await s.call('GET', '/api/config/get_discount')).body.data[0]).toHaveProperty('shown_discount');
    expect((await s.call('GET', '/api/config/get_category_page?page=1&page_size=2')).body.data).toMatchObject({
      total: 5,
      page_size: 2,
    });
    const home = (await s.call('GET', '/api/index/shop_mainpage')).body.data;
    expect(home.sections.length).toBe(4);
    expect(home.banners.length).toBe(3);
    const detail = (await s.call('GET', `/api/index/shop_mainpage_detail?id=${home.sections[0].id}`)).body.data;
    expect(detail.goods.length).toBeGreaterThanOrEqual(home.sections[0].goods.length);
    expect((await s.call('GET', '/api/index/shop_mainpage_detail?id=abc')).body.status).toBe(400);
  });

  test('articles: list, read, write by admin with sanitizing, draft rules, shopper refused', async () => {
    const list = (await s.call('POST', '/api/article/get_article_list', { page_size: 20 })).body.data;
    expect(list.total).toBe(10);
    expect(list.list[0].imgsUrl.length).toBeGreaterThan(0);
    const one = (await s.call('GET', `/api/article/get_article?id=${list.list[0].article_id}`)).body.data;
    expect(one.content).toContain('<p>');
    expect((await s.call('GET', '/api/article/get_article_category')).body.data.length).toBe(3);
    const draft = {
      title: 'Hello',
      cover: '/uploads/a.png',
      imgsUrl: ['/uploads/b.png'],
      content: '<p onclick="x()">Hi<script>alert(1)</script></p>',
    };
    expect((await s.call('POST', '/api/article/insert_article', draft, ada)).body).toMatchObject({
      status: 403,
      msg: 'Admin only',
    });
    expect((await s.call('POST', '/api/article/insert_article', { ...draft, title: '' }, admin)).body.msg).toBe(
      'title: 请填写标题~',
    );
    expect((await s.call('POST', '/api/article/insert_article', { ...draft, imgsUrl: [] }, admin)).body.msg).toBe(
      'cover: 封面或轮播图不能为空~',
    );
    expect(
      (await s.call('POST', '/api/article/insert_article', { ...draft, content: '<p> </p>' }, admin)).body.status,
    ).toBe(400);
    const created = (await s.call('POST', '/api/article/insert_article', draft, admin)).body.data;
    expect(created.content).toBe('<p>Hi</p>');
    const updated = (
      await s.call(
        'POST',
        '/api/article/update_article',
        { ...draft, article_id: created.article_id, title: 'Hello again' },
        admin,
      )
    ).body.data;
    expect(updated.title).toBe('Hello again');
    expect(
      (await s.call('POST', '/api/article/delete_article', { article_id: created.article_id }, ada)).body.status,
    ).toBe(403);
    expect(
      (await s.call('POST', '/api/article/delete_article', { article_id: created.article_id }, admin)).body.status,
    ).toBe(200);
    expect((await s.call('GET', `/api/article/get_article?id=${created.article_id}`)).body.status).toBe(404);
  });

  test('admin saves, unlists and deletes glasses; a shopper is refused', async () => {
    const colors = (await s.call('GET', '/api/config/get_colors')).body.data as any[];
    const goods = {
      goods_name: 'Test Frame',
      goods_img: '/uploads/x.svg',
      shop_price: 80,
      discount: 75,
      filter_ids: [],
      color_arr: [{ color_id: colors[0].color_id, goods_color_img: ['/uploads/x.svg'], stock: 2 }],
    };
    expect((await s.call('POST', '/api/goods/save_goods', goods, ada)).body).toMatchObject({
      status: 403,
      msg: 'Admin only',
    });
    expect((await s.call('POST', '/api/goods/save_goods', goods)).body).toMatchObject({
      status: 403,
      msg: 'Invalid token',
    });
    expect((await s.call('POST', '/api/goods/save_goods', { ...goods, discount: 120 }, admin)).body.msg).toBe(
      'discount: must be from 1 to 100',
    );
    const created = (await s.call('POST', '/api/goods/save_goods', goods, admin)).body.data;
    expect(created).toMatchObject({ final_price: 60, shown_discount: 25, is_on_sale: true });
    const edited = (
      await s.call('POST', '/api/goods/save_goods', { ...goods, goods_id: created.goods_id, shop_price: 100 }, admin)
    ).body.data;
    expect(edited.final_price).toBe(75);
    expect((await s.call('POST', '/api/goods/search_page', { keyword: 'test frame' })).body.data.total).toBe(1);
    expect((await s.call('POST', '/api/goods/unlist_goods', { goods_id: created.goods_id }, ada)).body.status).toBe(
      403,
    );
    expect(
      (await s.call('POST', '/api/goods/unlist_goods', { goods_id: created.goods_id }, admin)).body.data.is_on_sale,
    ).toBe(false);
    expect((await s.call('POST', '/api/goods/get_goods_by_id', { goods_id: created.goods_id })).body.status).toBe(404);
    expect(
      (await s.call('POST', '/api/goods/get_goods_by_id', { goods_id: created.goods_id }, admin)).body.status,
    ).toBe(200);
    expect((await s.call('POST', '/api/goods/get_goods_page', { include_unlisted: true }, ada)).body.status).toBe(403);
    expect((await s.call('POST', '/api/goods/delete_goods', { goods_id: created.goods_id }, ada)).body.status).toBe(
      403,
    );
    expect((await s.call('POST', '/api/goods/delete_goods', { goods_id: created.goods_id }, admin)).body.status).toBe(
      200,
    );
    expect((await s.call('POST', '/api/goods/delete_goods', { goods_id: created.goods_id }, admin)).body.status).toBe(
      404,
    );
  });

  test('uploads: prescription photos by any user, goods media by admins only, checked by extension and content', async () => {
    const photo = await s.call(
      'POST',
      '/api/goods/save_goods_media_files',
      upload('MYPRESCRIPTION', 'rx.png', PNG),
      ada,
    );
    expect(photo.body.status).toBe(200);
    // Private: under the uploader's own folder, answered as a signed, expiring URL (issue 16).
    expect(photo.body.data.url).toMatch(/^\/uploads\/prescriptions\/\d+\/[\w-]+\.png\?expires=\d+&signature=[\w-]+$/);
    expect(photo.body.data.url).not.toContain('rx');
    expect((await s.fetchRaw(photo.body.data.url)).bytes).toEqual(PNG);
    expect(
      (await s.call('POST', '/api/goods/save_goods_media_files', upload('GOODS', 'a.png', PNG), ada)).body,
    ).toMatchObject({ status: 403 });
    expect(
      (await s.call('POST', '/api/goods/save_goods_media_files', upload('GOODS', 'a.png', PNG), admin)).body.data.url,
    ).toMatch(/^\/uploads\/goods\//);
    expect(
      (await s.call('POST', '/api/goods/save_goods_media_files', upload('GOODS', 'a.exe', PNG), admin)).body.msg,
    ).toMatch(/^file: the extension must be one of jpg, jpeg, png/);
    expect(
      (await s.call('POST', '/api/goods/save_goods_media_files', upload('GOODS', 'a.jpg', PNG), admin)).body.msg,
    ).toBe('file: the content is not a .jpg file');
    // An SVG is drawn into a PNG (issue 16): whatever script it carried is gone, and no SVG is ever stored.
    const script = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><script>alert(1)</script></svg>',
    );
    const drawn = await s.call('POST', '/api/goods/save_goods_media_files', upload('GOODS', 'a.svg', script), admin);
    expect(drawn.body.data.url).toMatch(/^\/uploads\/goods\/[\w-]+\.png$/);
    expect((await s.fetchRaw(drawn.body.data.url)).type).toBe('image/png');
    expect(
      (await s.call('POST', '/api/goods/save_goods_media_files', upload('MYPRESCRIPTION', 'rx.png', PNG))).body.status,
    ).toBe(403);
    const noTarget = new FormData();
    noTarget.append('file', new Blob([new Uint8Array(PNG)]), 'rx.png');
    expect((await s.call('POST', '/api/goods/save_goods_media_files', noTarget, ada)).body.msg).toBe(
      'save_to: is required',
    );
  });

  test('try-on images are stored and answered with data.url', async () => {
    const stored = await s.call(
      'POST',
      '/api/upload/try_on_images',
      { file_name: 'me.png', image_base64: `data:image/png;base64,${PNG.toString('base64')}` },
      ada,
    );
    expect(stored.body.data.url).toMatch(/^\/uploads\/tryon\/.+\.png$/);
    expect(
      (await s.call('POST', '/api/upload/try_on_images', { file_name: 'me.png', image_base64: 'aGVsbG8=' }, ada)).body
        .msg,
    ).toBe('file_name: the content is not a .png file');
    expect((await s.call('POST', '/api/upload/try_on_images', { file_name: 'me.png' }, ada)).body.msg).toBe(
      'image_base64: is required',
    );
  });

  test('face_detect finds the face and eyes in a photo and none in a blank image', async () => {
    const photo = readFileSync(require.resolve('@vladmandic/face-api/demo/sample2.jpg'));
    const found = await s.call(
      'POST',
      '/api/tryon/face_detect',
      { image_base64: `data:image/jpeg;base64,${photo.toString('base64')}` },
      ada,
    );
    expect(found.body.status).toBe(200);
    const [face] = found.body.data.faces;
    expect(face.score).toBeGreaterThan(0.5);
    for (const eye of [face.left_eye, face.right_eye]) {
      expect(eye.x).toBeGreaterThan(face.box.x);
      expect(eye.x).toBeLessThan(face.box.x + face.box.width);
      expect(eye.y).toBeGreaterThan(face.box.y);
      expect(eye.y).toBeLessThan(face.box.y + face.box.height / 2 + face.box.height / 4);
    }
    expect(face.left_eye.x).toBeLessThan(face.right_eye.x);
    const grey = jpeg.encode({ data: Buffer.alloc(320 * 240 * 4, 128), width: 320, height: 240 }, 80).data;
    expect(
      (await s.call('POST', '/api/tryon/face_detect', { image_base64: grey.toString('base64') }, ada)).body.data,
    ).toEqual({ faces: [] });
    const text = Buffer.from('hello').toString('base64');
    expect((await s.call('POST', '/api/tryon/face_detect', { image_base64: text }, ada)).body.msg).toBe(
      'image_base64: must be a JPEG or PNG image',
    );
    expect((await s.call('POST', '/api/tryon/face_detect', { image_base64: text })).body.status).toBe(403);
  });
});

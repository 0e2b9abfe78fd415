import { ADA, BEN, type TestServer, engines, startServer } from './helpers';

describe.each(engines)('reviews (%s)', (engine) => {
  let server: TestServer;
  let ada: string;
  let ben: string;

  beforeAll(async () => {
    server = await startServer(engine);
    ada = await server.login(ADA.email, ADA.password);
    ben = await server.login(BEN.email, BEN.password);
  });

  afterAll(async () => {
    await server?.close();
  });

  it('needs a signed-in shopper to write one', async () => {
    const { body } = await server.call('POST', '/api/review/save_review', { goods_id: 1, rating: 5, content: 'Great' });
    expect(body).toMatchObject({ status: 403, msg: 'Invalid token' });
  });

  it('checks the stars, the text and the frame, naming the field', async () => {
    const bad = async (payload: object) => (await server.call('POST', '/api/review/save_review', payload, ada)).body;
    expect(await bad({ goods_id: 1, rating: 6, content: 'x' })).toMatchObject({
      status: 400,
      msg: 'rating: must be from 1 to 5',
    });
    expect(await bad({ goods_id: 1, rating: 4.5, content: 'x' })).toMatchObject({
      status: 400,
      msg: 'rating: must be a whole number of stars',
    });
    expect(await bad({ goods_id: 1, rating: 4, content: '   ' })).toMatchObject({
      status: 400,
      msg: 'content: is required',
    });
    expect(await bad({ goods_id: 1, rating: 4, content: 'x'.repeat(501) })).toMatchObject({
      status: 400,
      msg: 'content: must have at most 500 characters',
    });
    expect(await bad({ goods_id: 99999, rating: 4, content: 'Fine' })).toMatchObject({
      status: 404,
      msg: 'goods_id: no such glasses',
    });
  });

  it('lists reviews newest first with the frame, the author and the average; one review per shopper and frame', async () => {
    const first = await server.call(
      'POST',
      '/api/review/save_review',
      { goods_id: 1, rating: 4, content: '  Light and comfy  ' },
      ada,
    );
    expect(first.body.data).toMatchObject({
      goods_id: 1,
      rating: 4,
      content: 'Light and comfy',
      author: { nickname: 'Ada' },
      mine: true,
    });
    await server.call('POST', '/api/review/save_review', { goods_id: 2, rating: 2, content: 'Pinches a little' }, ben);
    await server.call(
      'POST',
      '/api/review/save_review',
      { goods_id: 1, rating: 5, content: 'Still great after a month' },
      ada,
    );

    const all = await server.call('POST', '/api/review/get_reviews', {});
    expect(all.body.data.total).toBe(2);
    expect(all.body.data.list.map((review: { content: string }) => review.content)).toEqual([
      'Still great after a month',
      'Pinches a little',
    ]);
    expect(all.body.data.list[0]).toMatchObject({ goods_id: 1, rating: 5, author: { nickname: 'Ada' }, mine: false });
    expect(all.body.data.list[0].goods_name).toEqual(expect.any(String));
    expect(all.body.data.average).toBe(3.5);

    const forFrame = await server.call('POST', '/api/review/get_reviews', { goods_id: 1 }, ada);
    expect(forFrame.body.data).toMatchObject({ total: 1, average: 5, list: [{ rating: 5, mine: true }] });

    const none = await server.call('POST', '/api/review/get_reviews', { goods_id: 3 });
    expect(none.body.data).toMatchObject({ total: 0, average: null, list: [] });
  });

  it('puts an edited review first even when it lands in the same millisecond as the one before it', async () => {
    const save = (token: string, goods: number, content: string) =>
      server.call('POST', '/api/review/save_review', { goods_id: goods, rating: 3, content }, token);
    // Ada's review is the older row: when two times are equal, the list puts the newer row first.
    await save(ada, 3, 'first');
    await save(ben, 4, 'first');
    const top = async () =>
      (await server.call('POST', '/api/review/get_reviews', { page_size: 1 })).body.data.list[0].content;
    // Ben edits his, then Ada hers straight after: most pairs land within one millisecond.
    for (let round = 0; round < 40; round += 1) {
      await save(ben, 4, `ben ${round}`);
      await save(ada, 3, `ada ${round}`);
      expect(await top()).toBe(`ada ${round}`);
    }
  });
});

import type { GoodsCard, LoginResult, Page } from '../../types/api';
import type { Phone } from './runner/phone';
import { ADMIN, type RunningShop, api, openPhone, signIn, startShop } from './support';

jest.setTimeout(120_000);

/**
 * The admin's list of glasses on the built mini-program: the demo's 48 frames come 20 at a time as the list
 * scrolls, and the search box asks the server.
 */
describe('the mini-program: the admin list of glasses pages and searches', () => {
  let shop: RunningShop;
  let phone: Phone;
  let all: Page<GoodsCard>;

  beforeAll(async () => {
    shop = await startShop();
    const { token } = await api<LoginResult>(shop, '/api/auth/login', ADMIN);
    all = await api<Page<GoodsCard>>(shop, '/api/admin/goods/list', { page: 1, page_size: 100 }, token);
  });

  afterAll(async () => {
    phone?.close();
    await shop?.stop();
  });

  it('shows the first 20 frames, and the next 20 after a scroll to the bottom', async () => {
    expect(all.total).toBeGreaterThan(40);
    expect(all.list).toHaveLength(all.total);
    phone = await openPhone(shop, { path: 'pages/admin/edit-list' });
    await signIn(phone, ADMIN);
    await phone.waitForPage('pages/admin/edit-list');
    await phone.see(`Glasses (${all.total})`);
    await phone.see(all.list[19].goods_name);
    expect(phone.shows(all.list[20].goods_name)).toBe(false);
    await phone.scrollToBottom();
    await phone.see(all.list[39].goods_name);
    expect(phone.shows(all.list[40].goods_name)).toBe(false);
  });

  it('finds frames by name on the server', async () => {
    const name = all.list[30].goods_name;
    const matching = all.list.filter((goods) => goods.goods_name.toLowerCase().includes(name.toLowerCase()));
    await phone.type('q', name.toLowerCase());
    await phone.tap('Search');
    await phone.see(`Glasses (${matching.length})`);
    await phone.see(name);
    if (!matching.includes(all.list[0])) expect(phone.shows(all.list[0].goods_name)).toBe(false);
  });
});

import type { Goods, Page as ListPage, LoginResult } from '../../types/api';
import type { Phone } from './runner/phone';
import { ADMIN, OTHER_SHOPPER, type RunningShop, SHOPPER, api, openPhone, signIn, startShop } from './support';

jest.setTimeout(120_000);

/**
 * Chat in the mini-program: the messaging SDK on wx.connectSocket, against the real messaging server. A phone is
 * opened on the page a WeChat link would open (a profile, the conversation list), then driven by taps.
 */
describe('the mini-program chats through the messaging SDK on wx.connectSocket', () => {
  let shop: RunningShop;
  const phones: Phone[] = [];
  let adaId: number;
  let benId: number;

  beforeAll(async () => {
    shop = await startShop({ AUTH_RATE_LIMIT_MAX: '50' });
    adaId = (await api<LoginResult>(shop, '/api/auth/login', SHOPPER)).user_id;
    benId = (await api<LoginResult>(shop, '/api/auth/login', OTHER_SHOPPER)).user_id;
  });

  afterAll(async () => {
    for (const phone of phones) phone.close();
    await shop?.stop();
  });

  async function phoneOn(path: string, query: Record<string, string> = {}): Promise<Phone> {
    const phone = await openPhone(shop, { path, query });
    phones.push(phone);
    return phone;
  }

  async function say(phone: Phone, text: string, field = 'Message'): Promise<void> {
    await phone.type(field, text);
    await phone.tap('Send');
    await phone.see(text);
  }

  it('two users chat privately: a message, its read receipt and a reply, live', async () => {
    const ada = await phoneOn('pages/user/user', { id: String(benId) });
    await ada.tap('Send a message');
    await signIn(ada, SHOPPER);
    await ada.waitForPage('pages/message/privateChat/privateChat', { to: String(benId) });
    await ada.see('Ben is offline');
    await say(ada, 'Hi Ben, are the aviators in stock?');
    await ada.see('Unread');

    const ben = await phoneOn('pages/message/message');
    await signIn(ben, OTHER_SHOPPER);
    await ben.waitForPage('pages/message/message');
    await ada.see('Ben is online');
    await ben.see('Hi Ben, are the aviators in stock?');
    await ben.tap('Hi Ben, are the aviators in stock?');
    await ben.waitForPage('pages/message/privateChat/privateChat', { to: String(adaId) });
    await ada.see('Read');

    await say(ben, 'Yes, in gold and silver.');
    await ada.see('Yes, in gold and silver.');
    expect(ada.program.errors).toEqual([]);
  });

  it('a support chat opened from a product carries its card; an agent accepts and answers', async () => {
    const agent = await phoneOn('pages/chat/chat2');
    await signIn(agent, ADMIN);
    await agent.waitForPage('pages/chat/chat2');
    await agent.tap('Go online');
    await agent.see('You are online');
    await agent.see('Nobody is waiting.');

    const shopper = await phoneOn('pages/index/index');
    const goods = (await api<ListPage<Goods>>(shop, '/api/goods/get_goods_page', { page: 1, page_size: 1 })).list[0];
    await shopper.tap('All frames');
    await shopper.tap(goods.goods_name);
    await shopper.waitForPage('pages/product/product', { id: String(goods.goods_id) });
    await shopper.tap('Chat with us ›');
    await signIn(shopper, SHOPPER);
    await shopper.see('Sent with your first message');
    await shopper.see('Send us a message: an agent will answer shortly.');
    await say(shopper, 'Is this frame available in a narrower size?');
    await shopper.see('Waiting for an agent…');
    await shopper.see(goods.goods_name);
    expect(shopper.shows('Sent with your first message')).toBe(false);

    await agent.see('Waiting (1)');
    await agent.tap('Ada');
    await agent.see('Waiting for an agent to accept');
    await agent.see(goods.goods_name);
    await agent.tap('Accept');
    await agent.see('You are serving this customer');
    await say(agent, 'Hello Ada, it comes in 50 and 52 mm.', 'Reply to the customer');

    await shopper.see('Lensmate Admin is serving you');
    await shopper.see('Hello Ada, it comes in 50 and 52 mm.');
  });
});

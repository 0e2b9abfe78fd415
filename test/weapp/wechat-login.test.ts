import { WeChatFake, newWeChatKeys } from '../../server/sandbox/wechat';
import type { Goods, Page as ListPage } from '../../types/api';
import type { Phone } from './runner/phone';
import { WeChatServers } from './runner/wechat-servers';
import { type RunningShop, SHOPPER, api, openPhone, startShop } from './support';

jest.setTimeout(180_000);

/**
 * Sign in with WeChat on the built mini-program: the runner's wx.login takes its code from the local fake of
 * WeChat's server API, and the shop (a real server process) exchanges it there through code2Session.
 */
describe('the mini-program: Sign in with WeChat through the login guard', () => {
  const keys = newWeChatKeys();
  const fake = new WeChatFake(keys);
  const wechat = new WeChatServers(fake);
  const phones: Phone[] = [];
  let shop: RunningShop;
  let frame: Goods;

  beforeAll(async () => {
    await fake.start();
    shop = await startShop({ WEAPP_APPID: keys.appid, WEAPP_SECRET: keys.secret, WEAPP_API_BASE: fake.origin });
    const listed = await api<ListPage<Goods>>(shop, '/api/goods/get_goods_page', { page: 1, page_size: 10 });
    frame = listed.list[0];
  });

  afterAll(async () => {
    for (const phone of phones) phone.close();
    await shop?.stop();
    await fake.close();
  });

  /** A phone of this WeChat user, on a frame, sent to login by add-to-cart. */
  async function toLoginFromAFrame(openid: string): Promise<Phone> {
    const phone = await openPhone(shop, { wechat, user: { appid: keys.appid, openid } });
    phones.push(phone);
    await phone.see('Shop by colour');
    await phone.tap('All frames');
    await phone.waitForPage('pages/product/product-list-main');
    await phone.tap(frame.goods_name);
    await phone.waitForPage('pages/product/product', { id: String(frame.goods_id) });
    await phone.tap('Add to cart');
    await phone.waitForPage('pages/login/login');
    return phone;
  }

  const backOnTheFrame = async (phone: Phone) => {
    await phone.waitForPage('pages/product/product', { id: String(frame.goods_id) });
    await phone.see('Frame size');
  };

  /** The signed-in user the app keeps in the phone's storage. */
  const signedInAs = (phone: Phone) => {
    const stored = phone.program.storage.get('user');
    if (!stored) return undefined;
    const { data } = JSON.parse(stored) as { data: unknown };
    const user = (typeof data === 'string' ? JSON.parse(data) : data) as { email?: string } | null;
    return user?.email;
  };

  test('a new WeChat links the account whose password is given (a wrong one is refused) and returns to the frame', async () => {
    const openid = WeChatFake.newOpenid();
    const phone = await toLoginFromAFrame(openid);
    await phone.tap('Sign in with WeChat');
    await phone.see('This WeChat is not linked to a Lensmate account yet.', { whole: false });
    await phone.type("Your account's e-mail", SHOPPER.email);
    await phone.type("Your account's password", 'not-the-password1');
    await phone.tap('Link WeChat and sign in');
    await phone.see('Wrong e-mail or password');
    await phone.type("Your account's password", SHOPPER.password);
    await phone.tap('Link WeChat and sign in');
    await backOnTheFrame(phone);
    expect(fake.exchanges.filter((exchange) => exchange.errcode === 0)).toHaveLength(3);

    // The same WeChat on another phone: one tap signs in to the linked account.
    const again = await toLoginFromAFrame(openid);
    await again.tap('Sign in with WeChat');
    await backOnTheFrame(again);
    expect(signedInAs(again)).toBe(SHOPPER.email);
  });

  test('a new WeChat can create its own account instead', async () => {
    const phone = await toLoginFromAFrame(WeChatFake.newOpenid());
    await phone.tap('Sign in with WeChat');
    await phone.tap('Create a new account with WeChat');
    await backOnTheFrame(phone);
    expect(signedInAs(phone)).toMatch(/@wechat\.invalid$/);
  });
});

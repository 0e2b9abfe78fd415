import type { SocialGroup } from '../../types/api';
import type { Phone } from './runner/phone';
import {
  OTHER_SHOPPER,
  type RunningShop,
  SHOPPER,
  type WeChatWorld,
  api,
  openPhone,
  signIn,
  startShop,
  startWeChatWorld,
} from './support';

jest.setTimeout(180_000);

const TEMPLATE = 'TPL_CHAT_MESSAGE';

/**
 * A group message reaches a member who is offline as a WeChat template message (GoEasy's wxmpTemplateMsg): the
 * member signed in with WeChat, so the SDK connected with wxmpId; the fake of WeChat's API receives the template
 * for that openid with the page path into the group's chat. A member online sees the message and gets none.
 */
describe('the mini-program: chat notifications through WeChat for members who are offline', () => {
  const phones: Phone[] = [];
  let wechat: WeChatWorld;
  let shop: RunningShop;

  beforeAll(async () => {
    wechat = await startWeChatWorld();
    shop = await startShop({ ...wechat.env, MESSAGING_WXMP_TEMPLATE_IDS: TEMPLATE });
    wechat.connect(shop);
  });

  afterAll(async () => {
    for (const phone of phones) phone.close();
    await shop?.stop();
    await wechat?.close();
  });

  test('a group message: none to the member online, a template with the page path to the member offline', async () => {
    const adaToken = (await api<{ token: string }>(shop, '/api/auth/login', SHOPPER)).token;
    const [group] = await api<SocialGroup[]>(shop, '/api/social/groups', {}, adaToken);
    const to = { to: String(group.group_id) };

    // Ben, in WeChat, follows a link into the group's chat and signs in with WeChat (linking his account).
    const benUser = wechat.newUser();
    const ben = await openPhone(shop, {
      path: 'pages/groupChat/groupChat',
      query: to,
      wechat: wechat.servers,
      user: benUser,
    });
    phones.push(ben);
    await ben.waitForPage('pages/login/login');
    await ben.tap('Sign in with WeChat');
    await ben.type("Your account's e-mail", OTHER_SHOPPER.email);
    await ben.type("Your account's password", OTHER_SHOPPER.password);
    await ben.tap('Link WeChat and sign in');
    await ben.waitForPage('pages/groupChat/groupChat', to);

    const ada = await openPhone(shop, {
      path: 'pages/groupChat/groupChat',
      query: to,
      wechat: wechat.servers,
      user: wechat.newUser(),
    });
    phones.push(ada);
    await signIn(ada, SHOPPER);
    await ada.waitForPage('pages/groupChat/groupChat', to);
    await ada.see(`2 of ${group.member_count} members online`);
    await ada.type('Message', 'Who is coming to the fitting?');
    await ada.tap('Send');
    await ben.see('Who is coming to the fitting?');

    ben.close();
    await ada.see(`1 of ${group.member_count} members online`);
    await ada.type('Message', 'Ben, the fitting is at five.');
    await ada.tap('Send');
    await ada.see('Ben, the fitting is at five.');
    await ada.until('the template message at WeChat', () => wechat.fake.templateMessages.length > 0);
    expect(wechat.fake.templateMessages).toEqual([
      {
        touser: benUser.openid,
        template_id: TEMPLATE,
        miniprogram: { appid: benUser.appid, pagepath: `/pages/groupChat/groupChat?to=${group.group_id}` },
        data: { thing1: { value: group.name.slice(0, 20) }, thing2: { value: expect.stringMatching(/^Ada/) } },
      },
    ]);
  });
});

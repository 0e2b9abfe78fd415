import { type JourneyContext, SHOP_JOURNEY, journeyContext } from './journeys';
import { type RunningShop, type WeChatWorld, startShop, startWeChatWorld } from './support';

jest.setTimeout(120_000);

/** The shop journey on the built mini-program against the real server, one step per test, on one phone. */
describe('the mini-program: a shopper browses, is sent to login, builds glasses, orders and pays', () => {
  let shop: RunningShop;
  let context: JourneyContext;
  let wechat: WeChatWorld;

  beforeAll(async () => {
    wechat = await startWeChatWorld();
    shop = await startShop(wechat.env);
    wechat.connect(shop);
    context = journeyContext(shop, wechat);
  });

  afterAll(async () => {
    for (const phone of context?.phones ?? []) phone.close();
    await shop?.stop();
    await wechat?.close();
  });

  for (const step of SHOP_JOURNEY) {
    it(step.name, () => step.run(context));
  }
});

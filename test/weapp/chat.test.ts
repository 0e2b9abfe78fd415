import { CHAT_JOURNEY, type JourneyContext, journeyContext } from './journeys';
import { type RunningShop, startShop } from './support';

jest.setTimeout(120_000);

/**
 * Chat in the mini-program: the messaging SDK on wx.connectSocket against the real messaging server, between
 * phones opened where a WeChat link would land (a profile, the conversation list, the agents' desk) or on home.
 */
describe('the mini-program chats through the messaging SDK on wx.connectSocket', () => {
  let shop: RunningShop;
  let context: JourneyContext;

  beforeAll(async () => {
    shop = await startShop({ AUTH_RATE_LIMIT_MAX: '50' });
    context = journeyContext(shop);
  });

  afterAll(async () => {
    for (const phone of context?.phones ?? []) phone.close();
    await shop?.stop();
  });

  for (const step of CHAT_JOURNEY) {
    it(step.name, () => step.run(context));
  }
});

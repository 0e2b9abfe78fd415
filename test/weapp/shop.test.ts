import { type JourneyContext, SHOP_JOURNEY, journeyContext } from './journeys';
import { type RunningShop, startShop } from './support';

jest.setTimeout(120_000);

/** The shop journey on the built mini-program against the real server, one step per test, on one phone. */
describe('the mini-program: a shopper browses, is sent to login, builds glasses, orders and pays', () => {
  let shop: RunningShop;
  let context: JourneyContext;

  beforeAll(async () => {
    shop = await startShop();
    context = journeyContext(shop);
  });

  afterAll(async () => {
    for (const phone of context?.phones ?? []) phone.close();
    await shop?.stop();
  });

  for (const step of SHOP_JOURNEY) {
    it(step.name, () => step.run(context));
  }
});

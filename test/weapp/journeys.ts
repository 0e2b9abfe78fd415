import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Goods, Page as ListPage, LoginResult } from '../../types/api';
import { PAGE_STACK_LIMIT } from './runner/mini-program';
import type { Phone } from './runner/phone';
import {
  ADMIN,
  OTHER_SHOPPER,
  type RunningShop,
  SHOPPER,
  type WeChatWorld,
  api,
  fixture,
  openPhone,
  signIn,
} from './support';

/**
 * The journeys on the built mini-program, as steps a test runs one `it` each and the bench (bench/weapp) replays
 * for its figures. Each step drives phones by what they show and throws when the user would not see what is
 * expected. A phone is opened by URL only on its first page (home, or where a WeChat link would land).
 */
export interface JourneyContext {
  shop: RunningShop;
  phones: Phone[];
  /** Opens a new phone on `path` (default home). */
  open(path?: string, query?: Record<string, string>): Promise<Phone>;
  /** What a step hands the next one (the phone, the frame chosen, ...). */
  state: Record<string, unknown>;
}

export interface JourneyStep {
  name: string;
  run(context: JourneyContext): Promise<void>;
}

/** `wechat`: WeChat's servers (login, WeChat Pay) as the shop was started with them; each phone is a new WeChat user. */
export function journeyContext(shop: RunningShop, wechat?: WeChatWorld): JourneyContext {
  const phones: Phone[] = [];
  return {
    shop,
    phones,
    state: {},
    async open(path, query) {
      const owner = wechat ? { wechat: wechat.servers, user: wechat.newUser() } : {};
      const phone = await openPhone(shop, { path, query, ...owner });
      phones.push(phone);
      return phone;
    },
  };
}

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`expected ${what}`);
}

const shopper = (context: JourneyContext) => context.state.shopper as Phone;

async function say(phone: Phone, text: string, field = 'Message'): Promise<void> {
  await phone.type(field, text);
  await phone.tap('Send');
  await phone.see(text);
}

export const SHOP_JOURNEY: JourneyStep[] = [
  {
    name: 'launches on home with the catalogue',
    async run(context) {
      const phone = await context.open();
      context.state.shopper = phone;
      check(phone.route === 'pages/index/index', 'home as the first page');
      // As WeChat with lazy code loading: app.js and its chunks, then only the first page's code.
      const pagesLoaded = phone.program.loadedFiles.filter((file) => file.startsWith('pages/'));
      check(pagesLoaded.join() === 'pages/index/index.js', `only home's code at launch, not ${pagesLoaded.join()}`);
      await phone.see('Shop by colour');
      const goods = await api<ListPage<Goods>>(context.shop, '/api/goods/get_goods_page', { page: 1, page_size: 5 });
      await phone.see('New Arrivals');
      await phone.see(goods.list[0].goods_name);
      // Below the sections: drawn with the rest of home in its first setData (ui/staged-reveal.weapp.ts).
      await phone.see('Latest articles');
      await phone.see('The community');
    },
  },
  {
    name: 'opens the list, loads more on scrolling, and a frame; add-to-cart sends the visitor to login and back',
    async run(context) {
      const phone = shopper(context);
      await phone.tap('All frames');
      await phone.waitForPage('pages/product/product-list-main');
      await phone.see(/^\d+ frames$/);
      const tiles = () => phone.findAll(/^\$\d+\.\d\d$/).length;
      const before = tiles();
      await phone.scrollToBottom();
      await phone.until('more frames', () => tiles() > before);

      const shown = await api<ListPage<Goods>>(context.shop, '/api/goods/get_goods_page', { page: 1, page_size: 10 });
      const frame = shown.list.find((goods) =>
        goods.color_arr.some((color) => color.stock === null || color.stock > 2),
      );
      if (!frame) throw new Error('the demo data has no frame in stock among the first ten');
      await phone.tap(frame.goods_name);
      await phone.waitForPage('pages/product/product', { id: String(frame.goods_id) });
      await phone.see('Frame size');
      await phone.see(/^Colour: /);

      await phone.tap('Add to cart');
      await signIn(phone, SHOPPER);
      await phone.waitForPage('pages/product/product', { id: String(frame.goods_id) });
      await phone.see('Frame size');
    },
  },
  {
    name: 'chooses single vision, enters a prescription with its photo (the server checks it), then lenses into the cart',
    async run(context) {
      const phone = shopper(context);
      await phone.tap('Add to cart');
      await phone.waitForPage('pages/product/lens-type/lens-type');
      await phone.see('Progressive');
      await phone.tap('Single Vision');
      await phone.waitForPage('pages/product/prescription/prescription');
      await phone.see('Right eye (OD)');
      await phone.type(['Right eye (OD)', 'SPH'], '-25');
      await phone.type(['Left eye (OS)', 'SPH'], '-2.00');
      await phone.type('PD (mm)', '63');
      await phone.tap('Save and continue');
      await phone.see('SPH must be from -20 to +20', { whole: false });

      await phone.type(['Right eye (OD)', 'SPH'], '-3.75');
      await phone.type(['Right eye (OD)', 'CYL'], '-0.50');
      await phone.type(['Right eye (OD)', 'AXIS'], '90');
      phone.pickMedia(fixture('prescription.png'));
      await phone.tap('Upload a photo');
      await phone.see('Replace photo');
      await phone.tap('Save and continue');
      await phone.waitForPage('pages/product/lens/lens');
      await phone.see(/^Your strongest power is -4\.25: we recommend index 1\.61 or higher\./);

      await phone.tap('Premium Digital');
      await phone.see('Lens: Premium Digital');
      await phone.tap('Add to cart');
      await phone.waitForPage('pages/order/cart/cart');
      await phone.see('Lenses: Single Vision · Premium Digital, Thin 1.61, Clear lenses');
      await phone.see('Prescription: My prescription');
      await phone.see('1 item · subtotal', { whole: false });
      await phone.tap('+');
      await phone.see('2 items · subtotal', { whole: false });
    },
  },
  {
    name: 'adds an address, chooses a shipping method and a coupon, and places the order',
    async run(context) {
      const phone = shopper(context);
      await phone.tap('Checkout');
      await phone.waitForPage('pages/order/place-order/place-order');
      await phone.tap('Add a delivery address');
      await phone.waitForPage('pages/order/address/address-list');
      await phone.tap('Add a new address');
      await phone.tap('Save address');
      await phone.see('Enter the first name', { whole: false });
      await phone.type('First name', 'Ada');
      await phone.type('Last name', 'Lovelace');
      await phone.type('Phone', '+1 415 555 0100');
      await phone.type('Street and number', '1 Market Street');
      await phone.type('City', 'San Francisco');
      await phone.type('Postal code', '94105');
      await phone.tap('Save address');
      await phone.see('Tap an address to deliver there.');
      await phone.tap('Ada Lovelace');
      await phone.waitForPage('pages/order/place-order/place-order');
      await phone.see('Ada Lovelace · +1 415 555 0100', { whole: false });
      await phone.tap(/^Standard · /);
      await phone.waitForPage('pages/order/shipment/shipment');
      await phone.tap('Express');
      await phone.waitForPage('pages/order/place-order/place-order');
      await phone.see(/Express · 3–5 days/, { whole: false });
      await phone.tap('SAVE15');
      await phone.see('Applied');
      await phone.see('Coupon SAVE15');

      await phone.tap('Place order');
      await phone.waitForPage('pages/order/payment/payment');
      await phone.see('Amount to pay');
    },
  },
  {
    // Issue 17: a mini-program cannot host Stripe's card fields, PayPal's buttons or Braintree's drop-in; it pays
    // with WeChat Pay, and the page says which methods each platform offers.
    name: 'the payment page offers WeChat Pay only and says which methods each platform offers',
    async run(context) {
      const phone = shopper(context);
      await phone.see('Ways to pay');
      await phone.see('On the mobile site: Card (Stripe), PayPal, Card through Braintree (Braintree)');
      await phone.see('In the WeChat mini-program: WeChat Pay');
      await phone.see('Pay with WeChat Pay');
      check(!phone.shows('Pay by card', { whole: false }), 'no card payment in the mini-program');
      check(!phone.shows('Loading PayPal…'), 'no PayPal buttons in the mini-program');
      check(!phone.shows('Loading Braintree…'), 'no Braintree drop-in in the mini-program');
      check(phone.program.pages.length <= PAGE_STACK_LIMIT, `at most ${PAGE_STACK_LIMIT} pages open`);
    },
  },
  {
    name: 'pays with WeChat Pay (wx.login names the payer, the server signs the sheet) and lands on the paid order',
    async run(context) {
      const phone = shopper(context);
      // The user closes WeChat's payment sheet first: nothing is paid, the page says so and can pay again.
      const pay = phone.program.wechat.payWith;
      phone.program.wechat.payWith = async () => 'cancel';
      await phone.tap('Pay with WeChat Pay');
      await phone.see('Payment cancelled: you can pay again when you are ready.');
      phone.program.wechat.payWith = pay;
      await phone.tap('Pay with WeChat Pay');
      await phone.waitForPage('pages/order/order-detail/order-detail');
      await phone.see(/^Paid on /);
      check(phone.program.wechat.payments.length === 2, 'two payment sheets opened');
    },
  },
];

export const CHAT_JOURNEY: JourneyStep[] = [
  {
    name: 'two users chat privately: a message, its read receipt and a reply, live',
    async run(context) {
      const adaId = (await api<LoginResult>(context.shop, '/api/auth/login', SHOPPER)).user_id;
      const benId = (await api<LoginResult>(context.shop, '/api/auth/login', OTHER_SHOPPER)).user_id;
      const ada = await context.open('pages/user/user', { id: String(benId) });
      await ada.tap('Send a message');
      await signIn(ada, SHOPPER);
      await ada.waitForPage('pages/message/privateChat/privateChat', { to: String(benId) });
      const subpackage = ada.program.loadedFiles.filter((file) => file.startsWith('pages/message/'));
      check(
        subpackage.includes('pages/message/privateChat/privateChat.js') && subpackage.length > 1,
        `the message subpackage's page and its shared chunks loaded on navigation, not only ${subpackage.join()}`,
      );
      await ada.see('Ben is offline');
      await say(ada, 'Hi Ben, are the aviators in stock?');
      await ada.see('Unread');

      const ben = await context.open('pages/message/message');
      await signIn(ben, OTHER_SHOPPER);
      await ben.waitForPage('pages/message/message');
      await ada.see('Ben is online');
      await ben.see('Hi Ben, are the aviators in stock?');
      await ben.tap('Hi Ben, are the aviators in stock?');
      await ben.waitForPage('pages/message/privateChat/privateChat', { to: String(adaId) });
      await ada.see('Read');

      await say(ben, 'Yes, in gold and silver.');
      await ada.see('Yes, in gold and silver.');
      Object.assign(context.state, { ada, ben });
    },
  },
  {
    name: 'a video from the album goes with the frame WeChat took of it, which the other user sees as its poster',
    async run(context) {
      const { ada, ben } = context.state as { ada: Phone; ben: Phone };
      const dir = mkdtempSync(join(tmpdir(), 'lensmate-weapp-video-'));
      // An MP4 (its ftyp box, then data) and the 320×180 frame WeChat's chooseVideo gives as thumbTempFilePath.
      const video = join(dir, 'clip.mp4');
      writeFileSync(
        video,
        Buffer.concat([Buffer.from('000000186674797069736f6d0000020069736f6d6d703431', 'hex'), randomBytes(4096)]),
      );
      const poster = { path: join(dir, 'frame.jpg'), width: 320, height: 180 };
      await sharp({ create: { width: 320, height: 180, channels: 3, background: '#22aa66' } })
        .jpeg()
        .toFile(poster.path);
      ada.pickVideo(video, poster);
      await ada.tap('+');
      await ada.tap('Video');
      await ada.until("the video on the sender's side", () =>
        ada.elementsTagged('video').find((element) => element.attrs.poster),
      );
      const seen = await ben.until('the video with its poster', () =>
        ben.elementsTagged('video').find((element) => element.attrs.poster && element.attrs.src),
      );
      // The phone's URLs are on the domain the build was made for; the runner maps it to the shop.
      const onShop = (url: unknown) => new URL(String(url).replace(ben.program.apiOrigin, context.shop.url));
      const posterUrl = onShop(seen.attrs.poster);
      check(posterUrl.href !== onShop(seen.attrs.src).href, 'a poster that is not the video');
      const response = await fetch(posterUrl);
      check(response.ok, `the poster served (${response.status} for ${posterUrl.href})`);
      const { format, width, height } = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      check(
        format === 'jpeg' && width === 320 && height === 180,
        `WeChat's 320×180 frame as the poster, not ${format} ${width}×${height}`,
      );
      // The sender's own bubble shows it too.
      check(
        ada.elementsTagged('video').some((element) => element.attrs.poster),
        "the poster on the sender's bubble",
      );
    },
  },
  {
    name: 'a support chat opened from a product carries its card; an agent accepts and answers',
    async run(context) {
      const agent = await context.open('pages/chat/chat2');
      await signIn(agent, ADMIN);
      await agent.waitForPage('pages/chat/chat2');
      await agent.tap('Go online');
      await agent.see('You are online');
      await agent.see('Nobody is waiting.');

      const phone = await context.open();
      const page = await api<ListPage<Goods>>(context.shop, '/api/goods/get_goods_page', { page: 1, page_size: 1 });
      const goods = page.list[0];
      await phone.tap('All frames');
      await phone.tap(goods.goods_name);
      await phone.waitForPage('pages/product/product', { id: String(goods.goods_id) });
      await phone.tap('Chat with us ›');
      await signIn(phone, SHOPPER);
      await phone.see('Sent with your first message');
      await phone.see('Send us a message: an agent will answer shortly.');
      await say(phone, 'Is this frame available in a narrower size?');
      await phone.see('Waiting for an agent…');
      await phone.see(goods.goods_name);
      check(!phone.shows('Sent with your first message'), 'the card sent with the first message');

      await agent.see('Waiting (1)');
      await agent.tap('Ada');
      await agent.see('Waiting for an agent to accept');
      await agent.see(goods.goods_name);
      await agent.tap('Accept');
      await agent.see('You are serving this customer');
      await say(agent, 'Hello Ada, it comes in 50 and 52 mm.', 'Reply to the customer');

      await phone.see('Lensmate Admin is serving you');
      await phone.see('Hello Ada, it comes in 50 and 52 mm.');
    },
  },
];

import type { CSMessage, GoEasy } from '@/messaging';
import { IM_EVENT } from '@/messaging';
import { currentUser, signIn } from '@/state/customer';
import Taro from '@tarojs/taro';
import { type TestServer, connectUser, eventually, startServer } from '../../sdk/support/harness';
import { fakeApi, mountPages, ok, page, shows, typeInto } from '../account/harness';
import { orderOf } from '../order/support';
import { press, see } from './press';

/**
 * The agents' desk against the real messaging server: a shopper (an SDK client) writes with an order card; the
 * admin on the page goes online, accepts, sees the order lines and prescription, replies, transfers to a second
 * agent (another SDK client) and, on a new session, ends it.
 */
const ada = { user_id: 2, email: 'ada@lensmate.test', nickname: 'Ada', avatar: '', is_admin: false, token: 'tok-ada' };
const admin = {
  user_id: 1,
  email: 'admin@lensmate.test',
  nickname: 'Lensmate Admin',
  avatar: '',
  is_admin: true,
  token: 'tok-admin',
};
const TEAM = 'lensmate-support';
let server: TestServer;
let shopper: GoEasy;
let second: GoEasy;
const shopperGot: CSMessage[] = [];
const secondGot: CSMessage[] = [];
/** Whom each identity proof the app asked for was for (the signed-in user when it asked). */
const tokensFor: string[] = [];

jest.setTimeout(60_000);

function orderCardPayload() {
  const order = orderOf();
  const line = order.lines[0];
  return {
    order_id: order.order_id,
    order_sn: order.order_sn,
    status: 'Awaiting payment',
    total: order.total,
    created_at: order.created_at,
    lines: [
      {
        goods_id: line.goods_id,
        goods_name: line.goods_name,
        goods_img: line.goods_img,
        color_name: line.color_name,
        quantity: 1,
        lenses: 'Single Vision · Premium Digital, Thin 1.61',
        line_total: line.line_total,
        prescription: { name: 'Reading 2026', od: 'SPH -2.25  CYL -0.50  AXIS 90', os: 'SPH -2.00', pd: 'PD 63' },
      },
    ],
  };
}

async function shopperSays(type: 'order' | 'text', payload: Record<string, unknown>): Promise<void> {
  const to = { type: 'cs' as const, id: TEAM, data: { name: 'Lensmate support' } };
  const message =
    type === 'text'
      ? shopper.im.createTextMessage({ text: String(payload.text), to })
      : shopper.im.createCustomMessage({ type, payload, to });
  await shopper.im.sendMessage({ message });
}

beforeAll(async () => {
  Element.prototype.scrollIntoView = () => undefined;
  server = await startServer();
  // The admin (1) and Cara (7) are the agents the shop assigned to the support team.
  for (const agent of ['1', '7']) await server.assignAgent(TEAM, agent);
  (globalThis as { LENSMATE_MESSAGING_HOST?: string }).LENSMATE_MESSAGING_HOST = server.url;
  shopper = await connectUser(server, '2', { name: 'Ada' }, ['im']);
  shopper.im.on(IM_EVENT.CS_MESSAGE_RECEIVED, ((message: CSMessage) => shopperGot.push(message)) as never);
  second = await connectUser(server, '7', { name: 'Cara' }, ['im']);
  second.im.on(IM_EVENT.CS_MESSAGE_RECEIVED, ((message: CSMessage) => secondGot.push(message)) as never);
  await second.im.csteam(TEAM).online({ teamData: { name: 'Lensmate support' }, agentData: { name: 'Cara' } });
  Taro.clearStorageSync();
  signIn(ada);
  fakeApi({
    '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
    // As the shop answers: the proof is for whoever is signed in.
    '/api/messaging/token': () => {
      const id = String(currentUser()?.user_id ?? '');
      tokensFor.push(id);
      return ok({ userId: id, otp: server.otp(id), wxmpId: null, wxmpTemplate: null });
    },
  });
  await mountPages('/pages/chat/chat2');
});

afterAll(async () => {
  await Promise.all([shopper, second].map((client) => client?.disconnect().catch(() => undefined)));
  await server?.stop();
});

it('refuses a shopper, without connecting as an agent', async () => {
  await see('Customer service is for Lensmate agents (administrators) only');
  expect(shows('Go online')).toBe(false);
  // The app's one connection is the shopper's own: the desk asked for no other identity.
  await eventually(() => expect(tokensFor).toEqual(['2']));
  const online = await second.im.csteam(TEAM).agents();
  expect(online.content.map((agent) => agent.id)).not.toContain('2');
});

it('an admin goes online and sees the shopper waiting with the order card', async () => {
  signIn(admin);
  Taro.redirectTo({ url: '/pages/chat/chat2' });
  await see('You are offline');
  // The app's connection follows the switch to the admin; the desk uses it rather than one of its own.
  await eventually(() => expect(tokensFor).toEqual(['2', '1']));
  await see('Go online to see the customers who are waiting.');
  await press('Go online');
  await see('You are online');
  await see('Nobody is waiting.');
  await shopperSays('order', orderCardPayload());
  await shopperSays('text', { text: 'Is my prescription right?' });
  await see('Waiting (1)');
  await see('Is my prescription right?');
});

it('opens the conversation, accepts, sees lines and prescription, and replies', async () => {
  await press('Ada');
  await see('Waiting for an agent to accept');
  await see('Order LM20261122AB12CD34');
  await see('Harbor Round × 1');
  await see('Prescription: Reading 2026');
  await see('OD SPH -2.25  CYL -0.50  AXIS 90');
  await see('PD 63');
  await press('Accept');
  await see('You are serving this customer');
  await see('You accepted the conversation');
  await eventually(() => expect(shopperGot.map((message) => message.type)).toEqual(['CS_ACCEPT']));
  expect(shopperGot[0].senderData).toEqual({ name: 'Lensmate Admin', avatar: '' });
  await typeInto(page(), 'message', 'Yes, SPH -2.25 on the right.');
  await press('Send');
  await eventually(() => expect(shopperGot.map((message) => message.type)).toEqual(['CS_ACCEPT', 'text']));
  expect(shopperGot[1].payload).toEqual({ text: 'Yes, SPH -2.25 on the right.' });
});

it('transfers to the other agent online; the page then shows who serves', async () => {
  await press('Transfer');
  await see('Transfer to');
  await press('Cara');
  await see('Cara is serving');
  await see('You transferred the conversation to Cara');
  await eventually(() => expect(secondGot.map((message) => message.type)).toContain('CS_TRANSFER'));
  expect(shows('End')).toBe(false);
  const status = await second.im.csteam(TEAM).customerStatus({ id: '2' });
  expect(status.content).toMatchObject({ status: 'ACCEPTED', agent: { id: '7' } });
});

it('a new session accepted here can be ended here; the list then has no open conversation', async () => {
  await second.im.csteam(TEAM).end({ id: '2' });
  await see('Ended');
  await shopperSays('text', { text: 'Sorry, one more question' });
  await see('Waiting for an agent to accept');
  await press('Accept');
  await see('You are serving this customer');
  await press('End');
  await see('You ended the conversation');
  await see('Ended');
  expect(shows('Accept')).toBe(false);
  await eventually(() => expect(shopperGot.map((message) => message.type).at(-1)).toBe('CS_END'));
  await press('‹ All');
  await see('My conversations (0)');
});

import type { CSMessage, GoEasy } from '@/messaging';
import { IM_EVENT } from '@/messaging';
import { signIn } from '@/state/customer';
import Taro from '@tarojs/taro';
import { type TestServer, connectUser, eventually, startServer } from '../../sdk/support/harness';
import { fakeApi, mountPages, ok, page, typeInto } from '../account/harness';
import { orderOf } from '../order/support';
import { press, see } from './press';

/**
 * The shopper's support chat against the real messaging server (the shop API is faked as in the other page
 * suites): the order card goes out with the first message, and the session line follows what a real agent does.
 */
const ada = { user_id: 2, email: 'ada@lensmate.test', nickname: 'Ada', avatar: '', is_admin: false, token: 'tok-ada' };
const TEAM = 'lensmate-support';
let server: TestServer;
let agent: GoEasy;
const received: CSMessage[] = [];

jest.setTimeout(60_000);

beforeAll(async () => {
  // jsdom has no layout: Taro's ScrollView scrolls the newest message into view with this.
  Element.prototype.scrollIntoView = () => undefined;
  server = await startServer();
  await server.assignAgent(TEAM, '1');
  (globalThis as { LENSMATE_MESSAGING_HOST?: string }).LENSMATE_MESSAGING_HOST = server.url;
  agent = await connectUser(server, '1', { name: 'Lensmate Admin' }, ['im']);
  agent.im.on(IM_EVENT.CS_MESSAGE_RECEIVED, ((message: CSMessage) => received.push(message)) as never);
  await agent.im.csteam(TEAM).online({ teamData: { name: 'Lensmate support' }, agentData: { name: 'Sam' } });
  Taro.clearStorageSync();
  signIn(ada);
  fakeApi({
    '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
    '/api/order/get_user_order': ok({ list: [orderOf()], total: 1, page: 1, page_size: 1 }),
    '/api/messaging/token': () => ok({ userId: '2', otp: server.otp('2'), wxmpId: null, wxmpTemplate: null }),
  });
  await mountPages('/pages/chat/chat?order_id=41');
});

afterAll(async () => {
  await agent?.disconnect().catch(() => undefined);
  await server?.stop();
});

it('shows the order waiting to go with the first message, and no session yet', async () => {
  await see('Send us a message: an agent will answer shortly.');
  await see('Sent with your first message');
  await see('Order LM20261122AB12CD34');
  await see('Prescription: Reading 2026');
});

it('sends the order card first, then the text; the session waits for an agent', async () => {
  await typeInto(page(), 'message', 'Where is my order?');
  await press('Send');
  await see('Waiting for an agent…');
  await eventually(() => expect(received.map((message) => message.type)).toEqual(['order', 'text']));
  const card = received[0].payload as Record<string, any>;
  expect(card).toMatchObject({ order_id: 41, order_sn: 'LM20261122AB12CD34', total: 167.04 });
  expect(card.lines[0]).toMatchObject({
    goods_name: 'Harbor Round',
    prescription: { name: 'Reading 2026', od: 'SPH -2.25  CYL -0.50  AXIS 90', pd: 'PD 63' },
  });
  expect(received[1].payload).toEqual({ text: 'Where is my order?' });
  expect(received.every((message) => message.senderId === '2' && message.teamId === TEAM)).toBe(true);
  expect(page().textContent).not.toContain('Sent with your first message');
});

it('names the agent once one accepts, shows the reply, and ends when the agent ends', async () => {
  const team = agent.im.csteam(TEAM);
  await team.accept({ customer: { id: '2', data: { name: 'Ada' } } });
  await see('Sam is serving you');
  await see('Sam joined the conversation');
  const reply = team.createTextMessage({
    text: 'It ships tomorrow.',
    to: { type: 'cs', id: '2', data: { name: 'Ada' } },
  });
  await agent.im.sendMessage({ message: reply });
  await see('It ships tomorrow.');
  await team.end({ id: '2' });
  await see('Sam ended the conversation');
  await see('This conversation has ended. Send a message to start a new one.');
});

it('a later message starts a new session without sending the card again', async () => {
  received.length = 0;
  await typeInto(page(), 'message', 'One more thing');
  await press('Send');
  await see('Waiting for an agent…');
  await eventually(() => expect(received.map((message) => message.type)).toEqual(['text']));
});

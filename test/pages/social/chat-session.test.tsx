import { NOTIFY_ACCEPT, NOTIFY_REASON } from '@/features/chat/NotifyPrompt';
import type { GoEasy } from '@/messaging';
import { currentUser, signIn } from '@/state/customer';
import { appStore } from '@/state/store';
import { unreadTotalAtom } from '@/state/unread';
import Taro from '@tarojs/taro';
import { type TestServer, connectUser, eventually, startServer } from '../../sdk/support/harness';
import { fakeApi, mountPages, ok, page, see, tap, waitForPath } from '../account/harness';
import { press } from '../cs/press';

/**
 * The app's one messaging connection against the real messaging server: it follows the signed-in user (a stored
 * session at start, log out, another user), carries the unread badge and the notifications on pages that are not
 * chats, and the notification permission is asked at the first chat, from a tap after its reason, never on load.
 */
const ada = { user_id: 2, email: 'ada@lensmate.test', nickname: 'Ada', avatar: '', is_admin: false, token: 'tok-ada' };
const ben = { user_id: 3, email: 'ben@lensmate.test', nickname: 'Ben', avatar: '', is_admin: false, token: 'tok-ben' };
const MINE = '/pages/mine/index/mine';
let server: TestServer;
let cara: GoEasy;
/** Whom each identity proof the app asked for was for. */
const tokensFor: string[] = [];
let toast: jest.SpyInstance;

/** The browser's Notification, recorded: what was shown and every time the permission was asked for. */
const shown: Array<{ title: string; body?: string }> = [];
const permissionAsked = jest.fn();
class RecordingNotification {
  static permission: NotificationPermission = 'default';
  static requestPermission(): Promise<NotificationPermission> {
    permissionAsked();
    RecordingNotification.permission = 'granted';
    return Promise.resolve('granted');
  }
  onclick: (() => void) | null = null;
  constructor(title: string, options: { body?: string } = {}) {
    shown.push({ title, body: options.body });
  }
  close() {}
}

jest.setTimeout(60_000);

async function online(id: string): Promise<boolean> {
  const here = await cara.im.hereNow({ userIds: [id] });
  return (here.content as Array<{ id: string }>).some((user) => user.id === id);
}

async function caraSays(to: string, text: string): Promise<void> {
  const message = cara.im.createTextMessage({ text, to: { type: 'private', id: to, data: { name: 'Cara' } } });
  await cara.im.sendMessage({ message });
}

/** The badge on Mine's Messages entry ('' when there is none). */
function messagesBadge(): string {
  const title = Array.from(page().querySelectorAll('.mine__entry-title')).find(
    (node) => node.textContent === 'Messages',
  );
  return title?.closest('.mine__entry')?.querySelector('.mine__badge')?.textContent ?? '';
}

function tabBadge(): string {
  return page().querySelector('.tab-bar__badge')?.textContent ?? '';
}

/**
 * The network goes: the identity proof is then lost like any request on a dropped connection (it fails for the
 * network, and the app's request layer holds it) until `back()` brings the network back.
 */
function goOffline(): { back(): void } {
  Object.defineProperty(window.navigator, 'onLine', { value: false, configurable: true });
  window.dispatchEvent(new Event('offline'));
  let reachable = false;
  const request = jest.spyOn(Taro, 'request');
  const answer = request.getMockImplementation() as (options: Taro.request.Option) => Promise<unknown>;
  request.mockImplementation(((options: Taro.request.Option) => {
    if (reachable || !options.url.endsWith('/api/messaging/token')) return answer(options);
    tokensFor.push(String(currentUser()?.user_id ?? ''));
    return Promise.reject({ errMsg: 'request:fail net::ERR_INTERNET_DISCONNECTED' });
  }) as never);
  return {
    back() {
      reachable = true;
      Object.defineProperty(window.navigator, 'onLine', { value: true, configurable: true });
      window.dispatchEvent(new Event('online'));
    },
  };
}

beforeAll(async () => {
  Element.prototype.scrollIntoView = () => undefined;
  server = await startServer();
  (globalThis as { LENSMATE_MESSAGING_HOST?: string }).LENSMATE_MESSAGING_HOST = server.url;
  (window as unknown as { Notification: unknown }).Notification = RecordingNotification;
  cara = await connectUser(server, '7', { name: 'Cara' }, ['im']);
  Taro.clearStorageSync();
  // A stored session: the app starts signed in.
  signIn(ada);
  toast = jest.spyOn(Taro, 'showToast');
  fakeApi({
    '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
    // As the shop answers: the proof is for whoever is signed in.
    '/api/messaging/token': () => {
      const id = String(currentUser()?.user_id ?? '');
      tokensFor.push(id);
      return ok({ userId: id, otp: server.otp(id), wxmpId: null, wxmpTemplate: null });
    },
    '/api/social/profile': ok({ user_id: 7, nickname: 'Cara', avatar: '', bio: '' }),
    '/api/auth/logout': ok({ logged_out: true }),
  });
  await mountPages(MINE);
});

afterAll(async () => {
  await cara?.disconnect().catch(() => undefined);
  await server?.stop();
});

it('connects the stored session at start, once, and does not ask for notifications on load', async () => {
  await eventually(() => expect(tokensFor).toEqual(['2']));
  await eventually(async () => expect(await online('2')).toBe(true));
  expect(permissionAsked).not.toHaveBeenCalled();
  expect(page().textContent).not.toContain(NOTIFY_REASON);
});

it('a message while on Mine: the Messages badge and the tab badge count it, and an in-app notice shows it', async () => {
  expect(messagesBadge()).toBe('');
  toast.mockClear();
  await caraSays('2', 'Are the tortoise frames back in stock?');
  await eventually(() => expect(messagesBadge()).toBe('1'));
  expect(tabBadge()).toBe('1');
  expect(appStore.get(unreadTotalAtom)).toBe(1);
  // Notifications are not allowed (not asked yet): the message is shown in the app instead.
  await eventually(() =>
    expect(toast).toHaveBeenCalledWith(
      expect.objectContaining({ title: expect.stringContaining('Are the tortoise frames'), icon: 'none' }),
    ),
  );
  expect(shown).toEqual([]);
  await caraSays('2', 'And in blue?');
  await eventually(() => expect(messagesBadge()).toBe('2'));
});

it('the first chat opened shows why notifications help; the browser prompt opens only from the tap', async () => {
  Taro.navigateTo({ url: '/pages/message/privateChat/privateChat?to=7' });
  await waitForPath('/pages/message/privateChat/privateChat');
  await see('And in blue?');
  await see(NOTIFY_REASON);
  expect(permissionAsked).not.toHaveBeenCalled();
  await press(NOTIFY_ACCEPT);
  await eventually(() => expect(permissionAsked).toHaveBeenCalledTimes(1));
  await eventually(() => expect(page().textContent).not.toContain(NOTIFY_REASON));
  // Read in the chat: the badge is cleared.
  await eventually(() => expect(appStore.get(unreadTotalAtom)).toBe(0));
  // A message into the open chat is not notified.
  toast.mockClear();
  await caraSays('2', 'Here is a photo of them');
  await see('Here is a photo of them');
  expect(shown).toEqual([]);
});

it('allowed now: a message while on Mine is a system notification, and the badge counts it', async () => {
  Taro.reLaunch({ url: MINE });
  await waitForPath(MINE);
  await caraSays('2', 'Shall I hold a pair for you?');
  await eventually(() => expect(shown).toEqual([{ title: 'Cara', body: 'Shall I hold a pair for you?' }]));
  await eventually(() => expect(messagesBadge()).toBe('1'));
  expect(tabBadge()).toBe('1');
  expect(permissionAsked).toHaveBeenCalledTimes(1);
});

it('log out disconnects and clears the badge; messages then reach nobody here', async () => {
  await tap('Log out');
  await eventually(async () => expect(await online('2')).toBe(false));
  expect(appStore.get(unreadTotalAtom)).toBe(0);
  await caraSays('2', 'Are you there?');
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(shown).toHaveLength(1);
  expect(appStore.get(unreadTotalAtom)).toBe(0);
});

it('another user signing in is connected in her place, and a switch back connects the first again', async () => {
  signIn(ben);
  await eventually(() => expect(tokensFor).toEqual(['2', '3']));
  await eventually(async () => expect(await online('3')).toBe(true));
  Taro.reLaunch({ url: MINE });
  await waitForPath(MINE);
  await caraSays('3', 'Hi Ben, your order shipped');
  await eventually(() => expect(messagesBadge()).toBe('1'));
  expect(shown.at(-1)).toEqual({ title: 'Cara', body: 'Hi Ben, your order shipped' });
  // Straight to another user, without logging out.
  signIn(ada);
  await eventually(() => expect(tokensFor).toEqual(['2', '3', '2']));
  await eventually(async () => expect(await online('2')).toBe(true));
  await eventually(async () => expect(await online('3')).toBe(false));
  // Ada's unread total, not Ben's: the message sent while she was away.
  await eventually(() => expect(messagesBadge()).toBe('1'));
});

it('a connection whose identity proof was lost with the network is made again when the network is back', async () => {
  await tap('Log out');
  await eventually(async () => expect(await online('2')).toBe(false));
  const network = goOffline();
  signIn(ada);
  await eventually(() => expect(tokensFor).toEqual(['2', '3', '2', '2']));
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(await online('2')).toBe(false);
  network.back();
  await eventually(() => expect(tokensFor).toEqual(['2', '3', '2', '2', '2']));
  await eventually(async () => expect(await online('2')).toBe(true));
});

it('a user switch while the first user’s identity proof is lost connects the second user once the network is back', async () => {
  Taro.reLaunch({ url: MINE });
  await waitForPath(MINE);
  await tap('Log out');
  await eventually(async () => expect(await online('2')).toBe(false));
  const asked = tokensFor.length;
  const network = goOffline();
  signIn(ada);
  await eventually(() => expect(tokensFor.slice(asked)).toEqual(['2']));
  // Ada's proof is lost with the network; Ben signs in on this phone before it is back.
  signIn(ben);
  await new Promise((resolve) => setTimeout(resolve, 300));
  network.back();
  await eventually(async () => expect(await online('3')).toBe(true));
  expect(await online('2')).toBe(false);
  expect(tokensFor.at(-1)).toBe('3');
});

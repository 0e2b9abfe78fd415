/**
 * Private and group chat pages against the real messaging server (a child process): media messages with upload
 * progress, a failure and its retry, permission refusals, location messages through the location pages, history
 * as the user scrolls up, and presence. Only the device pickers are stand-ins (jsdom has no album or camera).
 */
import { type Server, createServer } from 'node:http';
import { type AnyMessage, type GoEasy, IM_EVENT } from '@/messaging';
import { signIn } from '@/state/customer';
import Taro from '@tarojs/taro';
import { type TestServer, connectUser, eventually, startServer } from '../../sdk/support/harness';
import { listen, storageFront } from '../../sdk/support/storage-front';
import { fakeApi, mountPages, ok, page, see, shows, tap, tu, typeInto, waitForPath } from '../account/harness';

jest.setTimeout(60_000);

const ada = { user_id: 2, email: 'ada@lensmate.test', nickname: 'Ada', avatar: '', is_admin: false, token: 'tok-ada' };
const benProfile = {
  user_id: 3,
  nickname: 'Ben',
  avatar: '',
  bio: '',
  is_following: true,
  is_admin: false,
  is_me: false,
  followers: 1,
  following: 1,
  articles: 0,
  albums: 0,
};
const picture = Buffer.from(`89504e470d0a1a0a${'00'.repeat(600)}`, 'hex');
const clip = Buffer.from(`000000186674797069736f6d${'00'.repeat(900)}`, 'hex');
let clipServed = false;
let server: TestServer;
let files: Server;
let filesUrl: string;
let storage: Server;
let ben: GoEasy;
const benGot: AnyMessage[] = [];
let toast: jest.SpyInstance;

/** Stands in for the device's local files (H5 reads a picked file's path before uploading it). */
function deviceFiles(): Server {
  return createServer((request, response) => {
    response.setHeader('Access-Control-Allow-Origin', request.headers.origin ?? '*');
    response.setHeader('Access-Control-Allow-Credentials', 'true');
    const served: Record<string, [string, Buffer] | undefined> = {
      '/frame.png': ['image/png', picture],
      '/clip.mp4': clipServed ? ['video/mp4', clip] : undefined,
      '/notes.pdf': ['application/pdf', Buffer.from('%PDF-1.4 lens notes')],
      // An ID3 tag's header: the server checks that a .mp3 is audio.
      '/tone.mp3': ['audio/mpeg', Buffer.concat([Buffer.from('ID3'), Buffer.alloc(200)])],
    };
    const file = served[request.url ?? ''];
    if (!file) {
      response.statusCode = 404;
      response.end();
      return;
    }
    response.setHeader('Content-Type', file[0]);
    response.end(file[1]);
  });
}

function texts(selector: string): string[] {
  return Array.from(page().querySelectorAll(selector)).map((node) => node.textContent ?? '');
}

async function waitUntil(check: () => boolean, what: string): Promise<void> {
  await eventually(() => {
    if (!check()) throw new Error(`still waiting for ${what}`);
  }, 15_000);
}

/** Records every status text shown, so a short-lived one (the upload progress) can be asserted afterwards. */
function watchStatuses(): { seen: string[]; stop: () => void } {
  const seen: string[] = [];
  const observer = new MutationObserver(() => {
    for (const node of Array.from(document.querySelectorAll('.chat__status'))) seen.push(node.textContent ?? '');
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  return { seen, stop: () => observer.disconnect() };
}

beforeAll(async () => {
  // jsdom has no layout, so no scrolling: the scroll view's scroll-into-view has nothing to do.
  Element.prototype.scrollIntoView = () => undefined;
  storage = storageFront(() => server.url);
  const storageUrl = await listen(storage);
  // Ben's 25 messages of history go out at once: above the default flood limit.
  server = await startServer({
    MESSAGING_PUBLIC_URL: storageUrl,
    MESSAGING_RATE_PER_CONNECTION: '100',
    MESSAGING_RATE_PER_USER: '100',
  });
  files = deviceFiles();
  filesUrl = await listen(files);
  (globalThis as { LENSMATE_MESSAGING_HOST?: string }).LENSMATE_MESSAGING_HOST = server.url;
  ben = await connectUser(server, '3', { name: 'Ben', avatar: '' }, ['im']);
  ben.im.on(IM_EVENT.PRIVATE_MESSAGE_RECEIVED, (message: AnyMessage) => benGot.push(message));
  // History: 25 messages from Ben before Ada opens the chat (one page is 20).
  for (let i = 1; i <= 25; i += 1) {
    const message = ben.im.createTextMessage({ text: `Earlier note ${i}`, to: { type: 'private', id: '2', data: {} } });
    await ben.im.sendMessage({ message });
  }
  Taro.clearStorageSync();
  signIn(ada);
  toast = jest.spyOn(Taro, 'showToast');
  fakeApi({
    '/api/config/shop_config': ok({ shop_name: 'Lensmate', shop_logo: '' }),
    '/api/social/profile': ok(benProfile),
    '/api/messaging/token': () => ok({ userId: '2', otp: server.otp('2'), wxmpId: null, wxmpTemplate: null }),
    '/api/social/group': ok({
      group_id: 7,
      name: 'Lensmate friends',
      owner_id: 2,
      member_count: 3,
      is_member: true,
      created_at: 1,
      members: [
        { user_id: 2, nickname: 'Ada', avatar: '', bio: '', is_following: false },
        { user_id: 3, nickname: 'Ben', avatar: '', bio: '', is_following: true },
      ],
    }),
  });
  await mountPages('/pages/message/privateChat/privateChat?to=3');
});

afterAll(async () => {
  await ben?.disconnect().catch(() => undefined);
  await new Promise((resolve) => files?.close(resolve));
  await new Promise((resolve) => storage?.close(resolve));
  await server?.stop();
});

it('shows the newest page of history and loads earlier messages on request', async () => {
  await see('Earlier note 25');
  expect(shows('Earlier note 5')).toBe(false);
  expect(shows('Start of the conversation')).toBe(false);
  await tap('Scroll up or tap for earlier messages');
  await see('Earlier note 1');
  await see('Start of the conversation');
  expect(texts('.chat__text').filter((text) => text.startsWith('Earlier note'))).toHaveLength(25);
});

it('shows whether the other user is online, live', async () => {
  await see('Ben is online');
  await ben.disconnect();
  await see('Ben is offline');
  ben = await connectUser(server, '3', { name: 'Ben', avatar: '' }, ['im']);
  ben.im.on(IM_EVENT.PRIVATE_MESSAGE_RECEIVED, (message: AnyMessage) => benGot.push(message));
  await see('Ben is online');
});

it('sends an image with upload progress; the other user receives it', async () => {
  jest.spyOn(Taro, 'chooseImage').mockResolvedValueOnce({
    tempFilePaths: [`${filesUrl}/frame.png`],
    tempFiles: [{ path: `${filesUrl}/frame.png`, size: picture.length }],
  } as never);
  const statuses = watchStatuses();
  await tap('+');
  await tap('Photo');
  await waitUntil(() => benGot.some((message) => message.type === 'image'), 'the image to reach Ben');
  statuses.stop();
  const image = benGot.find((message) => message.type === 'image') as AnyMessage;
  const url = String((image.payload as { url: string }).url);
  // A signed, expiring path to a key under the sender's own prefix.
  expect(url).toMatch(/\/oss\/~s\/\d+\/[\w-]{32}\/im\/u-2\/\d{8}\/\w+\.png$/);
  // jsdom's upload events carry no total, so the page shows the upload without a percentage (Chromium shows it).
  expect(statuses.seen).toContain('Uploading…');
  expect(statuses.seen.some((text) => /NaN/.test(text))).toBe(false);
  // The sender shows the uploaded file under its own grant (the same key).
  const key = (src: string | null) => (src ?? '').replace(/^.*\/oss\/~s\/\d+\/[\w-]+\//, '');
  await waitUntil(
    () =>
      Array.from(page().querySelectorAll('.chat__image')).some((node) => key(node.getAttribute('src')) === key(url)),
    'the sent image to show its uploaded URL',
  );
});

it('shows the album and media messages when the user refuses the permission', async () => {
  toast.mockClear();
  jest.spyOn(Taro, 'chooseImage').mockRejectedValueOnce({ errMsg: 'chooseImage:fail auth deny' });
  await tap('+');
  await tap('Photo');
  await waitUntil(
    () => toast.mock.calls.some(([options]) => options.title === '未授权访问相册权限，请授权后使用'),
    'the album message',
  );
  // On H5 a video comes from the browser's file input (no permission to refuse): a file that is no video, or a video
  // the messaging SDK does not send (webm: messaging.md §5), is refused with the chat's video types, and nothing is
  // sent.
  const sentBefore = benGot.length;
  for (const [name, type] of [
    ['notes.txt', 'text/plain'],
    ['clip.webm', 'video/webm'],
  ]) {
    toast.mockClear();
    await pickInBrowser(name, type, 12, async () => {
      await tap('+');
      await tap('Video');
      await waitUntil(
        () => toast.mock.calls.some(([options]) => options.title === 'Choose an mp4, avi or mov video'),
        `the chat's video types message for ${name}`,
      );
    });
  }
  expect(benGot.length).toBe(sentBefore);
  expect(shows('Not sent')).toBe(false);
});

it('shows a failed upload as not sent, and sends it on retry', async () => {
  toast.mockClear();
  // The clip is not served yet: its upload fails. (jsdom plays no video: no poster is drawn, the store's snapshot is.)
  await pickInBrowser('clip.mp4', 'video/mp4', clip.length, async () => {
    await tap('+');
    await tap('Video');
    await see('Not sent');
  });
  expect(toast).toHaveBeenCalled();
  expect(benGot.some((message) => message.type === 'video')).toBe(false);
  // A failed message can also be deleted: it only ever existed on this device.
  await pickInBrowser('clip.mp4', 'video/mp4', clip.length, async () => {
    await tap('+');
    await tap('Video');
    await waitUntil(
      () => texts('.chat__status').filter((text) => text === 'Not sent').length === 2,
      'a second failure',
    );
  });
  tu.fireEvent.click(page().querySelectorAll('.chat__bubble--video')[1]);
  await tap('Delete');
  await waitUntil(() => texts('.chat__status').filter((text) => text === 'Not sent').length === 1, 'the deletion');
  clipServed = true;
  await tap('Retry');
  await waitUntil(() => benGot.some((message) => message.type === 'video'), 'the video to reach Ben');
  await waitUntil(() => !shows('Not sent'), 'the failed message to give way to the sent one');
  expect(page().querySelectorAll('.chat__video')).toHaveLength(1);
});

/** Picks `name` in the browser's file input; jsdom has no blob store, so its local URL is the device stand-in's. */
async function pickInBrowser(name: string, type: string, size: number, send: () => Promise<void>): Promise<void> {
  const realCreate = URL.createObjectURL;
  URL.createObjectURL = () => `${filesUrl}/${name}`;
  const click = jest.spyOn(HTMLInputElement.prototype, 'click').mockImplementationOnce(function (
    this: HTMLInputElement,
  ) {
    Object.defineProperty(this, 'files', { value: [new File(['x'.repeat(size)], name, { type })] });
    this.dispatchEvent(new Event('change'));
  });
  try {
    await send();
  } finally {
    URL.createObjectURL = realCreate;
    click.mockRestore();
  }
}

it('sends a file and an audio file picked on the device', async () => {
  await pickInBrowser('notes.pdf', 'application/pdf', 19, async () => {
    await tap('+');
    await tap('File');
    await waitUntil(() => benGot.some((message) => message.type === 'file'), 'the file to reach Ben');
  });
  const sent = benGot.find((message) => message.type === 'file') as AnyMessage;
  expect(sent.payload).toMatchObject({ name: 'notes.pdf', size: 19, contentType: 'application/pdf' });
  await see('notes.pdf');
  await see('19 B');
  await pickInBrowser('tone.mp3', 'audio/mpeg', 203, async () => {
    await tap('+');
    await tap('Audio');
    await waitUntil(() => benGot.some((message) => message.type === 'audio'), 'the audio to reach Ben');
  });
  expect(benGot.find((message) => message.type === 'audio')?.payload).toMatchObject({
    name: 'tone.mp3',
    contentType: 'audio/mpeg',
    url: expect.stringMatching(/\/oss\/~s\/\d+\/[\w-]{32}\/im\/u-2\/\d{8}\/\w+\.mp3$/),
  });
  await see('Voice message');
});

it('sends a location chosen on the choose-location page and opens it on open-location', async () => {
  await tap('+');
  await tap('Location');
  await waitForPath('/pages/location/choose-location');
  await typeInto(page(), 'place-name', 'Lensmate Soho');
  await typeInto(page(), 'place-latitude', '95');
  await typeInto(page(), 'place-longitude', '-0.1337');
  await tap('Send this place');
  await see('The latitude is a number from -90 to 90');
  await typeInto(page(), 'place-address', '12 Frith Street, London');
  await typeInto(page(), 'place-latitude', '51.5136');
  await tap('Send this place');
  await waitForPath('/pages/message/privateChat/privateChat');
  await see('Lensmate Soho');
  await waitUntil(() => benGot.some((message) => message.type === 'location'), 'the location to reach Ben');
  expect(benGot.find((message) => message.type === 'location')?.payload).toEqual({
    name: 'Lensmate Soho',
    address: '12 Frith Street, London',
    latitude: 51.5136,
    longitude: -0.1337,
  });
  await tap('12 Frith Street, London');
  await waitForPath('/pages/location/open-location');
  await see('51.513600° N, 0.133700° W');
  await see('Lensmate Soho');
});

it('shows how many group members are online, live', async () => {
  await ben.im.subscribeGroup({ groupIds: ['7'] });
  // Ada is a member already (the shop's API says so): only members see a group's presence.
  const adaElsewhere = await connectUser(server, '2', { name: 'Ada' }, ['im']);
  await adaElsewhere.im.subscribeGroup({ groupIds: ['7'] });
  await adaElsewhere.disconnect();
  Taro.redirectTo({ url: '/pages/groupChat/groupChat?to=7' });
  await waitForPath('/pages/groupChat/groupChat');
  await see('2 of 3 members online');
  await ben.disconnect();
  await see('1 of 3 members online');
});

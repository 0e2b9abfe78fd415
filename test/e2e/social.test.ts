import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { settledScreenshot as shot, signInAs } from './support/account-flow';
import { expectFieldCentred, launchChromium, phonePage } from './support/browser';
import { type RunningShop, startShop } from './support/server';
import { openFromMine, tapOn } from './support/taps';

jest.setTimeout(180_000);

let sharedBrowser: Browser;

function poster(label: string, colour: string): Buffer {
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="750" height="480" viewBox="0 0 750 480"><rect width="750" height="480" fill="${colour}"/>` +
      `<circle cx="250" cy="240" r="90" fill="none" stroke="#fff" stroke-width="18"/><circle cx="500" cy="240" r="90" fill="none" stroke="#fff" stroke-width="18"/>` +
      `<text x="375" y="430" font-family="sans-serif" font-size="44" fill="#fff" text-anchor="middle">${label}</text></svg>`,
  );
}

/** The SVG drawn as a PNG (the chat's image messages accept gif, jpg and png only). */
async function png(svg: Buffer): Promise<Buffer> {
  const page = await sharedBrowser.newPage({ viewport: { width: 750, height: 480 } });
  try {
    await page.setContent(`<body style="margin:0">${svg.toString()}</body>`);
    return await page.screenshot({ type: 'png' });
  } finally {
    await page.close();
  }
}

/** The page on top (pages left behind stay in the document, hidden). */
const onTop = (page: Page) => page.locator('.taro_page:visible').last();

/** A way of the community hub: Mine › Community › `label`. */
async function openCommunity(page: Page, label: string, url: RegExp): Promise<void> {
  await openFromMine(page, 'Community', /\/pages\/main\/main/);
  await tapOn(page, label);
  await page.waitForURL(url);
}

async function choose(page: Page, trigger: string, files: { name: string; buffer: Buffer }[]): Promise<void> {
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByText(trigger, { exact: true }).click(),
  ]);
  await chooser.setFiles(files.map((file) => ({ name: file.name, mimeType: 'image/svg+xml', buffer: file.buffer })));
}

/** Waits for `text` shown on screen as the page's text, not as what a field of a page below holds. */
async function paragraphShown(page: Page, text: string): Promise<void> {
  await page.getByText(text).and(page.locator(':not(textarea):not(input)')).filter({ visible: true }).first().waitFor();
}

describe('social side in headless Chromium against the real server', () => {
  let shop: RunningShop;
  let browser: Browser;

  beforeAll(async () => {
    // Eleven sign-ins across these tests: above the default limit of 10 per 15 minutes from one address.
    shop = await startShop({ AUTH_RATE_LIMIT_MAX: '50' });
    browser = await launchChromium();
    sharedBrowser = browser;
  });

  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
  });

  it('an admin publishes an article with a cover and a carousel; the two draft messages appear when they should', async () => {
    const { page, errors } = await phonePage(browser);
    await signInAs(page, shop.url, 'admin@lensmate.test', 'Admin#2026pass');
    await openCommunity(page, 'Publish', /\/pages\/push\/push/);
    await tapOn(page, 'Article');
    await page.waitForURL(/\/pages\/addarticle\/addarticle-main/);
    await page.getByText('+ Choose a cover').filter({ visible: true }).first().waitFor();

    await onTop(page).getByText('Next', { exact: true }).click();
    await page.getByText('请填写标题~').filter({ visible: true }).first().waitFor();
    await shot(page, 'social-article-1-title-required');

    await page.locator('input[name="title"]').fill('Tortoiseshell is back');
    await onTop(page).getByText('Style', { exact: true }).click();
    await page.getByText('请填写标题~').waitFor({ state: 'hidden' });
    await onTop(page).getByText('Next', { exact: true }).click();
    await page.getByText('封面或轮播图不能为空~').filter({ visible: true }).first().waitFor();
    await shot(page, 'social-article-2-cover-required');

    await choose(page, '+ Choose a cover', [{ name: 'cover.svg', buffer: poster('Cover', '#7a4a22') }]);
    await page.locator('.addarticle__cover-image').waitFor();
    await page.getByText('封面或轮播图不能为空~').waitFor({ state: 'hidden' });
    await onTop(page).getByText('Next', { exact: true }).click();
    await page.getByText('封面或轮播图不能为空~').filter({ visible: true }).first().waitFor();

    await choose(page, '+ Add images', [
      { name: 'slide-1.svg', buffer: poster('Slide one', '#1e3a8a') },
      { name: 'slide-2.svg', buffer: poster('Slide two', '#556b2f') },
    ]);
    await page.getByText('Carousel (2/9)').filter({ visible: true }).first().waitFor();
    await page.getByText('Loading', { exact: true }).waitFor({ state: 'hidden' });
    await shot(page, 'social-article-3-filled');
    expect(await page.evaluate(() => localStorage.getItem('imgPublish'))).toContain('false');

    await onTop(page).getByText('Next', { exact: true }).click();
    await page.waitForURL(/addarticle-next/);
    await page.locator('textarea[name="paragraph-0"]').fill('Warm brown frames suit almost every skin tone.');
    await onTop(page).getByText('Preview', { exact: true }).click();
    await page.waitForURL(/preview/);
    // The draft's page stays in the document under the one on top, its textarea holding the same words.
    await paragraphShown(page, 'Warm brown frames suit almost every skin tone.');
    await shot(page, 'social-article-4-preview');

    await onTop(page).getByText('Publish', { exact: true }).click();
    await page.waitForURL(/\/pages\/article\/article\?id=\d+/);
    await page.locator('.article__title', { hasText: 'Tortoiseshell is back' }).waitFor();
    await page.locator('.article__category', { hasText: 'Style' }).waitFor();
    await paragraphShown(page, 'Warm brown frames suit almost every skin tone.');
    const slides = await page.locator('.article__carousel img, .article__carousel .taro-img__mode-aspectfill').count();
    expect(slides).toBeGreaterThanOrEqual(2);
    await shot(page, 'social-article-5-published');

    const id = Number(new URL(page.url()).searchParams.get('id'));
    const stored = await (await fetch(`${shop.url}/api/article/get_article?id=${id}`)).json();
    expect(stored.data).toMatchObject({
      title: 'Tortoiseshell is back',
      // Uploaded SVGs are stored as the PNGs they draw (issue 16).
      imgsUrl: [expect.stringMatching(/^\/uploads\/.+\.png$/), expect.any(String)],
    });
    expect(stored.data.cover).toMatch(/^\/uploads\/.+\.png$/);
    expect(errors).toEqual([]);
  });

  it('follow and unfollow change the follower lists', async () => {
    const login = await (
      await fetch(`${shop.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'ben@lensmate.test', password: 'Shopper#2026b' }),
      })
    ).json();
    const benId = login.data.user_id as number;
    const { page, errors } = await phonePage(browser);
    await signInAs(page, shop.url, 'ada@lensmate.test', 'Shopper#2026a');
    await openCommunity(page, 'People', /\/pages\/user\/allUser\/allUser/);
    await onTop(page).locator('.social-person__name', { hasText: 'Ben' }).click();
    await page.waitForURL(new RegExp(`/pages/user/user\\?id=${benId}`));
    const followers = onTop(page).locator('.user-page__count').first().locator('.user-page__count-value');
    await onTop(page).locator('.user-page__name', { hasText: 'Ben' }).waitFor();
    await onTop(page)
      .locator('.social-follow', { hasText: /^Follow$/ })
      .waitFor();
    expect(await followers.textContent()).toBe('0');
    await shot(page, 'social-follow-1-profile');

    await onTop(page).locator('.social-follow').click();
    await onTop(page).locator('.social-follow', { hasText: 'Following' }).waitFor();
    expect(await followers.textContent()).toBe('1');
    await shot(page, 'social-follow-2-following');

    await onTop(page).locator('.user-page__count', { hasText: 'Followers' }).click();
    await page.waitForURL(/allUser\?type=followers/);
    await onTop(page).locator('.social-person__name', { hasText: 'Ada' }).waitFor();
    await shot(page, 'social-follow-3-followers-list');

    await page.goBack();
    await onTop(page).locator('.social-follow', { hasText: 'Following' }).waitFor();
    await onTop(page).locator('.social-follow').click();
    await onTop(page)
      .locator('.social-follow', { hasText: /^Follow$/ })
      .waitFor();
    expect(await followers.textContent()).toBe('0');
    await onTop(page).locator('.user-page__count', { hasText: 'Followers' }).click();
    await page.waitForURL(/allUser\?type=followers/);
    await onTop(page).getByText('No followers yet').filter({ visible: true }).first().waitFor();
    await shot(page, 'social-follow-4-unfollowed');
    expect(errors).toEqual([]);
  });

  it('two users chat privately in real time, with a read receipt and a recall', async () => {
    const idOf = async (email: string, password: string) =>
      (
        await (
          await fetch(`${shop.url}/api/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email, password }),
          })
        ).json()
      ).data.user_id as number;
    const adaId = await idOf('ada@lensmate.test', 'Shopper#2026a');
    const benId = await idOf('ben@lensmate.test', 'Shopper#2026b');
    const ada = await phonePage(browser);
    const ben = await phonePage(browser);
    await signInAs(ada.page, shop.url, 'ada@lensmate.test', 'Shopper#2026a');
    await signInAs(ben.page, shop.url, 'ben@lensmate.test', 'Shopper#2026b');

    // Ada writes to Ben from the people of the community; Ben finds her in his messages (Mine › Messages).
    await openCommunity(ada.page, 'People', /\/pages\/user\/allUser\/allUser/);
    await onTop(ada.page).locator('.social-person', { hasText: 'Ben' }).locator('.social-person__message').click();
    await ada.page.waitForURL(new RegExp(`/pages/message/privateChat/privateChat\\?to=${benId}`));
    await ada.page.locator('input[name="message"]').waitFor();
    await expectFieldCentred(ada.page, 'message');
    // Ben is signed in: his app holds its chat connection on whatever page he is, none of them a chat.
    await ada.page.getByText('Ben is online').filter({ visible: true }).first().waitFor();
    await ada.page.locator('input[name="message"]').fill('Hi Ben, are the aviators in stock?');
    await ada.page.locator('.chat__send').click();
    await ada.page.locator('.chat__status', { hasText: 'Unread' }).waitFor();
    await shot(ada.page, 'social-chat-1-ada-sent-unread');

    await openFromMine(ben.page, 'Messages', /\/pages\/message\/message/);
    await ben.page.locator('.message__name').first().waitFor();
    await ben.page.locator('.message__badge', { hasText: '1' }).waitFor();
    await shot(ben.page, 'social-chat-2-ben-conversations');
    await ada.page.getByText('Ben is online').filter({ visible: true }).first().waitFor();
    await shot(ada.page, 'social-chat-2b-ada-sees-ben-online');

    await onTop(ben.page).locator('.message__name', { hasText: 'Ada' }).click();
    await ben.page.waitForURL(new RegExp(`/pages/message/privateChat/privateChat\\?to=${adaId}`));
    await ben.page.getByText('Hi Ben, are the aviators in stock?').filter({ visible: true }).first().waitFor();
    await ada.page.locator('.chat__status', { hasText: 'Read' }).filter({ hasNotText: 'Unread' }).waitFor();
    await shot(ada.page, 'social-chat-3-ada-read-receipt');

    await ben.page.locator('input[name="message"]').fill('Yes, in gold and silver.');
    await ben.page.locator('.chat__send').click();
    await ada.page.getByText('Yes, in gold and silver.').filter({ visible: true }).first().waitFor();
    await shot(ben.page, 'social-chat-4-ben-replied');

    // An image: uploaded with its progress shown, received live, read, then recalled.
    await ada.page.locator('.chat__attach').click();
    await ada.page.locator('.chat__panel').waitFor();
    await shot(ada.page, 'social-chat-4b-ada-attach-panel');
    // Records every status line shown: the upload's progress is on screen only while the image uploads.
    await ada.page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { statuses: string[] }).statuses = seen;
      new MutationObserver(() => {
        for (const node of Array.from(document.querySelectorAll('.chat__status'))) seen.push(node.textContent ?? '');
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const [chooser] = await Promise.all([
      ada.page.waitForEvent('filechooser'),
      ada.page.getByText('Photo', { exact: true }).click(),
    ]);
    await chooser.setFiles({
      name: 'aviators.png',
      mimeType: 'image/png',
      buffer: await png(poster('Gold aviators', '#8a6d1e')),
    });
    await ben.page.locator('.chat__bubble--image').waitFor();
    const imageStatus = ada.page
      .locator('.chat__row--mine', { has: ada.page.locator('.chat__bubble--image') })
      .locator('.chat__status');
    await imageStatus.filter({ hasText: /^Read$/ }).waitFor();
    // Ben's copy is the uploaded file, loaded from the messaging server's storage.
    await ben.page.waitForFunction(() => {
      const image = document.querySelector<HTMLImageElement>('.chat__bubble--image img');
      return Boolean(image?.src.includes('/oss/') && image.complete && image.naturalWidth > 0);
    });
    const statuses = await ada.page.evaluate(() => (window as unknown as { statuses: string[] }).statuses);
    expect(statuses.some((text) => /^Uploading \d+%$/.test(text))).toBe(true);
    await shot(ben.page, 'social-chat-5-ben-receives-image');
    await shot(ada.page, 'social-chat-6-ada-image-read');

    await ada.page.locator('.chat__bubble--image').click();
    await ada.page.locator('.chat__tool', { hasText: 'Recall' }).click();
    await ada.page.getByText('You recalled a message').filter({ visible: true }).first().waitFor();
    await ben.page.getByText('Ada recalled a message').filter({ visible: true }).first().waitFor();
    expect(await ben.page.locator('.chat__bubble--image').count()).toBe(0);
    await ben.page.getByText('Hi Ben, are the aviators in stock?').filter({ visible: true }).first().waitFor();
    await shot(ben.page, 'social-chat-7-ben-sees-recall');

    // A place, chosen on the choose-location page (no map needed) and opened on open-location.
    await ada.page.locator('.chat__attach').click();
    await ada.page.getByText('Location', { exact: true }).click();
    await ada.page.waitForURL(/choose-location/);
    await ada.page.locator('input[name="place-name"]').fill('Lensmate Soho');
    await ada.page.locator('input[name="place-address"]').fill('12 Frith Street, London');
    await ada.page.locator('input[name="place-latitude"]').fill('51.5136');
    await ada.page.locator('input[name="place-longitude"]').fill('-0.1318');
    await shot(ada.page, 'social-chat-8-ada-chooses-location');
    await ada.page.getByText('Send this place').click();
    await ada.page.waitForURL(/privateChat/);
    await ada.page.locator('.chat__location', { hasText: 'Lensmate Soho' }).waitFor();
    await shot(ada.page, 'social-chat-8b-ada-sent-location');
    await ben.page.locator('.chat__location', { hasText: 'Lensmate Soho' }).click();
    await ben.page.waitForURL(/open-location/);
    await ben.page.getByText('51.513600° N, 0.131800° W').filter({ visible: true }).first().waitFor();
    await shot(ben.page, 'social-chat-9-ben-opens-location');
    await ben.page.goBack();

    // Back from the chat to the conversations it was opened from.
    await ben.page.waitForURL(/privateChat/);
    await ben.page.goBack();
    await ben.page.waitForURL(/\/pages\/message\/message/);
    await ben.page.locator('.message__name', { hasText: 'Ada' }).waitFor();
    await ben.page.locator('.message__more').click();
    await ben.page.getByText('Pin to top').click();
    await ben.page.locator('.message__row--top').waitFor();
    await ben.page.locator('.message__more').click();
    await ben.page.getByText('Unpin').filter({ visible: true }).first().waitFor();
    await ben.page.getByText('Remove', { exact: true }).click();
    await ben.page.getByText('No conversations yet').filter({ visible: true }).first().waitFor();
    await shot(ben.page, 'social-chat-10-ben-removed-conversation');
    expect([...ada.errors, ...ben.errors]).toEqual([]);
  });

  it('a group of three chats in real time', async () => {
    const login = await (
      await fetch(`${shop.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'ada@lensmate.test', password: 'Shopper#2026a' }),
      })
    ).json();
    const groups = await (
      await fetch(`${shop.url}/api/social/groups`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'lensmate-token': login.data.token },
        body: '{}',
      })
    ).json();
    const group = groups.data.find((item: { name: string }) => item.name === 'Lensmate friends');
    const people = [
      { email: 'ada@lensmate.test', password: 'Shopper#2026a' },
      { email: 'ben@lensmate.test', password: 'Shopper#2026b' },
      { email: 'admin@lensmate.test', password: 'Admin#2026pass' },
    ];
    const pages = [];
    for (const person of people) {
      const opened = await phonePage(browser);
      // The admin allows notifications; the browser's own Notification is kept, and each one shown is recorded.
      if (person === people[2]) {
        await opened.page.context().grantPermissions(['notifications'], { origin: shop.url });
        await opened.page.addInitScript(() => {
          const shown: Notification[] = [];
          (window as unknown as { shownNotifications: Notification[] }).shownNotifications = shown;
          const Native = window.Notification;
          window.Notification = class extends Native {
            constructor(title: string, options?: NotificationOptions) {
              super(title, options);
              shown.push(this);
            }
          } as typeof Notification;
        });
      }
      await signInAs(opened.page, shop.url, person.email, person.password);
      if (person === people[2]) {
        // Opened from the group list inside the app, so that going back stays in the app (and connected).
        await openCommunity(opened.page, 'Groups', /\/pages\/group\/group/);
        await expectFieldCentred(opened.page, 'group-name');
        await opened.page.getByText('Lensmate friends', { exact: true }).click();
      } else {
        await openCommunity(opened.page, 'Groups', /\/pages\/group\/group/);
        await tapOn(opened.page, 'Lensmate friends');
        await opened.page.waitForURL(new RegExp(`/pages/groupChat/groupChat\\?to=${group.group_id}`));
      }
      await opened.page.locator('input[name="message"]').waitFor();
      await opened.page.getByText('Start of the conversation').filter({ visible: true }).first().waitFor();
      pages.push(opened);
    }
    const [ada, ben, admin] = pages;
    await ada.page.locator('input[name="message"]').fill('Who is coming to the store on Saturday?');
    await ada.page.locator('.chat__send').click();
    await ben.page.getByText('Who is coming to the store on Saturday?').filter({ visible: true }).first().waitFor();
    await admin.page.getByText('Who is coming to the store on Saturday?').filter({ visible: true }).first().waitFor();
    await ben.page.locator('input[name="message"]').fill('Me!');
    await ben.page.locator('.chat__send').click();
    await ada.page.getByText('Me!', { exact: true }).filter({ visible: true }).first().waitFor();
    await admin.page.getByText('Me!', { exact: true }).filter({ visible: true }).first().waitFor();
    await admin.page.locator('.chat__sender', { hasText: 'Ben' }).waitFor();
    // Group presence: all three have the group open.
    await admin.page.getByText('3 of 3 members online').filter({ visible: true }).first().waitFor();
    await shot(admin.page, 'social-group-1-admin-sees-both');
    const shownCount = () =>
      admin.page.evaluate(
        () => (window as unknown as { shownNotifications: Notification[] }).shownNotifications.length,
      );
    // With the group on screen, its messages raise no notification.
    expect(await shownCount()).toBe(0);

    // The admin leaves the chat for the group list; Ada's next message is a notification leading to /pages/groupChat.
    await admin.page.goBack();
    await admin.page.getByText('New group', { exact: true }).filter({ visible: true }).first().waitFor();
    await ada.page.locator('input[name="message"]').fill('Bring your old frames, we recycle them');
    await ada.page.locator('.chat__send').click();
    await admin.page.waitForFunction(
      () => (window as unknown as { shownNotifications: Notification[] }).shownNotifications.length === 1,
    );
    const shown = await admin.page.evaluate(() => {
      const [note] = (window as unknown as { shownNotifications: Notification[] }).shownNotifications;
      return { title: note.title, body: note.body, tag: note.tag };
    });
    expect(shown).toEqual({
      title: 'Lensmate friends',
      body: 'Ada: Bring your old frames, we recycle them',
      tag: `/pages/groupChat/groupChat?to=${group.group_id}`,
    });
    await admin.page.evaluate(() =>
      (window as unknown as { shownNotifications: Notification[] }).shownNotifications[0].dispatchEvent(
        new Event('click'),
      ),
    );
    await admin.page.waitForURL(new RegExp(`/pages/groupChat/groupChat\\?to=${group.group_id}$`));
    await admin.page.getByText('Bring your old frames, we recycle them').last().waitFor();

    // The same notification went to the push outbox for members who are away, addressed to the group.
    const outbox = new Database(join(shop.dataDir, 'lensmate.sqlite'), { readonly: true });
    try {
      const pushes = outbox
        .prepare("SELECT recipient, body FROM msg_outbox WHERE kind = 'push' ORDER BY created_at")
        .all() as { recipient: string; body: string }[];
      expect(pushes.at(-1)?.recipient).toBe(`group:${group.group_id}`);
      expect(JSON.parse(pushes.at(-1)?.body ?? '{}').notification).toMatchObject({
        title: 'Lensmate friends',
        body: 'Ada: Bring your old frames, we recycle them',
      });
    } finally {
      outbox.close();
    }
    expect(pages.flatMap((opened) => opened.errors)).toEqual([]);
  });
});

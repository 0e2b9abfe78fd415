import type { Browser } from 'playwright-core';
import { apiPost, settledScreenshot as shot, signInAs } from './support/account-flow';
import { launchChromium, phonePage } from './support/browser';
import { type RunningShop, startShop } from './support/server';
import { openFromMine, tapOn } from './support/taps';

jest.setTimeout(180_000);

/**
 * A video message's poster on H5 (issue 22 point 4): the page draws a frame of the picked video on a canvas, uploads
 * it beside the video, and both sides show it as the video's poster, through the built-in store's resize (at most
 * 200 high, the video's proportions kept). The video is recorded in the page itself (MediaRecorder over a canvas
 * painted a known colour), so the poster's pixels can be checked.
 */
describe('chat video poster in headless Chromium', () => {
  let shop: RunningShop;
  let browser: Browser;

  beforeAll(async () => {
    shop = await startShop();
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
  });

  it('sends a video with a poster drawn from its frame, shown at thumbnail size on both sides', async () => {
    const idOf = async (email: string, password: string) =>
      (await apiPost<{ user_id: number }>(shop.url, '/api/auth/login', { email, password })).data.user_id;
    const adaId = await idOf('ada@lensmate.test', 'Shopper#2026a');
    const benId = await idOf('ben@lensmate.test', 'Shopper#2026b');
    const ada = await phonePage(browser);
    await signInAs(ada.page, shop.url, 'ada@lensmate.test', 'Shopper#2026a');
    // Ada writes from the community's people, Ben answers from his messages (Mine › Messages).
    await openFromMine(ada.page, 'Community', /\/pages\/main\/main/);
    await tapOn(ada.page, 'People');
    await ada.page.waitForURL(/\/pages\/user\/allUser\/allUser/);
    await ada.page
      .locator('.taro_page:visible')
      .last()
      .locator('.social-person', { hasText: 'Ben' })
      .locator('.social-person__message')
      .click();
    await ada.page.waitForURL(new RegExp(`/pages/message/privateChat/privateChat\\?to=${benId}`));
    await ada.page.locator('input[name="message"]').waitFor();

    // A 320×240 MP4 (the chat takes GoEasy's video types: avi, mov, rmvb, rm, flv, mp4, 3gp), every frame orange.
    const clip = await ada.page.evaluate(async () => {
      const canvas = document.createElement('canvas');
      canvas.width = 320;
      canvas.height = 240;
      const context = canvas.getContext('2d') as CanvasRenderingContext2D;
      const paint = () => {
        context.fillStyle = '#ff8800';
        context.fillRect(0, 0, 320, 240);
      };
      paint();
      const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/mp4' });
      const chunks: Blob[] = [];
      recorder.ondataavailable = (event) => chunks.push(event.data);
      recorder.start(100);
      for (let i = 0; i < 15; i += 1) {
        paint();
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      const stopped = new Promise((resolve) => {
        recorder.onstop = resolve;
      });
      recorder.stop();
      await stopped;
      return Array.from(new Uint8Array(await new Blob(chunks, { type: 'video/mp4' }).arrayBuffer()));
    });
    expect(clip.length).toBeGreaterThan(100);

    await ada.page.locator('.chat__attach').click();
    const [chooser] = await Promise.all([
      ada.page.waitForEvent('filechooser'),
      ada.page.getByText('Video', { exact: true }).click(),
    ]);
    await chooser.setFiles({ name: 'orange.mp4', mimeType: 'video/mp4', buffer: Buffer.from(clip) });

    // Once sent, the bubble's poster is the uploaded frame through the store's resize, not the video itself.
    const poster = await ada.page.waitForFunction(
      () => {
        const element = document.querySelector<HTMLVideoElement>(
          '.chat__row--mine .chat__video video, video.chat__video',
        );
        const url = element?.getAttribute('poster') ?? '';
        return url.includes('/oss/') && url.includes('x-oss-process=image/resize') ? url : false;
      },
      undefined,
      { timeout: 60_000 },
    );
    const posterUrl = String(await poster.jsonValue());
    expect(posterUrl).not.toContain('video/snapshot');
    await shot(ada.page, 'chat-video-1-sent-with-poster');

    // The poster's pixels: 200 high, the video's 4:3 kept, and the video's orange.
    const pixels = await ada.page.evaluate(async (url) => {
      const image = new Image();
      image.src = url;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext('2d') as CanvasRenderingContext2D;
      context.drawImage(image, 0, 0);
      const [r, g, b] = context.getImageData(Math.floor(canvas.width / 2), Math.floor(canvas.height / 2), 1, 1).data;
      return { width: image.naturalWidth, height: image.naturalHeight, r, g, b };
    }, posterUrl);
    expect(pixels.height).toBe(200);
    expect(pixels.width).toBeGreaterThanOrEqual(266);
    expect(pixels.width).toBeLessThanOrEqual(267);
    expect(pixels.r).toBeGreaterThan(200);
    expect(pixels.g).toBeGreaterThan(90);
    expect(pixels.g).toBeLessThan(180);
    expect(pixels.b).toBeLessThan(80);

    // Ben sees the same poster on his side.
    const ben = await phonePage(browser);
    await signInAs(ben.page, shop.url, 'ben@lensmate.test', 'Shopper#2026b');
    await openFromMine(ben.page, 'Messages', /\/pages\/message\/message/);
    await ben.page.locator('.taro_page:visible').last().locator('.message__name', { hasText: 'Ada' }).click();
    await ben.page.waitForURL(new RegExp(`/pages/message/privateChat/privateChat\\?to=${adaId}`));
    await ben.page.waitForFunction(
      (url) => Array.from(document.querySelectorAll('video')).some((video) => video.getAttribute('poster') === url),
      posterUrl,
      { timeout: 30_000 },
    );
    await shot(ben.page, 'chat-video-2-received-with-poster');
    expect(ben.errors).toEqual([]);
    expect(ada.errors).toEqual([]);
  });
});

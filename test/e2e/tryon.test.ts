import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jpeg from 'jpeg-js';
import type { Browser, Page } from 'playwright-core';
import { apiPost, signInOnPage, tapText, waitForText } from './support/account-flow';
import { launchChromium, phonePage, screenshot, screenshotDir } from './support/browser';
import { type RunningShop, startShop } from './support/server';
import { openFrameFromHome, tapTab } from './support/taps';

jest.setTimeout(240_000);

const FACE_PHOTO = require.resolve('@vladmandic/face-api/demo/sample2.jpg');
const NO_FACE = 'No face found in this photo. Use a photo facing the camera with both eyes visible.';

interface Eye {
  x: number;
  y: number;
}
interface Face {
  left_eye: Eye;
  right_eye: Eye;
}
interface PixelReport {
  width: number;
  height: number;
  /** Pixels that differ from the bare photo: near the eyes, and far from them. */
  near: number;
  far: number;
  centre: Eye;
}

async function chooseFile(page: Page, trigger: string, file: string): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await tapText(page, trigger);
  await (await chooser).setFiles(file);
}

/** Chooses the photo and hands back the faces face_detect answered. */
async function tryPhoto(page: Page, file: string): Promise<Face[]> {
  const answer = page.waitForResponse((response) => response.url().endsWith('/api/tryon/face_detect'), {
    timeout: 120_000,
  });
  await chooseFile(page, 'Choose from album', file);
  const body = (await (await answer).json()) as { status: number; data: { faces: Face[] } };
  expect(body.status).toBe(200);
  return body.data.faces;
}

/**
 * Compares the try-on canvas with the bare photo drawn at the same size: which pixels the frame changed,
 * how many lie within a band around the eyes and how many outside it, and where the changes centre.
 */
function comparePixels(page: Page, photoDataUrl: string, face: Face): Promise<PixelReport> {
  return page.evaluate(
    async ({ photo, eyes }) => {
      const shown = document.querySelector<HTMLCanvasElement>('.tryon__canvas canvas');
      if (!shown) throw new Error('no try-on canvas');
      const image = new Image();
      image.src = photo;
      await image.decode();
      const bare = document.createElement('canvas');
      bare.width = shown.width;
      bare.height = shown.height;
      const bareContext = bare.getContext('2d');
      const shownContext = shown.getContext('2d');
      if (!bareContext || !shownContext) throw new Error('no 2D context');
      bareContext.drawImage(image, 0, 0, bare.width, bare.height);
      const before = bareContext.getImageData(0, 0, bare.width, bare.height).data;
      const after = shownContext.getImageData(0, 0, shown.width, shown.height).data;
      const distance = Math.hypot(eyes.right.x - eyes.left.x, eyes.right.y - eyes.left.y);
      const mid = { x: (eyes.left.x + eyes.right.x) / 2, y: (eyes.left.y + eyes.right.y) / 2 };
      let near = 0;
      let far = 0;
      let sumX = 0;
      let sumY = 0;
      for (let y = 0; y < shown.height; y += 1) {
        for (let x = 0; x < shown.width; x += 1) {
          const at = (y * shown.width + x) * 4;
          const changed =
            Math.abs(after[at] - before[at]) +
            Math.abs(after[at + 1] - before[at + 1]) +
            Math.abs(after[at + 2] - before[at + 2]);
          if (changed < 40) continue;
          if (Math.abs(x - mid.x) < distance * 1.6 && Math.abs(y - mid.y) < distance * 0.8) {
            near += 1;
            sumX += x;
            sumY += y;
          } else {
            far += 1;
          }
        }
      }
      return { width: shown.width, height: shown.height, near, far, centre: { x: sumX / near, y: sumY / near } };
    },
    { photo: photoDataUrl, eyes: { left: face.left_eye, right: face.right_eye } },
  );
}

/** The part of the screen around the eyes, for a close-up screenshot. */
async function eyeClip(page: Page, face: Face): Promise<{ x: number; y: number; width: number; height: number }> {
  const box = await page.locator('.tryon__canvas canvas').boundingBox();
  if (!box) throw new Error('the try-on canvas is not on screen');
  const scale = box.width / 960;
  const distance = Math.hypot(face.right_eye.x - face.left_eye.x, face.right_eye.y - face.left_eye.y) * scale;
  const mid = {
    x: box.x + ((face.left_eye.x + face.right_eye.x) / 2) * scale,
    y: box.y + ((face.left_eye.y + face.right_eye.y) / 2) * scale,
  };
  return { x: mid.x - distance * 2, y: mid.y - distance * 1.5, width: distance * 4, height: distance * 3 };
}

function canvasSignature(page: Page): Promise<number> {
  return page.evaluate(() => {
    const shown = document.querySelector<HTMLCanvasElement>('.tryon__canvas canvas');
    const data = shown?.getContext('2d')?.getImageData(0, 0, shown.width, shown.height).data ?? [];
    let sum = 0;
    for (let at = 0; at < data.length; at += 4) sum = (sum + data[at] * 3 + data[at + 1] * 5 + data[at + 2] * 7) % 1e9;
    return sum;
  });
}

describe('try-on in headless Chromium against the real server and face detector', () => {
  let shop: RunningShop;
  let browser: Browser;
  let files: string;

  beforeAll(async () => {
    shop = await startShop({ H5_DIR: process.env.LENSMATE_E2E_H5_DIR ?? 'dist/h5' });
    browser = await launchChromium();
    files = mkdtempSync(join(tmpdir(), 'lensmate-tryon-e2e-'));
    const grey = jpeg.encode({ data: Buffer.alloc(480 * 360 * 4, 150), width: 480, height: 360 }, 85).data;
    writeFileSync(join(files, 'wall.jpg'), grey);
  });

  afterAll(async () => {
    await browser?.close();
    await shop?.stop();
  });

  it('draws the chosen frame at the detected eyes, switches frames, saves and shares the picture', async () => {
    const { page, errors } = await phonePage(browser);
    await signInOnPage(page, shop.url, 'ada@lensmate.test', 'Shopper#2026a');
    await page.waitForURL(/\/pages\/mine\/index\/mine/);

    const goodsPage = await apiPost<{
      list: { goods_id: number; goods_name: string; color_arr: { color_id: number; color_name: string }[] }[];
    }>(shop.url, '/api/goods/get_goods_page', { page: 1, page_size: 10 });
    const goods = goodsPage.data.list.find((entry) => entry.color_arr.length >= 2);
    if (!goods) throw new Error('the seed has no frame in two colours');
    const second = goods.color_arr[1];
    await tapTab(page, 'Home');
    await openFrameFromHome(page, goods.goods_name);
    await page.locator('.product__color').nth(1).click();
    await waitForText(page, `See this frame in ${second.color_name} on your face ›`);
    await tapText(page, 'Try on');
    await page.waitForURL(new RegExp(`/pages/tryon/tryon\\?id=${goods.goods_id}&color_id=${second.color_id}`));
    await page.locator('.tryon__frame--on').waitFor();
    // Lets the page's slide-in finish before the screenshot.
    await page.waitForFunction(() => document.querySelector('.tryon')?.getBoundingClientRect().left === 0);
    // The chosen colour comes first and is chosen; the product's other colours and other frames follow.
    expect(await page.locator('.tryon__frame--on').innerText()).toContain(second.color_name);
    expect(await page.locator('.tryon__frame').count()).toBeGreaterThan(goods.color_arr.length);
    await screenshot(page, 'tryon-01-start');

    const faces = await tryPhoto(page, FACE_PHOTO);
    expect(faces.length).toBeGreaterThan(0);
    await waitForText(page, 'Save picture', 60_000);
    const photo = `data:image/jpeg;base64,${readFileSync(FACE_PHOTO).toString('base64')}`;
    const report = await comparePixels(page, photo, faces[0]);
    // sample2.jpg is 1920×1367: drawn at 960×684, the size face_detect saw.
    expect([report.width, report.height]).toEqual([960, 684]);
    const eyeDistance = Math.hypot(
      faces[0].right_eye.x - faces[0].left_eye.x,
      faces[0].right_eye.y - faces[0].left_eye.y,
    );
    const mid = {
      x: (faces[0].left_eye.x + faces[0].right_eye.x) / 2,
      y: (faces[0].left_eye.y + faces[0].right_eye.y) / 2,
    };
    // The frame's strokes: many changed pixels around the eyes, centred on them, and the rest of the photo untouched.
    expect(report.near).toBeGreaterThan(eyeDistance * 6);
    expect(report.far).toBe(0);
    expect(Math.abs(report.centre.x - mid.x)).toBeLessThan(eyeDistance * 0.25);
    expect(Math.abs(report.centre.y - mid.y)).toBeLessThan(eyeDistance * 0.25);
    await page.locator('.tryon__canvas').scrollIntoViewIfNeeded();
    await screenshot(page, 'tryon-02-frame-on-face');
    await page.screenshot({
      path: join(screenshotDir, 'tryon-02b-eyes-close-up.png'),
      clip: await eyeClip(page, faces[0]),
    });

    const firstFrame = await canvasSignature(page);
    await page.locator('.tryon__frame').nth(1).click();
    await page.waitForFunction(
      (before) => {
        const shown = document.querySelector<HTMLCanvasElement>('.tryon__canvas canvas');
        const data = shown?.getContext('2d')?.getImageData(0, 0, shown.width, shown.height).data ?? [];
        let sum = 0;
        for (let at = 0; at < data.length; at += 4)
          sum = (sum + data[at] * 3 + data[at + 1] * 5 + data[at + 2] * 7) % 1e9;
        return sum !== before;
      },
      firstFrame,
      { timeout: 20_000 },
    );
    const switched = await comparePixels(page, photo, faces[0]);
    expect(switched.near).toBeGreaterThan(eyeDistance * 6);
    expect(switched.far).toBe(0);
    await screenshot(page, 'tryon-03-other-colour');

    const download = page.waitForEvent('download');
    await tapText(page, 'Save picture');
    expect((await download).suggestedFilename()).toBe(`try-on-${goods.goods_id}-${goods.color_arr[0].color_id}.jpg`);
    await page.locator('.taro__toast').getByText('保存成功').waitFor();

    await tapText(page, 'Share');
    const link = page.locator('.tryon__shared-link');
    await link.waitFor({ timeout: 30_000 });
    const url = (await link.innerText()).trim();
    expect(url).toMatch(new RegExp(`^${shop.url}/uploads/tryon/.+\\.jpg$`));
    const shared = await fetch(url);
    expect(shared.status).toBe(200);
    const bytes = Buffer.from(await shared.arrayBuffer());
    expect([bytes[0], bytes[1], bytes[2]]).toEqual([0xff, 0xd8, 0xff]);
    expect(jpeg.decode(bytes).width).toBe(960);
    await screenshot(page, 'tryon-04-shared');
    expect(errors).toEqual([]);
  });

  it('says clearly when the photo has no face', async () => {
    const { page, errors } = await phonePage(browser);
    await signInOnPage(page, shop.url, 'ben@lensmate.test', 'Shopper#2026b');
    await page.waitForURL(/\/pages\/mine\/index\/mine/);
    // Try-on is reached from a frame's page: home, the search, the frame, Try on.
    const goodsPage = await apiPost<{ list: { goods_name: string }[] }>(shop.url, '/api/goods/get_goods_page', {
      page: 1,
      page_size: 1,
    });
    await tapTab(page, 'Home');
    await openFrameFromHome(page, goodsPage.data.list[0].goods_name);
    await tapText(page, 'Try on');
    await page.waitForURL(/\/pages\/tryon\/tryon\?id=\d+/);
    await page.locator('.tryon__frame').first().waitFor();
    expect(await tryPhoto(page, join(files, 'wall.jpg'))).toEqual([]);
    await waitForText(page, NO_FACE, 30_000);
    expect(await page.getByText('Save picture', { exact: true }).count()).toBe(0);
    await screenshot(page, 'tryon-05-no-face');
    expect(errors).toEqual([]);
  });
});

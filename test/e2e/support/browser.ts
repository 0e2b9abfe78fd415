import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type Page, chromium } from 'playwright-core';

const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const screenshotDir = join(__dirname, '../../../test-output/screenshots');

/** Debian's Chromium, headless, with the flags this closed network needs. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(chromiumPath)) {
    throw new Error(`Chromium not found at ${chromiumPath}: install it with "apt-get install -y chromium"`);
  }
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** A phone-sized page (375x812) that records uncaught page errors for the test to assert on. */
export async function phonePage(browser: Browser): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({
    viewport: { width: 375, height: 812 },
    deviceScaleFactor: 2,
    isMobile: true,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(screenshotDir, { recursive: true });
  const path = join(screenshotDir, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  console.log(`screenshot: ${path}`);
  return path;
}

/**
 * Expects the native field of a Taro <Input> (found by its name) to sit in the middle of the box the page draws
 * for it: Stencil's <taro-input-core> held a field one line high that, left alone, sat at the top of a taller box.
 * Taro's HTML components (the H5 build now) draw the box as the <input class="taro-input-core"> itself, whose
 * text the browser centres: the check holds by construction there and guards a return to the web components.
 */
export async function expectFieldCentred(page: Page, name: string): Promise<void> {
  const field = await page.locator(`input[name="${name}"]`).first().boundingBox();
  const box = await page
    .locator(`taro-input-core:has(input[name="${name}"]), input.taro-input-core[name="${name}"]`)
    .first()
    .boundingBox();
  if (!field || !box) throw new Error(`no visible field named ${name}`);
  const offset = Math.abs(field.y + field.height / 2 - (box.y + box.height / 2));
  if (offset >= 2) throw new Error(`field ${name} sits ${offset.toFixed(1)} px off the middle of its box`);
}

/** What is on screen showing `text` (the whole text, for a string): pages left behind stay in the document, hidden. */
export function shown(page: Page, text: string | RegExp, { whole = true } = {}) {
  return page.getByText(text, { exact: whole && typeof text === 'string' }).filter({ visible: true });
}

/** Waits for `text` on screen; `whole: false` also takes it as part of a longer text. */
export async function see(page: Page, text: string | RegExp, { whole = true } = {}): Promise<void> {
  await shown(page, text, { whole }).first().waitFor({ state: 'visible', timeout: 20_000 });
}

/** Taps the last element on screen showing exactly `text` (the page on top comes last in the document). */
export async function tap(page: Page, text: string | RegExp): Promise<void> {
  await shown(page, text).last().click();
}

/** A screenshot once nothing moves: no loading toast showing, no page still sliding in. */
export async function quietScreenshot(page: Page, name: string): Promise<void> {
  await page.waitForFunction(() => {
    const toasts = Array.from(document.querySelectorAll<HTMLElement>('.taro__toast'));
    const loading = toasts.some((toast) => toast.style.display !== 'none' && toast.style.opacity !== '0');
    return !loading && document.getAnimations().every((animation) => animation.playState !== 'running');
  });
  await screenshot(page, name);
}

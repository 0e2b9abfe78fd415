import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { screenshot } from './browser';

/**
 * The page on top of Taro's H5 stack. A page being left (a login page sliding out after a redirect, say) stays
 * visible in the document for the length of its transition, so "the first visible field named password" can be
 * the old page's: the newest page is the last one in the document.
 */
export function topPage(page: Page) {
  return page.locator('.taro_page:visible').last();
}

/** Fills a Taro <Input>/<Textarea> (a web component around a real field) of the page on top by its name. */
export async function fill(page: Page, name: string, value: string): Promise<void> {
  await topPage(page).locator(`input[name="${name}"], textarea[name="${name}"]`).first().fill(value);
  // Two frames let React render the typed value before the next tap reads the form.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

export async function tapText(page: Page, text: string): Promise<void> {
  await topPage(page).getByText(text, { exact: true }).last().click();
}

export async function waitForText(page: Page, text: string, timeout = 15_000): Promise<void> {
  await topPage(page).getByText(text, { exact: true }).first().waitFor({ timeout });
}

/** Waits for the page transition to end (the page on top sits at the left edge), then takes the screenshot. */
export async function settledScreenshot(page: Page, name: string): Promise<void> {
  await page.waitForFunction(() => {
    const pages = Array.from(document.querySelectorAll<HTMLElement>('.taro_page')).filter(
      (node) => node.style.display !== 'none',
    );
    const top = pages[pages.length - 1];
    return top !== undefined && Math.abs(top.getBoundingClientRect().left) < 1;
  });
  await screenshot(page, name);
}

/** Signs in on the login page and waits for the app to leave it (password hashing can take a while on a busy machine). */
export async function signInAs(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/pages/login/login`, { waitUntil: 'networkidle' });
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('.taro-button-core', { hasText: 'Sign in' }).click();
  await page.waitForFunction(() => !window.location.pathname.startsWith('/pages/login'), undefined, {
    timeout: 90_000,
  });
}

/** Answers Taro's H5 modal (showModal) and hands back its text. */
export async function answerModal(page: Page, button: string): Promise<string> {
  const modal = page.locator('.taro__modal');
  await modal.locator('.taro-modal__content').waitFor();
  const text = (await modal.locator('.taro-modal__text').innerText()).trim();
  await modal.locator('.taro-modal__foot').getByText(button, { exact: true }).click();
  await modal.locator('.taro-modal__content').waitFor({ state: 'hidden' });
  return text;
}

/** Opens home, taps Mine as a guest, which leads to login, and signs in there: the app returns to Mine. */
export async function signInOnPage(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/`, { waitUntil: 'networkidle' });
  await page.locator('.taro_page:visible .tab-bar__label', { hasText: 'Mine' }).last().click();
  await page.waitForURL(/\/pages\/login\/login/);
  await page.locator('input[name="email"]').waitFor();
  await fill(page, 'email', email);
  await fill(page, 'password', password);
  await page.locator('.login__submit').click();
}

/** The newest mail of the offline mailer (one JSON file per message in <data dir>/outbox) sent to `to`. */
export function lastMailTo(dataDir: string, to: string): { subject: string; text: string } | undefined {
  const dir = join(dataDir, 'outbox');
  const names = readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort();
  const mails = names.map(
    (name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as { to: string; subject: string; text: string },
  );
  return mails.filter((mail) => mail.to === to).at(-1);
}

export async function apiPost<T = unknown>(
  baseUrl: string,
  path: string,
  body: unknown,
  token = '',
): Promise<{ http: number; status: number; msg: string; data: T }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'lensmate-token': token } : {}) },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { status: number; msg: string; data: T };
  return { http: response.status, ...answer };
}

export async function apiLogin(baseUrl: string, email: string, password: string): Promise<string> {
  const answer = await apiPost<{ token: string }>(baseUrl, '/api/auth/login', { email, password });
  if (answer.status !== 200) throw new Error(`login of ${email} failed: ${answer.msg}`);
  return answer.data.token;
}

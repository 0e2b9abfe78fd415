// Keeps page.goto for deep URLs (issue 20 lets URL tests keep them): what it checks is how each page renders
// stored attacker data (articles, profiles, comments) opened as a link would open it, not how a user reaches it.
import type { Browser, Page } from 'playwright-core';
import { CORPUS } from '../security/xss-corpus';
import { recordReliability } from '../support/reliability';
import { signInOnPage } from './support/account-flow';
import { launchChromium, phonePage, screenshot } from './support/browser';
import { type RunningShop, startShop } from './support/server';

jest.setTimeout(600_000);

/**
 * Stored XSS rendered by the H5 app in headless Chromium. The corpus of test/security/xss-corpus.ts goes in
 * through insert_article (admin), add_comment (raw, and entity-encoded: the server stores comments decoded, so
 * `&lt;img …&gt;` comes back as live markup text) and update_profile (nickname, bio), and every page that shows
 * it is opened. A script that runs is seen three ways: a dialog (alert), the console mark and the window flag
 * that each armed `alert(` also sets; a load of the payloads' evil.test host is caught by a route.
 */
const MARK = 'XSSMARK';
const NICKNAME_MAX = 40;
const BIO_MAX = 200;
const ADMIN = { email: 'admin@lensmate.test', password: 'Admin#2026pass' };
const ADA = { email: 'ada@lensmate.test', password: 'Shopper#2026a' };
const BEN = { email: 'ben@lensmate.test', password: 'Shopper#2026b' };

/** Elements that must never come out of stored text, nor survive in sanitized HTML. */
const MARKUP = 'script, img, svg, iframe, object, embed, a, style, video, details, form, math, base, meta, body, input';
const ACTIVE = 'script, iframe, object, embed, svg, math, style, form, base, meta, body';

function armed(payload: string): string {
  return payload.replace(/alert\(/g, `(window.__xss=1)&&console.log('${MARK}')||alert(`);
}

function entityEncoded(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const normal = (text: string) => text.replace(/\s+/g, ' ').trim();

interface Watch {
  dialogs: string[];
  marks: string[];
  requests: string[];
  flags: string[];
}

interface Figures {
  articles: number;
  comments: number;
  profileFields: number;
  notices: number;
}

async function api<T = any>(base: string, url: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { 'lensmate-token': token } : {}) },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { status: number; msg: string; data: T };
  if (answer.status !== 200) throw new Error(`${url}: ${answer.status} ${answer.msg}`);
  return answer.data;
}

const login = async (base: string, account: { email: string; password: string }) =>
  (await api<{ token: string }>(base, '/api/auth/login', account)).token;

/** A phone page whose dialogs, console marks and requests to the payloads' host are all recorded. */
async function watchedPage(browser: Browser, watch: Watch): Promise<{ page: Page; errors: string[] }> {
  const { page, errors } = await phonePage(browser);
  page.on('dialog', (dialog) => {
    watch.dialogs.push(`${page.url()}: ${dialog.type()} ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('console', (message) => {
    if (message.text().includes(MARK)) watch.marks.push(`${page.url()}: ${message.text()}`);
  });
  await page.context().route(/evil\.test/, (route) => {
    watch.requests.push(route.request().url());
    void route.abort();
  });
  return { page, errors };
}

/** After the page settled: the window flag any armed payload would have set. */
async function checkFlag(page: Page, watch: Watch): Promise<void> {
  await page.waitForLoadState('networkidle');
  const flag = await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss);
  if (flag !== undefined) watch.flags.push(page.url());
}

/** The visible text of each element matching `selector` in the shown page, whitespace collapsed. */
async function texts(page: Page, selector: string): Promise<string[]> {
  const all = await page.locator(`.taro_page:visible ${selector}`).allInnerTexts();
  return all.map(normal);
}

async function countIn(page: Page, scope: string, selector: string): Promise<number> {
  return page
    .locator(`.taro_page:visible ${scope}`)
    .evaluateAll((nodes, inner) => nodes.reduce((sum, node) => sum + node.querySelectorAll(inner).length, 0), selector);
}

/** Hovers and clicks every element of the sanitized article (not its links), as a reader's finger would. */
async function poke(page: Page): Promise<string[]> {
  return page.locator('.taro_page:visible .article__content').evaluate((root) => {
    const unsafe: string[] = [];
    for (const element of Array.from(root.querySelectorAll('*'))) {
      for (const attribute of Array.from(element.attributes)) {
        // Browsers skip spaces and control characters inside a URL's scheme (java&#x09;script:).
        const value = Array.from(attribute.value)
          .filter((char) => char.charCodeAt(0) > 0x20)
          .join('')
          .toLowerCase();
        if (attribute.name.startsWith('on')) unsafe.push(`${element.tagName} ${attribute.name}`);
        if (/^(javascript|vbscript|data:text\/html)/.test(value)) unsafe.push(`${element.tagName} ${attribute.name}`);
        if (/expression\(|behavior:|url\(javascript/.test(value)) unsafe.push(`${element.tagName} ${attribute.name}`);
      }
      element.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
      if (element.tagName !== 'A') (element as HTMLElement).click?.();
    }
    return unsafe;
  });
}

describe('stored XSS rendered by the H5 app in headless Chromium: no script runs', () => {
  let shop: RunningShop;
  let browser: Browser;
  const watch: Watch = { dialogs: [], marks: [], requests: [], flags: [] };
  const figures: Figures = { articles: 0, comments: 0, profileFields: 0, notices: 0 };
  const commentTexts = new Set<string>();

  beforeAll(async () => {
    shop = await startShop({ AUTH_RATE_LIMIT_MAX: '50' });
    browser = await launchChromium();
  });

  afterAll(async () => {
    const rendered = figures.articles + figures.comments + figures.profileFields + figures.notices;
    const ran = watch.dialogs.length + watch.marks.length + watch.flags.length + watch.requests.length;
    console.log(
      `Stored XSS in Chromium: ${CORPUS.length} payloads, ${rendered} renderings checked (articles ${figures.articles}, ` +
        `comments ${figures.comments}, profile fields ${figures.profileFields}, notices ${figures.notices}); ` +
        `scripts run ${ran}`,
    );
    recordReliability({ suite: 'xss-browser', payloads: rendered, scriptsRun: ran });
    await browser?.close();
    await shop?.stop();
  });

  it('control: the watchers do see an armed payload that runs (so a silent run means nothing ran)', async () => {
    const control: Watch = { dialogs: [], marks: [], requests: [], flags: [] };
    const { page } = await watchedPage(browser, control);
    await page.goto(`${shop.url}/pages/index/index`, { waitUntil: 'networkidle' });
    // Under the shop's Content-Security-Policy (issue 16) an injected handler is refused before it runs: a second
    // wall behind the sanitizer, so the control below takes that policy off the page to see the watchers work.
    const violation = page.evaluate(
      () =>
        new Promise<string>((resolve) =>
          document.addEventListener('securitypolicyviolation', (event) => resolve(event.effectiveDirective), {
            once: true,
          }),
        ),
    );
    await page.evaluate((html) => {
      const box = document.createElement('div');
      box.innerHTML = html;
      document.body.append(box);
    }, armed('<img src=x onerror=alert(1)>'));
    expect(await violation).toMatch(/^script-src/);
    await checkFlag(page, control);
    expect([control.dialogs, control.marks, control.flags]).toEqual([[], [], []]);
    await page.route(`${shop.url}/pages/index/index`, async (route) => {
      const response = await route.fetch();
      const headers = Object.fromEntries(
        Object.entries(response.headers()).filter(([name]) => name !== 'content-security-policy'),
      );
      await route.fulfill({ response, headers });
    });
    await page.goto(`${shop.url}/pages/index/index`, { waitUntil: 'networkidle' });
    await page.evaluate((html) => {
      const box = document.createElement('div');
      box.innerHTML = html;
      document.body.append(box);
    }, armed('<img src=x onerror=alert(1)><img src="https://evil.test/x.png">'));
    await page.waitForFunction(() => (window as unknown as { __xss?: unknown }).__xss === 1);
    await checkFlag(page, control);
    expect(control.dialogs.length).toBe(1);
    expect(control.marks.length).toBe(1);
    expect(control.flags.length).toBe(1);
    expect(control.requests).toEqual(['https://evil.test/x.png']);
    await page.close();
  });

  it('articles and their comments: sanitized HTML runs nothing, comments show markup as text', async () => {
    const [admin, ada, ben] = [await login(shop.url, ADMIN), await login(shop.url, ADA), await login(shop.url, BEN)];
    const stored: { articleId: number; comments: string[] }[] = [];
    for (const [index, payload] of CORPUS.entries()) {
      const article = await api<{ article_id: number }>(
        shop.url,
        '/api/article/insert_article',
        {
          title: `XSS ${index}`,
          cover: '/uploads/a.png',
          imgsUrl: ['/uploads/b.png'],
          content: `<p>Safe text ${index}</p>${armed(payload)}`,
        },
        admin,
      );
      const comments: string[] = [];
      for (const [token, content] of [
        [ada, `Nice ${armed(payload)}`],
        [ben, entityEncoded(armed(payload))],
      ]) {
        const comment = await api<{ content: string }>(
          shop.url,
          '/api/social/add_comment',
          { kind: 'article', target_id: article.article_id, content },
          token,
        );
        comments.push(normal(comment.content));
        commentTexts.add(normal(comment.content));
      }
      stored.push({ articleId: article.article_id, comments });
    }
    // Session 1's note: comments are stored decoded. The encoded payloads come back as live markup text.
    expect(stored.filter((entry) => /<img src=x onerror=/.test(entry.comments[1])).length).toBeGreaterThan(0);

    const { page, errors } = await watchedPage(browser, watch);
    const unsafe: string[] = [];
    for (const [index, entry] of stored.entries()) {
      await page.goto(`${shop.url}/pages/article/article?id=${entry.articleId}`, { waitUntil: 'networkidle' });
      await page.locator('.taro_page:visible .article__content').waitFor();
      await page.locator('.taro_page:visible').getByText(`Comments (${entry.comments.length})`).waitFor();
      const content = await texts(page, '.article__content');
      if (content[0]?.includes(`Safe text ${index}`)) figures.articles++;
      else unsafe.push(`article ${index}: its text is not shown (${content[0]})`);
      const active = await countIn(page, '.article__content', ACTIVE);
      if (active > 0) unsafe.push(`article ${index}: ${active} active elements in the content`);
      unsafe.push(...(await poke(page)).map((hit) => `article ${index}: ${hit}`));

      const shown = await texts(page, '.article__comment-body');
      for (const text of entry.comments) {
        if (shown.includes(text)) figures.comments++;
        else unsafe.push(`article ${index}: comment not shown as text: ${text} (shown: ${shown.join(' | ')})`);
      }
      const markup = await countIn(page, '.article__comment-text', MARKUP);
      if (markup > 0) unsafe.push(`article ${index}: ${markup} elements made from comment text`);
      await checkFlag(page, watch);
      if (index === 0) await screenshot(page, 'xss-1-article-comments');
    }
    expect(unsafe).toEqual([]);
    expect(watch).toEqual({ dialogs: [], marks: [], requests: [], flags: [] });
    expect(errors).toEqual([]);
  });

  it('profile fields (nickname, bio) show as text on the profile page', async () => {
    const ada = await login(shop.url, ADA);
    const me = await api<{ user_id: number }>(shop.url, '/api/social/profile', {}, ada);
    const { page, errors } = await watchedPage(browser, watch);
    const unsafe: string[] = [];
    for (const [index, payload] of CORPUS.entries()) {
      const pick = (max: number) => [armed(payload), payload].find((text) => text.trim().length <= max);
      const changes = { nickname: pick(NICKNAME_MAX), bio: pick(BIO_MAX) };
      const profile = await api<{ nickname: string; bio: string }>(
        shop.url,
        '/api/social/update_profile',
        changes,
        ada,
      );
      await page.goto(`${shop.url}/pages/user/user?id=${me.user_id}`, { waitUntil: 'networkidle' });
      await page.locator('.taro_page:visible .user-page__name').waitFor();
      const [name] = await texts(page, '.user-page__name');
      const [bio] = await texts(page, '.user-page__bio');
      for (const [field, given, stored, shown] of [
        ['nickname', changes.nickname, profile.nickname, name],
        ['bio', changes.bio, profile.bio, bio],
      ] as const) {
        if (given === undefined) continue;
        if (shown === normal(stored)) figures.profileFields++;
        else unsafe.push(`payload ${index}: ${field} shown as "${shown}", stored "${stored}"`);
      }
      const markup = await countIn(page, '.user-page__who', MARKUP);
      if (markup > 0) unsafe.push(`payload ${index}: ${markup} elements made from profile text`);
      await checkFlag(page, watch);
      if (index === 3) await screenshot(page, 'xss-2-profile');
    }
    expect(unsafe).toEqual([]);
    expect(watch).toEqual({ dialogs: [], marks: [], requests: [], flags: [] });
    expect(errors).toEqual([]);
  });

  it("the article author's comment notices show the comments (and the commenter's nickname) as text", async () => {
    const { page, errors } = await watchedPage(browser, watch);
    await signInOnPage(page, shop.url, ADMIN.email, ADMIN.password);
    await page.waitForURL(/\/pages\/mine\/index\/mine/, { timeout: 90_000 });
    await page.goto(`${shop.url}/pages/message/message-comments`, { waitUntil: 'networkidle' });
    await page.locator('.taro_page:visible .social-person__bio').first().waitFor();
    const shown = await texts(page, '.social-person__bio');
    const unknown = shown.filter((text) => !commentTexts.has(text));
    figures.notices += shown.length - unknown.length;
    expect(unknown).toEqual([]);
    expect(shown.length).toBeGreaterThan(0);
    expect(await countIn(page, '.social-person__text', MARKUP)).toBe(0);
    await checkFlag(page, watch);
    await screenshot(page, 'xss-3-comment-notices');
    expect(watch).toEqual({ dialogs: [], marks: [], requests: [], flags: [] });
    expect(errors).toEqual([]);
  });
});

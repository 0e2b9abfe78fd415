import type { FileChooser, Page } from 'playwright-core';

/**
 * A crawler that reaches pages of the H5 build by taps only, as a user would: on the page on top it taps, one at a
 * time, every element React gave a click handler, notes the page a tap opens, explores that page the same way the
 * first time its route is met, and comes back with the browser's back button. It never opens a URL.
 */

export interface CrawlOptions {
  /** Taps whose text matches are never made (they would end the session or destroy what the crawl needs). */
  avoid: RegExp;
  /** Values typed into empty fields and text areas (by their name) before the page's taps, as a user fills a form. */
  fills?: Record<string, string>;
  /** Routes already explored (by another role): met again, they count as reached but are not explored again. */
  skipExplore?: (route: string) => boolean;
  /** Stops exploring when this much time has passed (ms). */
  budgetMs: number;
  maxDepth?: number;
  log?: (line: string) => void;
  /**
   * The taps of the start page this crawler makes first (by their text): crawlers of one role that share a result
   * begin at different places and explore different routes at the same time.
   */
  startWith?: RegExp;
  /** The taps made first on every other page (by their text): a role's own ways before the ways all roles share. */
  prefer?: RegExp[];
  /**
   * The taps made last on every page (by their text): the ones that submit what the others filled in; one that
   * `startWith` or `prefer` names is made first all the same.
   */
  last?: RegExp;
  /** What the crawler picks when a tap opens the file picker (a photo, as a user would). */
  files?: { name: string; mimeType: string; buffer: Buffer }[];
}

export interface CrawlResult {
  reached: Set<string>;
  explored: Set<string>;
  /** How each route was first reached: the texts tapped from the start page. */
  trails: Map<string, string[]>;
}

const HOME_ROUTE = '/pages/index/index';
/** A kind of element that repeats this often with pictures inside is a list of instances: one tap is enough. */
const INSTANCE_LIST_MIN = 3;
/** A kind of element this frequent whose first two taps led to one route is a list: the rest leads there too. */
const LIST_KIND_MIN = 5;
/** How often a tap that draws more (a panel that closes after each choice) is made again. */
const MAX_RETAPS = 6;

/** The route of a page URL (no query); '/' is home's alias. */
export function routeOf(url: string): string {
  const path = new URL(url).pathname.replace(/\/+$/, '');
  return path === '' || path === '/index.html' ? HOME_ROUTE : path;
}

/**
 * What is explored once: a route with the names of its query (a profile with an id is someone else's, without
 * one the signed-in user's own, with more to tap).
 */
export function shapeOf(url: string): string {
  const parsed = new URL(url);
  const keys = [...new Set(parsed.searchParams.keys())].filter((key) => !TARO_KEYS.has(key)).sort();
  return keys.length > 0 ? `${routeOf(url)}?${keys.join('&')}` : routeOf(url);
}

/** Query keys Taro adds on the way; they do not make another page. */
const TARO_KEYS = new Set(['stamp', '$taroTimestamp']);

/** A page instance: its route and its own query, in a stable order. */
export function placeOf(url: string): string {
  const parsed = new URL(url);
  const query = [...parsed.searchParams.entries()]
    .filter(([key]) => !TARO_KEYS.has(key))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  return `${routeOf(url)}?${query}`;
}

interface Step {
  key: string;
  label: string;
  /** The page the tap was made on. */
  from: string;
}

interface Tappable {
  id: number;
  key: string;
  kind: string;
  text: string;
  instance: boolean;
}

/** Marks the tappable elements of the page on top and describes them. */
async function tappables(page: Page): Promise<Tappable[]> {
  return page.evaluate((minimum) => {
    for (const marked of Array.from(document.querySelectorAll('[data-crawl-id]')))
      marked.removeAttribute('data-crawl-id');
    // The page of the address bar (Taro names each page element by its path), the last drawn if several are.
    const path = window.location.pathname.replace(/\/+$/, '') || '/pages/index/index';
    const pages = Array.from(document.querySelectorAll<HTMLElement>('.taro_page')).filter(
      (node) =>
        node.id.split('?')[0] === path && node.getClientRects().length > 0 && node.getBoundingClientRect().width > 0,
    );
    const shown = Array.from(document.querySelectorAll<HTMLElement>('.taro_page')).filter(
      (node) => node.getClientRects().length > 0 && node.getBoundingClientRect().width > 0,
    );
    const top = pages[pages.length - 1] ?? shown[shown.length - 1];
    const roots: HTMLElement[] = top ? [top] : [];
    const found: { element: HTMLElement; kind: string; text: string; image: boolean }[] = [];
    for (const root of roots) {
      for (const element of Array.from(root.querySelectorAll<HTMLElement>('*'))) {
        const propsKey = Object.keys(element).find((key) => key.startsWith('__reactProps$'));
        if (!propsKey) continue;
        const props = (element as unknown as Record<string, { onClick?: unknown } | undefined>)[propsKey];
        if (typeof props?.onClick !== 'function') continue;
        if (element.getClientRects().length === 0) continue;
        const style = getComputedStyle(element);
        if (style.visibility === 'hidden' || style.pointerEvents === 'none') continue;
        const classOf = (node: Element | null) => (node?.getAttribute('class') ?? '').trim().split(/\s+/)[0] ?? '';
        const kind = `${classOf(element.parentElement)}>${element.tagName.toLowerCase()}.${classOf(element)}`;
        const text = (element.innerText || element.getAttribute('aria-label') || '').trim().replace(/\s+/g, ' ');
        found.push({ element, kind, text: text.slice(0, 60), image: element.querySelector('img') !== null });
      }
    }
    const perKind = new Map<string, number>();
    for (const item of found) perKind.set(item.kind, (perKind.get(item.kind) ?? 0) + 1);
    return found.map((item, id) => {
      item.element.setAttribute('data-crawl-id', String(id));
      const instance = item.image && (perKind.get(item.kind) ?? 0) >= minimum;
      return {
        id,
        kind: item.kind,
        text: item.text,
        instance,
        key: instance ? item.kind : `${item.kind}|${item.text}`,
      };
    });
  }, INSTANCE_LIST_MIN);
}

/** Waits until the page on top has slid in and no request of the shop is running (at most `limitMs`). */
async function settle(page: Page, inFlight: () => number, limitMs = 4000): Promise<void> {
  const deadline = Date.now() + limitMs;
  let quietSince = 0;
  while (Date.now() < deadline) {
    const still = await page
      .evaluate(() => {
        const path = window.location.pathname.replace(/\/+$/, '') || '/pages/index/index';
        const pages = Array.from(document.querySelectorAll<HTMLElement>('.taro_page')).filter(
          (node) =>
            node.id.split('?')[0] === path &&
            node.getClientRects().length > 0 &&
            node.getBoundingClientRect().width > 0,
        );
        const top = pages[pages.length - 1];
        return top !== undefined && Math.abs(top.getBoundingClientRect().left) < 1;
      })
      .catch(() => false);
    if (still && inFlight() === 0) {
      if (quietSince === 0) quietSince = Date.now();
      if (Date.now() - quietSince >= 100) return;
    } else {
      quietSince = 0;
    }
    await page.waitForTimeout(50);
  }
}

/** Dismisses what a tap may have opened over the page: a modal or an action sheet (its cancel), a toast goes alone. */
/**
 * Answers what a tap may have opened over the page: a modal is confirmed (a question such as "create new
 * glasses?") unless it asks about what `avoid` guards (deleting, logging out); an action sheet is cancelled.
 */
async function answerOverlays(page: Page, avoid: RegExp): Promise<void> {
  const modal = page.locator('.taro__modal .taro-modal__content:visible');
  if ((await modal.count()) > 0) {
    const question = await page
      .locator('.taro__modal .taro-modal__text')
      .innerText({ timeout: 500 })
      .catch(() => '');
    const buttons = page.locator('.taro__modal .taro-modal__foot > *');
    const answer =
      /delete|remove|log ?out|sign out/i.test(question) || avoid.test(question) ? buttons.first() : buttons.last();
    await answer.click({ timeout: 1000 }).catch(() => undefined);
  }
  const sheet = page.locator('.taro__actionSheet .taro-actionsheet__cancel:visible');
  if ((await sheet.count()) > 0)
    await sheet
      .first()
      .click({ timeout: 1000 })
      .catch(() => undefined);
}

async function fillFields(page: Page, fills: Record<string, string>): Promise<void> {
  for (const [name, value] of Object.entries(fills)) {
    const field = page.locator(`.taro_page:visible :is(input, textarea)[name="${name}"]`).last();
    if ((await field.count()) === 0) continue;
    if ((await field.inputValue().catch(() => 'x')) !== '') continue;
    await field.fill(value, { timeout: 1000 }).catch(() => undefined);
  }
}

/** Crawls from the page on screen; `result` gathers what every role reached. */
export async function crawl(page: Page, options: CrawlOptions, result: CrawlResult): Promise<void> {
  const started = Date.now();
  const maxDepth = options.maxDepth ?? 10;
  let running = 0;
  const onRequest = () => {
    running += 1;
  };
  const onDone = () => {
    running = Math.max(0, running - 1);
  };
  const isShopRequest = (url: string) => !url.includes('/socket.io/') && !url.startsWith('ws');
  const request = (r: { url(): string }) => isShopRequest(r.url()) && onRequest();
  const finished = (r: { url(): string }) => isShopRequest(r.url()) && onDone();
  const timings = new Map<string, number>();
  async function timed<T>(name: string, work: () => Promise<T>): Promise<T> {
    const at = Date.now();
    try {
      return await work();
    } finally {
      timings.set(name, (timings.get(name) ?? 0) + Date.now() - at);
    }
  }
  const choose = (chooser: FileChooser) => void chooser.setFiles(options.files ?? []).catch(() => undefined);
  page.on('filechooser', choose);
  page.on('request', request);
  page.on('requestfinished', finished);
  page.on('requestfailed', finished);

  /** Where a tap (its kind and text) led on a page. */
  const leadsTo = new Map<string, string>();
  /** Where a tap led, per page it was made on: the same tap leading to one place from two pages (a tab, the cart
   * icon) is taken to lead there from any page, and is not made again. */
  const leadsEverywhere = new Map<string, Map<string, string>>();
  const sameEverywhere = (key: string): string | undefined => {
    const seen = leadsEverywhere.get(key);
    if (!seen || seen.size < 2) return undefined;
    const places = new Set(seen.values());
    return places.size === 1 ? [...places][0] : undefined;
  };
  const origin = new URL(page.url()).origin;
  const here = () => (page.url().startsWith(origin) ? placeOf(page.url()) : page.url());
  const startPlace = here();

  /** Taps one tappable and waits for the page it opens; false when nothing opened. */
  async function tapAndWait(id: number, from: string): Promise<boolean> {
    // The element's own click, as a tap delivers it: Playwright's pointer click waits for every element to stand
    // still and uncovered, which multiplied by hundreds of taps passes the time a crawl may take.
    const clicked = await timed('click', () =>
      page.evaluate((crawlId) => {
        const element = document.querySelector<HTMLElement>(`[data-crawl-id="${crawlId}"]`);
        element?.click();
        return element !== null;
      }, id),
    ).catch(() => false);
    if (!clicked) return false;
    // Taro's router changes the history as a tap opens a page: a tap that changed none within a moment opened
    // nothing (a tap that asks the server first, a guard or a save, gets longer once the history moved).
    const leaving = Date.now() + 150;
    await timed('leave', async () => {
      while (here() === from && Date.now() < leaving) await page.waitForTimeout(25);
    });
    // A tap that asked the server (an upload, a save) may still open a page: its answers are waited for.
    if (here() === from && running > 0) await timed('answers', () => settle(page, () => running, 3000));
    await answerOverlays(page, options.avoid);
    // A confirmed question may open its page a moment later.
    const confirmed = Date.now() + 150;
    while (here() === from && Date.now() < confirmed) await page.waitForTimeout(25);
    if (here() === from) return false;
    await timed('settle', () => settle(page, () => running));
    return true;
  }

  /**
   * Back to `place` after a tap led away: the back button; when a redirect or a tab switch left no way back, back
   * to the start page (the first in the browser's history) and the same taps again.
   */
  async function returnTo(place: string, trail: Step[]): Promise<boolean> {
    // Back on a page the trail passed (a choice sent the shopper back to the form it was for): that page goes on.
    const onTrail = () => trail.some((step) => step.from === here());
    for (let attempt = 0; attempt < 3 && here() !== place && !onTrail(); attempt += 1) {
      await timed('back', () => page.goBack({ timeout: 5000 }).catch(() => undefined));
      await settle(page, () => running, 2000);
    }
    if (here() === place) return true;
    if (!onTrail()) {
      for (let attempt = 0; attempt < 40 && here() !== startPlace; attempt += 1) {
        if (!page.url().startsWith(origin)) {
          await page.goForward({ timeout: 5000 }).catch(() => undefined);
          await settle(page, () => running, 2000);
          break;
        }
        await page.goBack({ timeout: 5000 }).catch(() => undefined);
        await page.waitForTimeout(50);
      }
      await settle(page, () => running, 2000);
      if (here() !== startPlace) {
        // On another tab page: its tab bar leads home.
        const home = page.locator('.taro_page:visible .tab-bar__label', { hasText: 'Home' }).last();
        if ((await home.count()) > 0) await home.click({ timeout: 1500 }).catch(() => undefined);
        await settle(page, () => running, 2000);
      }
      if (here() !== startPlace) return false;
    }
    // The same taps again from the last page of the trail on screen (the start page, at worst).
    let from = -1;
    trail.forEach((step, index) => {
      if (step.from === here()) from = index;
    });
    if (from < 0) return false;
    for (const step of trail.slice(from)) {
      if (options.fills) await fillFields(page, options.fills);
      const target = (await tappables(page)).find((item) => item.key === step.key);
      if (!target || !(await tapAndWait(target.id, here()))) return false;
    }
    return here() === place;
  }

  async function explore(trail: Step[], depth: number): Promise<void> {
    const place = here();
    const placeUrl = page.url();
    const placeShape = shapeOf(placeUrl);
    const route = routeOf(page.url());
    result.explored.add(shapeOf(page.url()));
    const tapped = new Set<string>();
    // Where taps of each kind led on this page: a kind whose first two taps led to the same route is a list of
    // instances (colour chips, goods, rows), and the rest of it leads there too.
    const kindRoutes = new Map<string, string[]>();
    const kindCount = new Map<string, number>();
    const stayed = new Map<string, number>();
    const revealers = new Set<string>();
    const retapped = new Map<string, number>();
    const known = (item: Tappable) => {
      if (revealers.has(item.key) || retapped.has(item.key)) return false;
      const route = leadsTo.get(`${placeShape}|${item.key}`) ?? sameEverywhere(item.key);
      if (route && (result.explored.has(route) || (options.skipExplore?.(route) ?? false))) return true;
      // Two taps of a kind that opened nothing: the kind is the page's own controls (sorting, chips, tabs).
      if ((stayed.get(item.kind) ?? 0) >= 2) return true;
      const routes = kindRoutes.get(item.kind) ?? [];
      return (kindCount.get(item.kind) ?? 0) >= LIST_KIND_MIN && routes.length >= 2 && routes[0] === routes[1];
    };
    for (;;) {
      if (Date.now() - started > options.budgetMs) {
        options.log?.(`out of time on ${place}`);
        return;
      }
      if (options.fills) await fillFields(page, options.fills);
      const pick = (items: Tappable[]) =>
        items.find((item) => !tapped.has(item.key) && !(item.text && options.avoid.test(item.text)) && !known(item));
      const ordered = async () => {
        const items = await timed('find', () => tappables(page));
        kindCount.clear();
        for (const item of items) kindCount.set(item.kind, (kindCount.get(item.kind) ?? 0) + 1);
        const first = depth === 0 ? (options.startWith ? [options.startWith] : []) : (options.prefer ?? []);
        // What the crawler is told to tap first comes first even when it reads like a submit: community's
        // "Publish" is a way to the publishing page, not the draft's button (ranked last, it came after every
        // other way around the community, late in a crawl that has a time budget).
        const rank = (item: Tappable) => {
          const at = first.findIndex((pattern) => pattern.test(item.text));
          if (at >= 0) return at;
          return options.last?.test(item.text) ? first.length + 1 : first.length;
        };
        return items
          .map((item, index) => ({ item, index }))
          .sort((a, b) => rank(a.item) - rank(b.item) || a.index - b.index)
          .map(({ item }) => item);
      };
      let items = await ordered();
      let next = pick(items);
      // A tap that drew more to tap (a panel, a menu) and closed again is made again once: what it drew is there.
      // Only a tap still on the page: one whose element went away (a "+ Choose a cover" that became the cover's
      // picture) cannot be made again, and trying it would end the page with its other revealers never retried.
      if (!next) {
        const onPage = new Set(items.map((item) => item.key));
        const again = [...revealers].find((key) => (retapped.get(key) ?? 0) < MAX_RETAPS && onPage.has(key));
        if (again) {
          retapped.set(again, (retapped.get(again) ?? 0) + 1);
          tapped.delete(again);
          revealers.delete(again);
          items = await ordered();
          next = pick(items);
        }
      }
      if (!next) {
        // A page still drawing (an answer on its way) has more to offer a moment later.
        await page.waitForTimeout(300);
        next = pick(await ordered());
      }
      if (!next) {
        const left = await tappables(page);
        options.log?.(
          `${'  '.repeat(depth)}done with ${place} (${left.length} tappables: ${left
            .map((item) => `${item.key}${tapped.has(item.key) ? ' tapped' : ''}${known(item) ? ' known' : ''}`)
            .join(', ')
            .slice(0, 400)})`,
        );
        return;
      }
      tapped.add(next.key);
      const before = new Set((await tappables(page)).map((item) => item.key));
      if (!(await tapAndWait(next.id, place))) {
        stayed.set(next.kind, (stayed.get(next.kind) ?? 0) + 1);
        const after = await tappables(page);
        if (after.some((item) => !before.has(item.key) && !tapped.has(item.key))) revealers.add(next.key);
        continue;
      }
      const step: Step = { key: next.key, label: next.text || next.kind, from: place };
      if (page.url().startsWith(origin)) {
        const reachedRoute = routeOf(page.url());
        const reachedShape = shapeOf(page.url());
        leadsTo.set(`${placeShape}|${next.key}`, reachedShape);
        const seen = leadsEverywhere.get(next.key) ?? new Map<string, string>();
        seen.set(placeShape, reachedShape);
        leadsEverywhere.set(next.key, seen);
        kindRoutes.set(next.kind, [...(kindRoutes.get(next.kind) ?? []), reachedRoute]);
        options.log?.(`${'  '.repeat(depth)}${route} --[${step.label}]--> ${reachedRoute}`);
        if (!result.reached.has(reachedRoute)) {
          result.reached.add(reachedRoute);
          result.trails.set(
            reachedRoute,
            [...trail, step].map((taken) => taken.label),
          );
        }
        const worthExploring =
          depth < maxDepth &&
          !result.explored.has(reachedShape) &&
          !(options.skipExplore?.(reachedShape) ?? false) &&
          reachedShape !== shapeOf(placeUrl);
        if (worthExploring) await explore([...trail, step], depth + 1);
      }
      if (!(await returnTo(place, trail))) {
        options.log?.(`lost the way back to ${place}: on ${here()}`);
        return;
      }
    }
  }

  try {
    result.reached.add(routeOf(page.url()));
    await settle(page, () => running);
    await explore([], 0);
  } finally {
    options.log?.(`time spent: ${[...timings].map(([name, ms]) => `${name} ${ms} ms`).join(', ')}`);
    page.off('filechooser', choose);
    page.off('request', request);
    page.off('requestfinished', finished);
    page.off('requestfailed', finished);
  }
}

export function emptyResult(): CrawlResult {
  return { reached: new Set(), explored: new Set(), trails: new Map() };
}

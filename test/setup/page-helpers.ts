/**
 * Helpers shared by the page suites that fake the product API by route (test/pages/shop, test/pages/order):
 * the fake itself, waiting for and finding text on the page on screen, and clicking.
 */
import Taro from '@tarojs/taro';
import type { ApiRoute } from '../../types/contract';
import { type Answer, type FakeBody, currentPageElement, ok } from './mount-app';

export type { Answer, FakeBody, FakeData } from './mount-app';
export { ok };

/** A fake of one route: what it answers to a request (the request as the app sent it). */
type Handler<R extends ApiRoute> = (body: FakeBody<R>) => Answer<R>;
/** Fakes by route: only the contract's routes, each answering its own answer's shape. */
export type FakeRoutes = { [R in ApiRoute]?: Handler<R> };

export interface FakeApi {
  /** Every call made, as `METHOD /path` with its body (GET: query). */
  calls: { route: string; body: Record<string, unknown> }[];
  on<R extends ApiRoute>(route: R, handler: Handler<R>): void;
  bodiesOf<R extends ApiRoute>(route: R): FakeBody<R>[];
}

/**
 * Taro.request faked at its boundary: answers by `METHOD /path`, 404 for anything not set up. The shop config
 * is answered by default, as every page's header asks for it; `defaults` adds more standing answers.
 */
export function fakeApi(defaults: FakeRoutes = {}): FakeApi {
  const standing: FakeRoutes = { 'GET /api/config/shop_config': () => ok({ shop_name: 'Lensmate', shop_logo: '' }) };
  const handlers = new Map<string, (body: Record<string, unknown>) => { status: number; msg?: string; data?: unknown }>(
    Object.entries({ ...standing, ...defaults }) as never,
  );
  const calls: FakeApi['calls'] = [];
  jest.spyOn(Taro, 'request').mockImplementation(((options: Taro.request.Option) => {
    const path = options.url.replace(/^https?:\/\/[^/]+/, '').split('?')[0];
    const route = `${options.method ?? 'GET'} ${path}`;
    const body = (options.data ?? {}) as Record<string, unknown>;
    calls.push({ route, body });
    const handler = handlers.get(route);
    const answer = handler ? handler(body) : { status: 404, msg: `no fake for ${route}` };
    return Promise.resolve({
      data: { msg: 'ok', data: null, ...answer },
      statusCode: 200,
      header: {},
      errMsg: 'request:ok',
    });
  }) as never);
  return {
    calls,
    on(route, handler) {
      handlers.set(route, handler as never);
    },
    bodiesOf(route) {
      return calls.filter((call) => call.route === route).map((call) => call.body as never);
    },
  };
}

export const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The text of the page on screen (pages left by navigateTo stay hidden in the DOM). */
export function textOf(): string {
  try {
    return currentPageElement().textContent ?? '';
  } catch {
    return '';
  }
}

/** Waits until `find` answers something (or throws after 8 s: other suites may be loading the machine). */
export async function waitFor<T>(find: () => T | null | undefined | false, what = 'element'): Promise<T> {
  for (let i = 0; i < 400; i += 1) {
    const found = find();
    if (found) return found;
    await wait(20);
  }
  throw new Error(`Timed out waiting for ${what}; the page shows: ${textOf().slice(0, 400)}`);
}

export async function waitForText(text: string): Promise<void> {
  await waitFor(() => textOf().includes(text), `text "${text}"`);
}

/** The innermost element whose text is exactly `text` (the nth such, counting innermost ones, when given). */
export function byText(text: string, nth?: number): HTMLElement {
  const all = Array.from(currentPageElement().querySelectorAll<HTMLElement>('*')).filter(
    (element) => element.textContent?.trim() === text,
  );
  const innermost = all.filter((element) => !all.some((other) => other !== element && element.contains(other)));
  const element = nth === undefined ? all[all.length - 1] : innermost[nth];
  if (!element) throw new Error(`No element with text "${text}"; the page shows: ${textOf().slice(0, 400)}`);
  return element;
}

export function click(element: Element): void {
  element.dispatchEvent(new MouseEvent('click', { bubbles: true }));
}

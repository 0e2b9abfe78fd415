import { type PageParams, currentToken, currentUser, rememberTarget, takeRememberedTarget } from '@/state/customer';
import Taro from '@tarojs/taro';
import {
  HOME_PAGE,
  LOGIN_PAGE,
  NAMED_TARGETS,
  type NamedTarget,
  isProtectedPage,
  isTabPage,
  normalizePath,
} from './routes';
import { type RouteEntry, readStorage, writeStorage } from './storage';

export const MAX_ROUTE_ENTRIES = 20;
export const ADMIN_ONLY_MESSAGE = 'Only administrators can open the admin area';

/** Internal keys Taro adds to page params; they are not part of a page's data. */
const TARO_INTERNAL_PARAMS = new Set(['$taroTimestamp', 'stamp']);

export function buildUrl(path: string, query: PageParams = {}): string {
  const search = Object.entries(query)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`)
    .join('&');
  return search ? `${path}?${search}` : path;
}

function sameQuery(a: PageParams, b: PageParams): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/**
 * The route stack after a page is shown: a page identical to the last entry is not added again; a reload
 * (the first page shown after the app starts) of the last entry's page replaces that entry; the oldest
 * entries drop off beyond 20.
 */
export function pushRoute(stack: readonly RouteEntry[], entry: RouteEntry, isReload: boolean): RouteEntry[] {
  const last = stack[stack.length - 1];
  if (last && last.path === entry.path && sameQuery(last.query, entry.query)) {
    return [...stack];
  }
  const kept = last && isReload && last.path === entry.path ? stack.slice(0, -1) : stack;
  return [...kept, entry].slice(-MAX_ROUTE_ENTRIES);
}

export function routeStack(): RouteEntry[] {
  const stack = readStorage('routeStack');
  return Array.isArray(stack) ? stack : [];
}

let recordedSinceLaunch = false;

/**
 * Records a shown page in the route stack kept in storage. The login page is a detour, never a place to go
 * back to, so it is not recorded.
 */
export function recordRoute(entry: RouteEntry): void {
  const normalized = { path: normalizePath(entry.path), query: entry.query };
  if (normalized.path === LOGIN_PAGE) return;
  writeStorage('routeStack', pushRoute(routeStack(), normalized, !recordedSinceLaunch));
  recordedSinceLaunch = true;
}

/** The page on screen, from Taro's router. */
export function currentRoute(): RouteEntry {
  const router = Taro.getCurrentInstance().router;
  const query: PageParams = {};
  for (const [key, value] of Object.entries(router?.params ?? {})) {
    if (!TARO_INTERNAL_PARAMS.has(key) && value !== undefined) query[key] = String(value);
  }
  return { path: normalizePath(router?.path ?? HOME_PAGE), query };
}

/** Opens a page in the way its kind needs: tab pages by tab switch, others by navigate with the query. */
function show(path: string, query: PageParams = {}): Promise<unknown> {
  if (isTabPage(path)) return Taro.switchTab({ url: normalizePath(path) });
  return Taro.navigateTo({ url: buildUrl(path, query) });
}

function sendToLogin(path: string, query: PageParams, replace: boolean): Promise<unknown> {
  rememberTarget(normalizePath(path), query);
  return replace ? Taro.redirectTo({ url: LOGIN_PAGE }) : Taro.navigateTo({ url: LOGIN_PAGE });
}

/** Opens a page; a protected page without a stored token is remembered and the user goes to login instead. */
export function openPage(path: string, query: PageParams = {}): Promise<unknown> {
  if (isProtectedPage(path) && !currentToken()) {
    return sendToLogin(path, query, false);
  }
  return show(path, query);
}

/**
 * For a protected page that was opened directly (a link or a reload): true when the user may stay; otherwise
 * the page is remembered and replaced by login.
 */
export function requireLogin(route: RouteEntry = currentRoute()): boolean {
  if (currentToken()) return true;
  void sendToLogin(route.path, route.query, true);
  return false;
}

/**
 * Opens a named target. `admin` opens the admin edit list only for a signed-in user with is_admin: a guest
 * goes to login first, any other user is told the area is for administrators.
 */
export function goTo(target: NamedTarget, query: PageParams = {}): Promise<unknown> {
  const path = NAMED_TARGETS[target];
  if (target === 'admin') {
    const user = currentUser();
    if (!user?.token) return sendToLogin(path, query, false);
    if (!user.is_admin) {
      return Taro.showToast({ title: ADMIN_ONLY_MESSAGE, icon: 'none', duration: 2000 });
    }
  }
  return openPage(path, query);
}

/** Go-home relaunches the index page. */
export function goHome(): Promise<unknown> {
  return Taro.reLaunch({ url: HOME_PAGE });
}

/**
 * How many pages back the live page stack holds this page (its route and at least this query), 0 when it does
 * not. WeChat keeps at most ten pages: returning to a page that is still open must go back to it, not open it
 * again on top (a checkout that redirects back from its address and shipping pages would pass ten).
 */
function pagesBackTo(path: string, query: PageParams): number {
  const pages = Taro.getCurrentPages() as { route?: string; options?: Record<string, unknown> }[];
  for (let index = pages.length - 2; index >= 0; index -= 1) {
    const { route, options = {} } = pages[index];
    const sameQuery = Object.entries(query).every(([key, value]) => String(options[key]) === value);
    if (route && normalizePath(route) === normalizePath(path) && sameQuery) return pages.length - 1 - index;
  }
  return 0;
}

/** Opens a recorded page by the rule for its kind, then falls back to a plain navigate and a relaunch. */
function reopen(entry: RouteEntry): Promise<unknown> {
  if (isTabPage(entry.path)) {
    return Taro.switchTab({ url: entry.path }).catch(() => Taro.reLaunch({ url: entry.path }));
  }
  const back = pagesBackTo(entry.path, entry.query);
  if (back > 0) return Taro.navigateBack({ delta: back });
  const url = buildUrl(entry.path, entry.query);
  return Taro.redirectTo({ url })
    .catch(() => Taro.navigateTo({ url }))
    .catch(() => Taro.reLaunch({ url }));
}

/** Back to the previously recorded page; with no history, home. */
export function goBack(): Promise<unknown> {
  const stack = routeStack();
  const current = currentRoute();
  if (stack.length > 0 && stack[stack.length - 1].path === current.path) {
    stack.pop();
  }
  writeStorage('routeStack', stack);
  const previous = stack[stack.length - 1];
  return previous ? reopen(previous) : goHome();
}

/** The pages of signing in (login, forgotten password, registration): never where a login returns to. */
function isAccountPage(path: string): boolean {
  return /^\/pages\/(login|regist)\//.test(normalizePath(path));
}

/**
 * After login: the remembered protected page if there is one, else back to where the user came from before the
 * pages of signing in (a recovered password does not lead back to the forgotten-password form).
 */
export function returnAfterLogin(): Promise<unknown> {
  const { toPage, toPageParams } = takeRememberedTarget();
  if (!toPage) {
    const stack = routeStack();
    while (stack.length > 0 && isAccountPage(stack[stack.length - 1].path)) stack.pop();
    writeStorage('routeStack', stack);
    const previous = stack[stack.length - 1];
    return previous ? reopen(previous) : goHome();
  }
  if (isTabPage(toPage)) return Taro.switchTab({ url: toPage });
  const back = pagesBackTo(toPage, toPageParams);
  if (back > 0) return Taro.navigateBack({ delta: back });
  return Taro.redirectTo({ url: buildUrl(toPage, toPageParams) });
}

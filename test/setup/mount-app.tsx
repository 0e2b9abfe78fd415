/**
 * Starts the whole app in jsdom the way taro-loader's H5 entry does (createReactApp, a hash history,
 * handleAppMountWithTabbar, createRouter), so page tests exercise real page lifecycles and real navigation
 * (navigateTo, redirectTo, switchTab, reLaunch). @tarojs/test-utils-react's createApp() targets Taro 3.6's
 * createRouter signature, hence this helper.
 */
import path from 'node:path';
import { createReactApp } from '@tarojs/plugin-framework-react/dist/runtime';
import { createHashHistory, createRouter, handleAppMountWithTabbar } from '@tarojs/router';
import { window as taroWindow } from '@tarojs/runtime';
import Taro from '@tarojs/taro';
import React from 'react';
import { findDOMNode, render, unstable_batchedUpdates } from 'react-dom';
import ReactDOM from 'react-dom/client';
import type { ApiRequest, ApiResponse, ApiRoute } from '../../types/contract';

const SRC_DIR = path.resolve(__dirname, '../../src');

type RouterConfig = Parameters<typeof createRouter>[2];

interface AppConfig {
  pages: string[];
  subPackages?: Array<{ root: string; pages: string[] }>;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The page path in the location hash, e.g. '/pages/mine/index/mine'. */
export function currentHashPath(): string {
  return window.location.hash.replace(/^#/, '').split('?')[0];
}

function visiblePages(path: string): HTMLElement[] {
  return Array.from(document.querySelectorAll<HTMLElement>('.taro_page')).filter(
    (page) => page.id.split('?')[0] === path && page.style.display !== 'none',
  );
}

/** How long the helpers wait for the app: generous, as CI runs many page suites at once on 2 cores. */
export const APP_WAIT_MS = 10_000;

/** Waits until the router shows `path` and its page is rendered (or throws after 10 s with where it is instead). */
export async function waitForPath(path: string): Promise<void> {
  for (const deadline = Date.now() + APP_WAIT_MS; Date.now() < deadline; ) {
    const current = Taro.getCurrentInstance().router?.path?.split('?')[0];
    if (currentHashPath() === path && current === path && visiblePages(path).length > 0) return;
    await wait(20);
  }
  throw new Error(`Expected page ${path}, still on ${currentHashPath()}`);
}

/**
 * Mounts src/app with every page registered in src/app.config, opens `startPath` (with its query) and waits for a page.
 * `body` is the document's body before the app mounts (what a server wrote beside `<div id="app">`).
 */
export async function mountApp(startPath: string, options: { body?: string } = {}): Promise<void> {
  (globalThis as { defineAppConfig?: (config: unknown) => unknown }).defineAppConfig = (config) => config;
  // The hash is set and its asynchronous hashchange let pass first: arriving after the router started, it
  // would open the start page a second time.
  window.location.hash = `#${startPath}`;
  await wait(30);
  document.body.innerHTML = options.body ?? '<div id="app"></div>';
  const App = (jest.requireActual('@/app') as { default: React.ComponentType }).default;
  const appConfig = (jest.requireActual('@/app.config') as { default: AppConfig }).default;
  // Taro's H5 build serves subpackage pages like main-package ones: one flat route table.
  const pages = [
    ...appConfig.pages,
    ...(appConfig.subPackages ?? []).flatMap(({ root, pages: inPackage }) =>
      inPackage.map((page) => `${root}/${page}`),
    ),
  ];
  const config = {
    ...appConfig,
    pages,
    router: { mode: 'hash' },
    routes: pages.map((page) => ({
      path: page,
      load: (context: unknown, params: unknown) => [jest.requireActual(path.join(SRC_DIR, page)), context, params],
    })),
  } as unknown as RouterConfig;
  (taroWindow as unknown as { __taroAppConfig: unknown }).__taroAppConfig = config;
  Object.assign(ReactDOM, { findDOMNode, render, unstable_batchedUpdates });
  const app = createReactApp(App, React, ReactDOM, config);
  const history = createHashHistory({ window: taroWindow as unknown as Window });
  handleAppMountWithTabbar(config, history);
  createRouter(history, app, config, 'React');
  await waitForFirstPage();
}

/**
 * Waits until the first page is on screen. That is not always `startPath`: a guarded page may already have
 * sent a guest on to login, so tests that care wait for the path they expect.
 */
async function waitForFirstPage(): Promise<void> {
  for (const deadline = Date.now() + APP_WAIT_MS; Date.now() < deadline; ) {
    if (visiblePages(currentHashPath()).length > 0) return;
    await wait(20);
  }
  throw new Error(`No page rendered; the location is ${window.location.hash}`);
}

/** The element of the page on screen (hidden pages stay in the DOM under navigateTo). */
export function currentPageElement(): HTMLElement {
  const path = currentHashPath();
  const pages = visiblePages(path);
  const page = pages[pages.length - 1];
  if (!page) throw new Error(`No page element for ${path}`);
  return page;
}

/** Every level of an answer optional: a fake gives what the page reads, but each field it gives has its type. */
export type FakeData<T> = T extends (infer U)[]
  ? FakeData<U>[]
  : T extends object
    ? { [K in keyof T]?: FakeData<T[K]> }
    : T;
/** A fake's answer to a route: its success with (part of) the route's answer, or a refusal. */
export type Answer<R extends ApiRoute> = { status: 200; msg?: string; data: FakeData<ApiResponse<R>> } | Refusal;
/** A refusal (its data, when given, is null). */
export interface Refusal {
  status: 400 | 401 | 403 | 404 | 409 | 429 | 500 | 503;
  msg?: string;
}
/** The request a fake is given: what the app sent (the route's request, or less when a test sends less). */
export type FakeBody<R extends ApiRoute> = Partial<ApiRequest<R>> & Record<string, unknown>;

/**
 * The success of a route, typed by where it is used (a fake of that route): the data must have the shape of the
 * route's answer (`NoInfer`: a field the answer does not have, or of another type, fails to type-check).
 */
export function ok<T>(data: NoInfer<T>): { status: 200; msg: 'ok'; data: T } {
  return { status: 200, msg: 'ok', data };
}

/** A refusal as the server words it: the status, the message and no data. */
export function refusal(status: Refusal['status'], msg: string): Refusal {
  return { status, msg, data: null } as Refusal;
}

type PathOf<R> = R extends `${string} ${infer P}` ? P : never;
type RouteOf<P extends string> = Extract<ApiRoute, `${string} ${P}`>;
/** Fakes by path (the contract's paths only): an answer, or a function of the sent data answering one. */
export type ApiAnswers = {
  [P in PathOf<ApiRoute>]?: Answer<RouteOf<P>> | ((data: FakeBody<RouteOf<P>>) => Answer<RouteOf<P>>);
};

/**
 * Fakes the product API at its boundary, Taro.request: answers by path (without the API base) with a body
 * or a function of the sent data; paths without an answer fail like a network error. Returns the sent calls.
 */
export function fakeApi(answers: ApiAnswers): Array<{ path: string; method?: string; data: unknown; header: unknown }> {
  const calls: Array<{ path: string; method?: string; data: unknown; header: unknown }> = [];
  jest.spyOn(Taro, 'request').mockImplementation(((options: Taro.request.Option) => {
    const path = options.url.replace(LENSMATE_API_BASE, '').split('?')[0];
    calls.push({ path, method: options.method, data: options.data, header: options.header });
    if (!(path in answers)) return Promise.reject(new Error(`request:fail no answer for ${path}`));
    const answer = answers[path as keyof ApiAnswers];
    const body = typeof answer === 'function' ? (answer as (data: unknown) => unknown)(options.data) : answer;
    return Promise.resolve({ statusCode: 200, data: body, header: {}, cookies: [], errMsg: 'request:ok' });
  }) as never);
  return calls;
}

/** Types into a Taro <Input> on H5: a web component that renders its real <input> asynchronously. */
export async function typeInto(container: HTMLElement, name: string, value: string): Promise<void> {
  for (const deadline = Date.now() + APP_WAIT_MS; Date.now() < deadline; ) {
    const input = container.querySelector<HTMLInputElement>(`input[name="${name}"]`);
    if (input) {
      input.value = value;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      return;
    }
    await wait(20);
  }
  throw new Error(`No input named ${name}`);
}

/**
 * Like mountApp (test/setup/mount-app.tsx), with the subpackage pages routed too: the account and admin
 * pages live in subpackages.
 */
import path from 'node:path';
import { createReactApp } from '@tarojs/plugin-framework-react/dist/runtime';
import { createHashHistory, createRouter, handleAppMountWithTabbar } from '@tarojs/router';
import { window as taroWindow } from '@tarojs/runtime';
import TestUtils from '@tarojs/test-utils-react';
import React from 'react';
import { findDOMNode, render, unstable_batchedUpdates } from 'react-dom';
import ReactDOM from 'react-dom/client';
import { currentPageElement, waitForPath } from '../../setup/mount-app';

export { currentPageElement, fakeApi, typeInto, waitForPath } from '../../setup/mount-app';

const SRC_DIR = path.resolve(__dirname, '../../../src');

interface AppConfig {
  pages: string[];
  subPackages?: { root: string; pages: string[] }[];
  routes?: unknown[];
  router?: unknown;
  [key: string]: unknown;
}

export async function mountPages(startPath: string): Promise<void> {
  (globalThis as { defineAppConfig?: (config: unknown) => unknown }).defineAppConfig = (config) => config;
  window.location.hash = `#${startPath}`;
  document.body.innerHTML = '<div id="app"></div>';
  const App = (jest.requireActual('@/app') as { default: React.ComponentType }).default;
  const config = { ...(jest.requireActual('@/app.config') as { default: AppConfig }).default };
  const all = [
    ...config.pages,
    ...(config.subPackages ?? []).flatMap((pkg) => pkg.pages.map((page) => `${pkg.root}/${page}`)),
  ];
  config.router = { mode: 'hash' };
  config.routes = all.map((page) => ({
    path: page,
    load: (context: unknown, params: unknown) => [jest.requireActual(path.join(SRC_DIR, page)), context, params],
  }));
  (taroWindow as unknown as { __taroAppConfig: unknown }).__taroAppConfig = config;
  Object.assign(ReactDOM, { findDOMNode, render, unstable_batchedUpdates });
  const app = createReactApp(App, React, ReactDOM, config);
  const history = createHashHistory({ window: taroWindow as unknown as Window });
  handleAppMountWithTabbar(config as never, history);
  createRouter(history, app, config as never, 'React');
  await waitForPath(startPath.split('?')[0]);
}

export const tu = new TestUtils();

/** The page on screen, set as the container of `tu.queries`. */
export function page(): HTMLElement {
  const element = currentPageElement();
  tu.queries.setContainer(element);
  return element;
}

/** Waits (3 s at most) for `text` on the page on screen, looking again at whichever page is on screen each time. */
async function find(text: string): Promise<HTMLElement> {
  for (let i = 0; i < 150; i += 1) {
    try {
      page();
      const found = tu.queries.queryByText(text) as HTMLElement | null;
      if (found) return found;
    } catch {
      // no page on screen during a page switch
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`"${text}" is not on ${window.location.hash}`);
}

/** Clicks the innermost element of the page on screen whose text contains `text`. */
export async function tap(text: string): Promise<void> {
  // Lets React apply what was just typed, so the click handler sees the current form.
  await new Promise((resolve) => setTimeout(resolve, 20));
  tu.fireEvent.click(await find(text));
}

export async function see(text: string): Promise<void> {
  await find(text);
}

export function shows(text: string): boolean {
  page();
  return tu.queries.queryByText(text) !== null;
}

export const ok = <T,>(data: T) => ({ status: 200, msg: 'ok', data });
export const refused = (status: number, msg: string) => ({ status, msg, data: null });

/** Types into a Taro <Textarea> on H5 (a web component around a real <textarea>). */
export async function typeIntoTextarea(container: HTMLElement, name: string, value: string): Promise<void> {
  for (let i = 0; i < 100; i += 1) {
    const field = container.querySelector<HTMLTextAreaElement>(`textarea[name="${name}"]`);
    if (field) {
      field.value = value;
      field.dispatchEvent(new Event('input', { bubbles: true }));
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`No textarea named ${name}`);
}

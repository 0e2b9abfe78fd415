/**
 * Starts the whole app in jsdom the way taro-loader's H5 entry does (createReactApp, a hash history,
 * handleAppMountWithTabbar, createRouter), so page tests exercise real page lifecycles and real navigation
 * (navigateTo, redirectTo, switchTab, reLaunch). @tarojs/test-utils-react's createApp() targets Taro 3.6's
 * createRouter signature, hence this helper.
 */
import { createReactApp } from '@tarojs/plugin-framework-react/dist/runtime';
import { createHashHistory, createRouter, handleAppMountWithTabbar } from '@tarojs/router';
import { window as taroWindow } from '@tarojs/runtime';
import Taro from '@tarojs/taro';
import React from 'react';
import { findDOMNode, render, unstable_batchedUpdates } from 'react-dom';
import ReactDOM from 'react-dom/client';

type PageLoader = () => { default: React.ComponentType };

interface AppConfigWithRoutes {
  pages: string[];
  routes?: unknown[];
  router?: unknown;
  [key: string]: unknown;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The page path in the location hash, e.g. '/pages/mine/index/mine'. */
export function currentHashPath(): string {
  return window.location.hash.replace(/^#/, '').split('?')[0];
}

/** Waits until the router shows `path` (or throws after 3 s with where it is instead). */
export async function waitForPath(path: string): Promise<void> {
  for (let i = 0; i < 150; i += 1) {
    const current = Taro.getCurrentInstance().router?.path?.split('?')[0];
    if (currentHashPath() === path && current === path) return;
    await wait(20);
  }
  throw new Error(`Expected page ${path}, still on ${currentHashPath()}`);
}

/**
 * Mounts src/app with every page of src/app.config and opens `startPath` (with its query).
 * The loaders are explicit requires so jest resolves them like any import.
 */
export async function mountApp(startPath: string, pages: Record<string, PageLoader>): Promise<void> {
  (globalThis as { defineAppConfig?: (config: unknown) => unknown }).defineAppConfig = (config) => config;
  window.location.hash = `#${startPath}`;
  document.body.innerHTML = '<div id="app"></div>';
  const App = (jest.requireActual('@/app') as { default: React.ComponentType }).default;
  const config = {
    ...(jest.requireActual('@/app.config') as { default: AppConfigWithRoutes }).default,
  };
  config.router = { mode: 'hash' };
  config.routes = config.pages.map((path) => {
    const loader = pages[path];
    if (!loader) throw new Error(`mountApp: no loader for page ${path}`);
    return {
      path,
      load: (context: unknown, params: unknown) => [loader(), context, params],
    };
  });
  (taroWindow as unknown as { __taroAppConfig: unknown }).__taroAppConfig = config;
  Object.assign(ReactDOM, { findDOMNode, render, unstable_batchedUpdates });
  const app = createReactApp(App, React, ReactDOM, config);
  const history = createHashHistory({ window: taroWindow as unknown as Window });
  handleAppMountWithTabbar(config, history);
  createRouter(history, app, config, 'React');
  await waitForPath(startPath.split('?')[0]);
}

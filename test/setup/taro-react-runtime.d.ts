/** Taro ships its React runtime entry without types; the app harness uses this one function of it. */
declare module '@tarojs/plugin-framework-react/dist/runtime' {
  import type { AppInstance } from '@tarojs/runtime';

  export function createReactApp(App: unknown, react: unknown, reactDOM: unknown, config: unknown): AppInstance;
}

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { type UserConfigExport, defineConfig } from '@tarojs/cli';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import webpack from 'webpack';
import devConfig from './dev';
import { DESIGN_WIDTH, DEVICE_RATIO, ROOT_FONT, rootFontSizeCss } from './h5/root-font-size';
import prodConfig from './prod';

/**
 * The API base and the messaging host come from the environment of the build, so one codebase
 * serves the embedded default (H5 on the same origin as the API: an empty base) and a deployed
 * mini-program (which needs an absolute https base whitelisted in the WeChat admin).
 */
const apiBase = process.env.LENSMATE_API_BASE ?? (process.env.TARO_ENV === 'h5' ? '' : 'http://127.0.0.1:3000');
const messagingHost = process.env.LENSMATE_MESSAGING_HOST ?? '';
const messagingAppKey = process.env.LENSMATE_MESSAGING_APPKEY ?? 'BC-lensmate-demo';
const messagingForceTLS = process.env.LENSMATE_MESSAGING_TLS ?? '';
const googleClientId = process.env.LENSMATE_GOOGLE_CLIENT_ID ?? '';

/**
 * esbuild minifies the ~60 H5 page chunks several times faster than terser (about 30 s instead of 200 s), for a
 * few % more bytes. Its target is what the output already needs (let/const and async arrive untranspiled from
 * packages). Taro 4.2.1 reads `jsMinimizer` for H5 too, but its IH5Config type does not list it, hence a spread.
 */
const h5Minifier = {
  jsMinimizer: 'esbuild',
  esbuild: { minify: { enable: true, config: { target: 'es2020', legalComments: 'none' } } },
};

/**
 * Taro splits H5 chunks with `chunks: 'initial'`, and every page is an async chunk of the router, so each page
 * carried its own copy of everything it shares with other pages (Taro's components, React helpers, our features):
 * about 300 KB raw per page, 34 MB in all, 90 KB gzip fetched on opening the product page after home. Splitting
 * async chunks too keeps one copy of each shared module (4 MB in all, 5 KB gzip for that product page). Shared
 * pieces under 10 KB stay inside the pages that use them: home loads 6 scripts rather than 14 tiny ones.
 */
/**
 * LENSMATE_STATS=<file> writes webpack's chunks and their modules there (either build): what
 * `.tmp`-free analysis of the first load and of the main package starts from (README "Performance").
 */
function writeStatsWhenAsked(chain: { plugin(name: string): { use(plugin: unknown): unknown } }): void {
  const file = process.env.LENSMATE_STATS;
  if (!file) return;
  class WriteStats {
    apply(compiler: {
      hooks: { done: { tap(name: string, fn: (stats: { toJson(o: object): unknown }) => void): void } };
    }) {
      compiler.hooks.done.tap('lensmate-stats', (stats) => {
        const json = stats.toJson({
          all: false,
          chunks: true,
          chunkModules: true,
          ids: true,
          chunkModulesSpace: 100000,
          nestedModules: true,
          nestedModulesSpace: 100000,
          dependentModules: true,
        });
        writeFileSync(file as string, JSON.stringify(json));
      });
    }
  }
  chain.plugin('lensmate-stats').use(WriteStats);
}

/**
 * base.wxml holds every component's template once per level of depth; a tree deeper than baseLevel renders on
 * through Taro's recursive `comp` component. 8 levels instead of 16 is 19 KB less in the main package (README
 * "Performance"). Taro reads it, its IMiniAppConfig type does not list it, hence a spread. (Taro's minifyXML
 * would save 4 KB more, but writes `<input ...>` without its closing slash, which WXML's parser refuses.)
 */
const miniTemplates = { baseLevel: 8 };

const htmlComponents = path.resolve(__dirname, '..', 'src', 'ui', 'html-components', 'index.tsx');
const noTabbarElement = path.resolve(__dirname, 'h5', 'no-tabbar-element.js');

const h5SplitChunks = { chunks: 'all', minSize: 10_000 };

/**
 * Taro injects its own stylesheets (@tarojs/components' global.css and taro-components.css, components-react's
 * index.css: 51 KB of CSS) with style-loader at the top of <head> when the app's script runs, so the first load's
 * JavaScript carried them as strings, and the app's first task parsed them and restyled the whole prerendered
 * page (README "Performance"). Extracted like the app's own styles, they are part of app.css, parsed before the
 * first paint. components-react's index.css is imported by Taro's entry after the app, so the entry starts with
 * the three: Taro's rules come first in app.css and the app's own still override them, as when they were at the
 * top of <head>. (A stylesheet of their own cost the first paint a connection more: FCP 150 ms later in Lighthouse.)
 */
const taroStyles = [
  '@tarojs/components/dist/taro-components/taro-components.css',
  '@tarojs/components/global.css',
  '@tarojs/components-react/dist/index.css',
].map((style) => require.resolve(style));
function extractTaroStyles(chain: {
  entry(name: string): { prepend(path: string): unknown };
  module: { rule(name: string): { uses: { clear(): void }; use(name: string): { loader(path: string): unknown } } };
}): void {
  const rule = chain.module.rule('taroStyle');
  rule.uses.clear();
  rule.use('extract').loader(MiniCssExtractPlugin.loader);
  // prepend puts each in front of the entry: the last one prepended is the first.
  for (const style of [...taroStyles].reverse()) chain.entry('app').prepend(style);
}

/** types/ (the API contract shared with the server) sits outside src/, so Taro must be told to compile it. */
const sharedTypesDir = path.resolve(__dirname, '..', 'types');

/**
 * optimizeMainPackage moves a module that only subpackages use into each of those subpackages (their
 * `sub-common`), so the messaging SDK and the shared chat code were bundled once per chat subpackage
 * (message, groupChat, chat, ...). Excluded modules stay in the main package's common chunk instead:
 * one copy, loaded once, shared by every subpackage.
 */
const sharedOnceDirs = ['messaging', 'features/chat'].map(
  (dir) => `${path.join(path.resolve(__dirname, '..', 'src'), dir)}${path.sep}`,
);
function keptInMainPackage(module: { resource?: string }): boolean {
  const resource = module.resource ?? '';
  return sharedOnceDirs.some((dir) => resource.startsWith(dir));
}

export default defineConfig<'webpack5'>(async (merge) => {
  const baseConfig: UserConfigExport<'webpack5'> = {
    projectName: 'lensmate',
    date: '2026-11-22',
    designWidth: DESIGN_WIDTH,
    deviceRatio: DEVICE_RATIO,
    sourceRoot: 'src',
    alias: { '@': path.resolve(__dirname, '..', 'src') },
    // LENSMATE_OUT lets parallel work build into its own folder (the server reads H5_DIR, size.mjs the same two).
    outputRoot: process.env.LENSMATE_OUT || `dist/${process.env.TARO_ENV}`,
    plugins: ['@tarojs/plugin-html'],
    defineConstants: {
      LENSMATE_API_BASE: JSON.stringify(apiBase),
      LENSMATE_MESSAGING_HOST: JSON.stringify(messagingHost),
      LENSMATE_MESSAGING_APPKEY: JSON.stringify(messagingAppKey),
      LENSMATE_MESSAGING_TLS: JSON.stringify(messagingForceTLS),
      LENSMATE_GOOGLE_CLIENT_ID: JSON.stringify(googleClientId),
    },
    copy: { patterns: [], options: {} },
    framework: 'react',
    compiler: 'webpack5',
    cache: { enable: false },
    mini: {
      compile: { include: [sharedTypesDir] },
      postcss: {
        pxtransform: { enable: true, config: {} },
        cssModules: {
          enable: false,
          config: { namingPattern: 'module', generateScopedName: '[name]__[local]___[hash:base64:5]' },
        },
      },
      optimizeMainPackage: { enable: true, exclude: [keptInMainPackage] },
      ...miniTemplates,
      webpackChain(chain) {
        writeStatsWhenAsked(chain);
      },
    },
    h5: {
      compile: { include: [sharedTypesDir] },
      ...h5Minifier,
      publicPath: '/',
      useHtmlComponents: true,
      staticDirectory: 'static',
      webpackChain(chain) {
        chain.optimization.merge({ splitChunks: h5SplitChunks });
        extractTaroStyles(chain);
        chain.plugin('no-tabbar-element').use(webpack.NormalModuleReplacementPlugin, [
          /^@tarojs\/components\/dist\/components$/,
          (resource: { context: string; request: string }) => {
            if (/[\\/]@tarojs[\\/]router[\\/]/.test(resource.context)) resource.request = noTabbarElement;
          },
        ]);
        // Taro's React HTML components, with lean ones of ours for the five they leave to Stencil.
        chain.plugin('lean-html-components').use(webpack.NormalModuleReplacementPlugin, [
          /^@tarojs\/components\/lib\/react$/,
          (resource: { context: string; request: string }) => {
            if (/[\\/]@tarojs[\\/]components-react[\\/]/.test(resource.context)) resource.request = htmlComponents;
          },
        ]);
        writeStatsWhenAsked(chain);
      },
      router: { mode: 'browser' },
      // src/index.html writes the root font-size as a rule in <head> instead of Taro's script (config/h5/root-font-size.ts).
      htmlPluginOption: { rootFontSizeCss: rootFontSizeCss() },
      output: {
        filename: 'js/[name].[hash:8].js',
        chunkFilename: 'js/[name].[chunkhash:8].js',
      },
      miniCssExtractPluginOption: {
        ignoreOrder: true,
        filename: 'css/[name].[hash].css',
        chunkFilename: 'css/[name].[chunkhash].css',
      },
      postcss: {
        pxtransform: { enable: true, config: { ...ROOT_FONT } },
        autoprefixer: { enable: true, config: {} },
        cssModules: {
          enable: false,
          config: { namingPattern: 'module', generateScopedName: '[name]__[local]___[hash:base64:5]' },
        },
      },
    },
  };
  if (process.env.NODE_ENV === 'development') {
    return merge({}, baseConfig, devConfig);
  }
  return merge({}, baseConfig, prodConfig);
});

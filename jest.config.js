/**
 * One jest run, five projects:
 * - app: the Taro app (core, state, utils, pages) in jsdom with @tarojs/test-utils-react;
 * - sdk: the messaging SDK in jsdom on Taro's H5 APIs, against a real server;
 * - node: the server, the messaging server and their clients over real sockets;
 * - e2e: the H5 build in headless Chromium (playwright-core) against a real server;
 * - weapp: the built mini-program (dist/weapp) in the headless runner of test/weapp/runner against a real server.
 * PostgreSQL and Redis suites run when LENSMATE_TEST_PG / LENSMATE_TEST_REDIS are set.
 */
const tarojest = require('@tarojs/test-utils-react/dist/jest.js').default;

const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      target: 'es2022',
      transform: { react: { runtime: 'automatic' } },
    },
    module: { type: 'commonjs' },
  },
];

// The preset's run-level options (bail, verbose) are not valid inside a project.
const {
  bail: _bail,
  verbose: _verbose,
  ...appBase
} = tarojest({
  testEnvironment: 'jsdom',
});

function tarojsProject(displayName, roots) {
  return {
    ...appBase,
    displayName,
    rootDir: __dirname,
    testMatch: roots.map((root) => `<rootDir>/test/${root}/**/*.test.{ts,tsx}`),
    transform: {
      '^.+\\.(mjs|js|jsx|ts|tsx)$': '<rootDir>/node_modules/@tarojs/test-utils-react/dist/jest/babel-transformer.js',
    },
    // Taro's H5 runtime and its ESM-only dependencies (some bundled under @tarojs/*/node_modules) need babel.
    transformIgnorePatterns: [
      '^(?!.*/node_modules/@tarojs/).*/node_modules/(?!(@stencil|swiper|ssr-window|dom7|query-string|decode-uri-component|split-on-first|filter-obj|lodash-es)/)',
    ],
    // As Taro's H5 build does: `./x` is `x.h5.ts(x)` where a module has per-platform files (x.d.ts is their interface).
    moduleFileExtensions: ['h5.ts', 'h5.tsx', ...appBase.moduleFileExtensions],
    moduleNameMapper: {
      ...(appBase.moduleNameMapper || {}),
      '\\.(css|less|sass|scss|styl)$': '<rootDir>/test/setup/style-stub.js',
      '^@/(.*)$': '<rootDir>/src/$1',
    },
    setupFiles: ['<rootDir>/test/setup/taro-env.js'],
    setupFilesAfterEnv: [],
    globals: {
      ...(appBase.globals || {}),
      LENSMATE_API_BASE: 'http://api.test',
      LENSMATE_MESSAGING_HOST: '',
      LENSMATE_MESSAGING_APPKEY: 'BC-lensmate-demo',
      LENSMATE_MESSAGING_TLS: '',
      LENSMATE_GOOGLE_CLIENT_ID: '',
    },
  };
}

function nodeProject(displayName, roots, extra = {}) {
  return {
    displayName,
    rootDir: __dirname,
    testEnvironment: 'node',
    testMatch: roots.map((root) => `<rootDir>/test/${root}/**/*.test.ts`),
    transform: { '^.+\\.(t|j)sx?$': swc },
    moduleNameMapper: { '^@/(.*)$': '<rootDir>/src/$1' },
    ...extra,
  };
}

module.exports = {
  testTimeout: 30000,
  projects: [
    tarojsProject('app', ['unit', 'pages']),
    // test/reliability: fault injection; the suites driving the SDK (test/reliability/sdk) run in jsdom.
    // test/fuzz/sdk: SDK validators and public API fuzzing, in jsdom like the SDK suites.
    tarojsProject('sdk', ['sdk', 'reliability/sdk', 'fuzz/sdk']),
    nodeProject('node', ['server', 'messaging', 'delivery', 'fuzz', 'security', 'reliability'], {
      // app.inject's light-my-request requires cookie@2, which ships ESM only: compile it to CommonJS.
      transformIgnorePatterns: ['/node_modules/(?!cookie/)'],
      testPathIgnorePatterns: ['/node_modules/', '/test/reliability/sdk/', '/test/fuzz/sdk/'],
    }),
    nodeProject('e2e', ['e2e']),
    nodeProject('weapp', ['weapp']),
  ],
};

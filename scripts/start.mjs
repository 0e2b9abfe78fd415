#!/usr/bin/env node
/**
 * `npm start`: builds the H5 site when dist/h5 has no index.html yet, then runs the server
 * (API, messaging and site on one port) with tsx. It is the embedded demo: PAYMENT_SANDBOX=1 (unless set otherwise)
 * runs the payment providers against their local fakes, and the checkout says "Test mode: no money moves".
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

const h5Dir = process.env.H5_DIR || 'dist/h5';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

if (!existsSync(resolve(h5Dir, 'index.html'))) {
  console.log(`No H5 build in ${h5Dir}: running npm run build:h5 (about half a minute)…`);
  const build = spawnSync(npm, ['run', 'build:h5'], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) {
    console.error('The H5 build failed; fix it or set H5_DIR. The server is not started.');
    process.exit(build.status ?? 1);
  }
}

const server = spawn(npx, ['tsx', 'server/main.ts'], {
  stdio: 'inherit',
  env: { PAYMENT_SANDBOX: '1', ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));

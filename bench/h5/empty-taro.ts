/**
 * The baseline of `npm run bench:h5`: an empty Taro 4 app as `taro init` writes it (React, TypeScript, webpack5,
 * no CSS preprocessor, the default template: one page saying "Hello world!"), built for H5 with the project's
 * own Taro and served as the shop serves its site (the build's precompressed files through @fastify/static).
 * `taro init` works offline: its template ships inside @tarojs/cli. Once it has written the app it starts
 * `npm install`; the bench stops it there and links this repository's node_modules instead (the same Taro 4.2.1). The
 * template's config lists @tarojs/plugin-generator (a code generator for `taro new`, not installed here): the
 * only line changed. Kept in bench/results/empty-taro between runs.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';

const root = resolve(__dirname, '../..');
const workDir = join(root, 'bench/results/empty-taro');
const appDir = join(workDir, 'emptyapp');
const distDir = join(appDir, 'dist');

/** `taro init`, answering its one question (compile to ES5?) with the default, no, and stopped at its install. */
function init(): Promise<void> {
  rmSync(workDir, { recursive: true, force: true });
  spawnSync('mkdir', ['-p', workDir]);
  const args = ['init', 'emptyapp', '--name', 'emptyapp', '--description', 'empty', '--typescript'];
  args.push('--npm', 'Npm', '--css', 'None', '--framework', 'React', '--compiler', 'Webpack5', '--template', 'default');
  const child = spawn(join(root, 'node_modules/.bin/taro'), args, {
    cwd: workDir,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
    if (/ES5/.test(String(chunk))) child.stdin.write('\n');
    // "执行安装项目依赖 npm install": every file is written; the install (and what it started) stops here.
    if (/npm install/.test(String(chunk)) && child.pid) process.kill(-child.pid, 'SIGTERM');
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  return new Promise((done, fail) => {
    child.on('exit', (code) => {
      if (existsSync(join(appDir, 'package.json'))) done();
      else fail(new Error(`taro init failed (${code}):\n${output}`));
    });
  });
}

/** Builds the empty app for H5 (once) and precompresses it as npm run build:h5 does ours. */
export async function buildEmptyTaroApp(): Promise<string> {
  if (existsSync(join(distDir, 'index.html'))) return distDir;
  if (!existsSync(join(appDir, 'config/index.ts'))) await init();
  const config = join(appDir, 'config/index.ts');
  writeFileSync(config, readFileSync(config, 'utf8').replace(/"@tarojs\/plugin-generator"/, ''));
  if (!existsSync(join(appDir, 'node_modules'))) symlinkSync(join(root, 'node_modules'), join(appDir, 'node_modules'));
  const env = { ...process.env, NODE_ENV: 'production' as const };
  const built = spawnSync(join(root, 'node_modules/.bin/taro'), ['build', '--type', 'h5'], { cwd: appDir, env });
  if (built.status !== 0 || !existsSync(join(distDir, 'index.html'))) {
    throw new Error(`the empty Taro app did not build:\n${built.stdout}\n${built.stderr}`);
  }
  spawnSync(process.execPath, [join(root, 'scripts/precompress.mjs'), distDir], { stdio: 'ignore' });
  return distDir;
}

/** Serves the empty app's build as the shop serves its own (precompressed files, the index.html fallback). */
export async function serveEmptyTaroApp(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const app = Fastify();
  await app.register(fastifyStatic, { root: dir, prefix: '/', wildcard: false, preCompressed: true });
  app.setNotFoundHandler((_request, reply) => reply.type('text/html').sendFile('index.html', dir));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() };
}

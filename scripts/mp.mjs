#!/usr/bin/env node
/**
 * The mini-program delivery through miniprogram-ci, on the weapp build in dist/weapp.
 *   node scripts/mp.mjs check    compile offline (project attributes supplied locally), run the
 *                                code-quality check; fails on any compile error
 *   node scripts/mp.mjs preview  build, then preview on WeChat's servers (needs credentials and network)
 *   node scripts/mp.mjs upload   build, then upload version 1.0.5 (code 105) with the git commit as description
 * Credentials come from the environment: WEAPP_APPID and WEAPP_PRIVATE_KEY_PATH (or WEAPP_PRIVATE_KEY).
 */
import { execSync, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ci from 'miniprogram-ci';

const VERSION = '1.0.5';
const VERSION_CODE = 105;
const projectPath = resolve('dist/weapp');
const command = process.argv[2];

function fail(message) {
  console.error(`mp ${command}: ${message}`);
  process.exit(1);
}

function build() {
  const result = spawnSync('npm', ['run', '-s', 'build:weapp'], { stdio: 'inherit' });
  if (result.status !== 0) fail('the weapp build failed');
}

function gitDescription() {
  try {
    return execSync('git log -1 --format="%h %s"', { encoding: 'utf8' }).trim().slice(0, 100);
  } catch {
    return `Lensmate ${VERSION}`;
  }
}

function credentials() {
  const missing = [];
  const appid = process.env.WEAPP_APPID;
  const privateKeyPath = process.env.WEAPP_PRIVATE_KEY_PATH;
  const privateKey = process.env.WEAPP_PRIVATE_KEY;
  if (!appid) missing.push('WEAPP_APPID (the mini-program appid)');
  if (!privateKeyPath && !privateKey) {
    missing.push('WEAPP_PRIVATE_KEY_PATH or WEAPP_PRIVATE_KEY (the code-upload key from the WeChat admin)');
  }
  if (privateKeyPath && !existsSync(privateKeyPath)) missing.push(`the private key file ${privateKeyPath}`);
  if (missing.length) fail(`missing ${missing.join(', ')}`);
  return { appid, privateKeyPath, privateKey };
}

const compileSetting = { es6: false, es7: false, minify: false, autoPrefixWXSS: true, codeProtect: false };

async function check() {
  if (!existsSync(resolve(projectPath, 'app.json'))) build();
  // The offline compile never signs anything, but the Project requires a key: a throwaway one.
  const keyDir = mkdtempSync(join(tmpdir(), 'lensmate-mp-'));
  const throwawayKey = join(keyDir, 'offline.key');
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  writeFileSync(throwawayKey, privateKey.export({ type: 'pkcs1', format: 'pem' }));
  const project = new ci.Project({
    appid: process.env.WEAPP_APPID || 'wx0000000000000000',
    type: 'miniProgram',
    projectPath,
    privateKeyPath: throwawayKey,
    ignores: ['node_modules/**/*'],
  });
  // Offline: the attributes normally fetched from WeChat's servers are supplied here.
  project.attr = async () => ({
    platform: false,
    appType: 0,
    isSandbox: false,
    released: false,
    setting: { MaxCodeSize: 2, MaxSubpackageSubCodeSize: 2, MaxSubpackageFullCodeSize: 30 },
  });
  const started = Date.now();
  const compiled = await ci.getCompiledResult({
    project,
    version: VERSION,
    desc: gitDescription(),
    setting: compileSetting,
  });
  console.log(`compiled ${Object.keys(compiled).length} files in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const quality = await ci.checkCodeQuality(project);
  let failedChecks = 0;
  for (const item of quality) {
    console.log(`  ${item.success ? 'ok  ' : 'warn'} ${item.name}${item.text ? `: ${item.text}` : ''}`);
    if (!item.success) failedChecks += 1;
  }
  console.log(`code quality: ${quality.length - failedChecks} of ${quality.length} checks pass`);
  const sizeCheck = quality.find((item) => item.name === 'PACKAGE_SIZE_LIMIT');
  if (sizeCheck && !sizeCheck.success) fail(`package size check failed: ${sizeCheck.text}`);
}

async function publish(kind) {
  const { appid, privateKeyPath, privateKey } = credentials();
  build();
  const project = new ci.Project({
    appid,
    type: 'miniProgram',
    projectPath,
    privateKeyPath,
    privateKey,
    ignores: ['node_modules/**/*'],
  });
  const options = { project, version: VERSION, desc: gitDescription(), setting: compileSetting, robot: 1 };
  try {
    if (kind === 'preview') {
      await ci.preview({ ...options, qrcodeFormat: 'image', qrcodeOutputDest: resolve('dist/preview-qrcode.jpg') });
      console.log('preview QR code written to dist/preview-qrcode.jpg');
    } else {
      await ci.upload(options);
      console.log(`uploaded version ${VERSION} (code ${VERSION_CODE})`);
    }
  } catch (error) {
    fail(`WeChat's servers could not be reached or refused the request: ${error?.message ?? error}`);
  }
}

if (command === 'check') await check().catch((error) => fail(error?.stack ?? String(error)));
else if (command === 'preview' || command === 'upload') await publish(command);
else fail('usage: node scripts/mp.mjs check|preview|upload');
// miniprogram-ci leaves a file watcher open; the work is done.
process.exit(0);

#!/usr/bin/env node
/**
 * The one command that runs every test: builds H5 when missing (the browser tests load it), runs
 * every jest project (app, sdk, node, e2e) in one run, and ends with the totals on a line alone:
 * `N passed, N failed`. Extra arguments go to jest (e.g. `npm test -- --selectProjects node`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const outDir = join(root, 'test-output');
mkdirSync(outDir, { recursive: true });

if (!existsSync(join(root, 'dist/h5/index.html'))) {
  console.log('dist/h5 is missing: building H5 for the browser tests');
  const build = spawnSync('npm', ['run', '-s', 'build:h5'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
}

const report = join(outDir, 'jest-report.json');
const jest = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules/jest/bin/jest.js'),
    '--maxWorkers=2',
    '--json',
    `--outputFile=${report}`,
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit' },
);

let passed = 0;
let failed = 0;
if (existsSync(report)) {
  const results = JSON.parse(readFileSync(report, 'utf8'));
  passed = results.numPassedTests;
  // A suite that fails to load runs no test; count it as a failure so it can never pass silently.
  failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
} else {
  failed = 1;
}
if (jest.status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

#!/usr/bin/env node
/**
 * The one command that runs every test: builds H5 and weapp when missing (the browser tests and the mini-program
 * runner load them), runs every jest project (app, sdk, node, e2e, weapp) in one run, and ends with the totals on a line alone:
 * `N passed, N failed`. Extra arguments go to jest (e.g. `npm test -- --selectProjects node`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const outDir = join(root, 'test-output');
mkdirSync(outDir, { recursive: true });

/** Builds what a test project loads when it is missing: H5 for the browser tests, weapp for the mini-program runner. */
function buildWhenMissing(marker, script, why) {
  if (existsSync(join(root, marker))) return;
  console.log(`${marker} is missing: running ${script} for ${why}`);
  const build = spawnSync('npm', ['run', '-s', script], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
}

buildWhenMissing('dist/h5/index.html', 'build:h5', 'the browser tests');
buildWhenMissing('dist/weapp/app.json', 'build:weapp', 'the mini-program journeys');

// Suites record their figures (test/support/reliability.ts) tagged with this run's id; the summary reads only those.
const reliabilityRun = `${Date.now().toString(36)}-${process.pid}`;
const startedAt = Date.now();
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
  { cwd: root, stdio: 'inherit', env: { ...process.env, LENSMATE_RELIABILITY_RUN: reliabilityRun } },
);

let passed = 0;
let failed = 0;
if (existsSync(report)) {
  const results = JSON.parse(readFileSync(report, 'utf8'));
  passed = results.numPassedTests;
  // A suite that fails to load runs no test; count it as a failure so it can never pass silently.
  failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
  printFailures(results);
} else {
  failed = 1;
}
if (jest.status !== 0 && failed === 0) failed = 1;
printReliabilitySummary();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);

/**
 * Every failed test again, one block each, just above the totals: a CI log cut in the middle still shows what failed
 * and why (the first lines of its message, colours stripped).
 */
function printFailures(results) {
  const blocks = [];
  for (const suite of results.testResults) {
    const file = suite.name.startsWith(root) ? suite.name.slice(root.length) : suite.name;
    const failedTests = suite.assertionResults.filter((test) => test.status === 'failed');
    if (failedTests.length === 0 && suite.status === 'failed') {
      blocks.push(`FAILED ${file} (did not run): ${firstLines(suite.message)}`);
    }
    for (const test of failedTests) {
      blocks.push(`FAILED ${file} › ${test.fullName}: ${firstLines(test.failureMessages.join('\n'))}`);
    }
  }
  if (blocks.length > 0) console.log(`\n::: failed tests\n${blocks.join('\n')}\n`);
}

function firstLines(text) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes in jest's messages
  const plain = String(text ?? '').replace(/\u001b\[[0-9;]*m/g, '');
  const lines = plain
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  // The message, then the first place in the project's own code (the stack's node_modules frames say nothing).
  const where = lines.find((line) => line.startsWith('at ') && !line.includes('node_modules'));
  const message = lines.filter((line) => !line.startsWith('at ')).slice(0, 8);
  return [...message, ...(where ? [where] : [])].join(' | ').slice(0, 1200);
}

/** This run's lines of test-output/reliability/*.jsonl (lines without a run id count when written after the start). */
function reliabilityLines() {
  const dir = join(outDir, 'reliability');
  if (!existsSync(dir)) return [];
  const lines = [];
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.jsonl'))) {
    for (const text of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!text.trim()) continue;
      try {
        const line = JSON.parse(text);
        if (line.run === reliabilityRun || (line.run === undefined && line.at >= startedAt)) lines.push(line);
      } catch {
        // a line cut short by a killed worker: not a figure
      }
    }
  }
  return lines;
}

/** One summary of what the abuse, fault and soak suites proved in this run, per suite and in total. */
function printReliabilitySummary() {
  const counters = ['payloads', 'refused', 'faults', 'messagesChecked', 'lost', 'duplicated'];
  const labels = ['payloads tried', 'refused', 'faults injected', 'messages checked', 'lost', 'duplicated'];
  const bySuite = new Map();
  for (const line of reliabilityLines()) {
    const sums = bySuite.get(line.suite) ?? Object.fromEntries(counters.map((counter) => [counter, 0]));
    for (const counter of counters) sums[counter] += Number(line[counter]) || 0;
    bySuite.set(line.suite, sums);
  }
  const total = Object.fromEntries(counters.map((counter) => [counter, 0]));
  for (const sums of bySuite.values()) for (const counter of counters) total[counter] += sums[counter];
  // Lost and duplicated are shown whenever messages were checked: a zero there is the result.
  const shown = (sums, counter) =>
    sums[counter] > 0 || (sums.messagesChecked > 0 && (counter === 'lost' || counter === 'duplicated'));
  const describe = (sums, all) =>
    counters
      .map((counter, index) => (all || shown(sums, counter) ? `${labels[index]} ${sums[counter]}` : ''))
      .filter(Boolean)
      .join(', ') || `${labels[0]} 0`;
  console.log(`Reliability summary (${bySuite.size} suites): ${describe(total, true)}`);
  // Per suite, only what it counted (a fuzz suite injects no faults; a fault suite may try no payloads).
  for (const [suite, sums] of [...bySuite].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(`  ${suite}: ${describe(sums, false)}`);
  }
}

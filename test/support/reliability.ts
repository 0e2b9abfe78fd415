/**
 * Reliability figures: every abuse, fault or soak suite records what it proved, and `node scripts/test-all.mjs`
 * prints one summary of them (payloads tried, faults injected, messages checked, lost, duplicated) just before
 * its final `N passed, N failed` line. The README's Reliability section quotes that summary.
 *
 * Usage, from any jest project (node, sdk, e2e):
 *
 *   import { recordReliability } from '../support/reliability';
 *   recordReliability({ suite: 'fuzz-api', payloads: 1234 });
 *   recordReliability({ suite: 'attack-messaging-identity', payloads: 12, refused: 12 });
 *   recordReliability({ suite: 'redis-restart', faults: 1, messagesChecked: 200, lost: 0, duplicated: 0 });
 *
 * - Call it once the figures are known (end of a test or in afterAll), with what was actually sent and counted:
 *   never a constant. Omitted counters count as 0; extra fields (numbers or strings, e.g. `sentWhileAway`) are
 *   kept in the file for whoever reads it and ignored by the summary.
 * - `suite` names a line of the summary; calls with the same suite name add up (one call per test is fine).
 * - Each call appends one JSON line to `test-output/reliability/<suite>.jsonl`:
 *   `{"suite":"fuzz-api","payloads":1234,"refused":0,"faults":0,"messagesChecked":0,"lost":0,"duplicated":0,"run":"…","at":…}`
 *   `run` is LENSMATE_RELIABILITY_RUN (set by scripts/test-all.mjs for the run it summarises; `adhoc` for a
 *   bare `npx jest`), so the summary counts only this run's lines even when several runs share the checkout.
 * - `test/reliability/record.ts`'s older `recordFigures` writes the same line format (without `run`); the
 *   summary accepts those lines when written after the run started.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export interface ReliabilityCounts {
  /** Adversarial inputs sent (fuzz payloads, XSS payloads rendered, bad requests, attacks). */
  payloads: number;
  /** Of those, the ones the server refused (or, for attacks, defeated as it must). */
  refused: number;
  /** Faults injected (process kills, restarts, outages, socket drops). */
  faults: number;
  /** Messages whose delivery was checked end to end. */
  messagesChecked: number;
  /** Checked messages that never arrived. */
  lost: number;
  /** Extra copies of checked messages that arrived more than once. */
  duplicated: number;
}

export type ReliabilityRecord = { suite: string } & Partial<ReliabilityCounts> & {
    [extra: string]: string | number | undefined;
  };

export const RELIABILITY_COUNTERS: readonly (keyof ReliabilityCounts)[] = [
  'payloads',
  'refused',
  'faults',
  'messagesChecked',
  'lost',
  'duplicated',
];

export const RELIABILITY_DIR = join(__dirname, '..', '..', 'test-output', 'reliability');

function fileName(suite: string): string {
  return `${suite.replace(/[^A-Za-z0-9_.-]+/g, '-') || 'suite'}.jsonl`;
}

/** Appends one line of figures for `suite` to test-output/reliability/<suite>.jsonl (see the top of this file). */
export function recordReliability(record: ReliabilityRecord): void {
  const line: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(record)) if (value !== undefined) line[key] = value;
  for (const counter of RELIABILITY_COUNTERS) {
    const value = Number(record[counter] ?? 0);
    if (!Number.isFinite(value) || value < 0) throw new Error(`recordReliability: ${counter} must be a count`);
    line[counter] = value;
  }
  line.run = process.env.LENSMATE_RELIABILITY_RUN || 'adhoc';
  line.at = Date.now();
  mkdirSync(RELIABILITY_DIR, { recursive: true });
  appendFileSync(join(RELIABILITY_DIR, fileName(record.suite)), `${JSON.stringify(line)}\n`);
}

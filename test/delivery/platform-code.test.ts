import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * `npm run lint` runs scripts/check-platform-code.mjs: platform differences go in x.h5.ts / x.weapp.ts behind
 * x.d.ts, never in a branch of shared code. A small src/ tree shows what it refuses and what it lets through.
 */
const root = join(__dirname, '../..');

function check(files: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'lensmate-platform-'));
  try {
    for (const [path, source] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), source);
    }
    const run = spawnSync(process.execPath, [join(root, 'scripts/check-platform-code.mjs'), 'src'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 30_000,
    });
    return { status: run.status, problems: run.stderr.split('\n').filter((line) => line.startsWith('src/')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const platformModule = {
  'src/features/share/platform.d.ts': 'export declare const canShare: boolean;\n',
  'src/features/share/platform.h5.ts': "export const canShare = typeof window.navigator.share === 'function';\n",
  'src/features/share/platform.weapp.ts': 'export const canShare = true;\n',
  'src/features/share/share.ts':
    "import { canShare } from './platform';\nexport const shareLabel = canShare ? 'Share' : '';\n",
};

describe('platform differences stay in per-platform files', () => {
  it('passes a module whose platforms each have a file behind one interface', () => {
    expect(check(platformModule)).toEqual({ status: 0, problems: [] });
  });

  it.each([
    ["process.env.TARO_ENV === 'h5'", 'TARO_ENV'],
    ["process.env.TARO_PLATFORM !== 'web'", 'TARO_PLATFORM'],
    ['Taro.getEnv() === Taro.ENV_TYPE.WEAPP', 'ENV_TYPE'],
    ["typeof window !== 'undefined'", 'typeof window'],
    ['typeof  document === "object"', 'typeof  document'],
  ])('refuses `%s` in shared code, naming file and line', (test, found) => {
    const result = check({
      ...platformModule,
      'src/features/share/share.ts': `export const label = 'Share';\nexport const web = ${test};\n`,
    });
    expect(result.status).toBe(1);
    expect(result.problems).toEqual([
      `src/features/share/share.ts:2: platform test \`${found}\` in shared code; put the difference in x.h5.ts / x.weapp.ts behind x.d.ts`,
    ]);
  });

  it('refuses a per-platform file without its interface or without the other platform', () => {
    const { 'src/features/share/platform.d.ts': _interface, ...withoutInterface } = platformModule;
    expect(check(withoutInterface).problems).toEqual([
      'src/features/share/platform.h5.ts: a per-platform file needs its interface, src/features/share/platform.d.ts',
      'src/features/share/platform.weapp.ts: a per-platform file needs its interface, src/features/share/platform.d.ts',
    ]);
    const { 'src/features/share/platform.h5.ts': _web, ...weappOnly } = platformModule;
    expect(check(weappOnly).problems).toEqual([
      'src/features/share/platform.weapp.ts: no h5 file beside it (src/features/share/platform.h5.ts)',
    ]);
  });
});

#!/usr/bin/env node
/**
 * Platform differences live in per-platform files behind one interface (DESIGN.md): `x.d.ts` declares it,
 * `x.h5.ts(x)` and `x.weapp.ts(x)` implement it, and the build picks one. Part of `npm run lint`; fails, naming
 * file and line, on
 * - a platform test in shared code: `TARO_ENV`, `TARO_PLATFORM`, `ENV_TYPE`, `typeof window`, `typeof document`;
 * - a per-platform file without its interface (`x.d.ts`) or without its other platform's file.
 * Checks src/ of the repository, or the folders given as arguments.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const PLATFORMS = ['h5', 'weapp'];
const PLATFORM_FILE = /^(.+)\.(h5|weapp)\.(tsx?)$/;
const SOURCE = /\.(tsx?|jsx?|mjs)$/;
const PLATFORM_TEST = /\bTARO_ENV\b|\bTARO_PLATFORM\b|\bENV_TYPE\b|\btypeof\s+(window|document)\b/;

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function platformProblems(roots) {
  const problems = [];
  for (const root of roots) {
    for (const file of sourceFiles(root)) {
      const name = relative(process.cwd(), file);
      const platformFile = PLATFORM_FILE.exec(file);
      if (platformFile) {
        const [, base, platform] = platformFile;
        if (!existsSync(`${base}.d.ts`)) {
          problems.push(`${name}: a per-platform file needs its interface, ${relative(process.cwd(), base)}.d.ts`);
        }
        for (const other of PLATFORMS.filter((each) => each !== platform)) {
          if (!['ts', 'tsx'].some((extension) => existsSync(`${base}.${other}.${extension}`))) {
            problems.push(`${name}: no ${other} file beside it (${relative(process.cwd(), base)}.${other}.ts)`);
          }
        }
        continue;
      }
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          const found = PLATFORM_TEST.exec(line);
          if (found) {
            problems.push(
              `${name}:${index + 1}: platform test \`${found[0]}\` in shared code; put the difference in x.h5.ts / x.weapp.ts behind x.d.ts`,
            );
          }
        });
    }
  }
  return problems;
}

const roots = process.argv.length > 2 ? process.argv.slice(2) : [new URL('../src', import.meta.url).pathname];
const problems = platformProblems(roots);
if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(`${problems.length} platform problem(s)`);
  process.exit(1);
}

import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * A secret generated on first start and kept under the data directory (mode 0600), so restarts and every
 * process sharing the directory keep what was signed with it valid; never a constant in code.
 */
export function persistedSecret(dataDir: string, fileName: string): string {
  const path = join(dataDir, fileName);
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  mkdirSync(dirname(path), { recursive: true });
  try {
    writeFileSync(path, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process sharing the directory wrote it first: everyone uses that one.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(path, 'utf8').trim();
    throw error;
  }
  return secret;
}

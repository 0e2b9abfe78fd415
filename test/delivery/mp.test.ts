import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '../..');

function runMp(command: string, env: Record<string, string>) {
  const { WEAPP_APPID, WEAPP_PRIVATE_KEY, WEAPP_PRIVATE_KEY_PATH, ...cleanEnv } = process.env;
  return spawnSync(process.execPath, [join(root, 'scripts/mp.mjs'), command], {
    cwd: root,
    env: { ...cleanEnv, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('miniprogram-ci delivery without credentials', () => {
  it.each(['preview', 'upload'])(
    'mp:%s names every missing credential and exits non-zero before building',
    (command) => {
      const result = runMp(command, {});
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('WEAPP_APPID');
      expect(result.stderr).toContain('WEAPP_PRIVATE_KEY_PATH or WEAPP_PRIVATE_KEY');
    },
  );

  it('names a private key file that does not exist', () => {
    const result = runMp('upload', { WEAPP_APPID: 'wx1234567890abcdef', WEAPP_PRIVATE_KEY_PATH: '/nonexistent/key' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('the private key file /nonexistent/key');
    expect(result.stderr).not.toContain('WEAPP_APPID');
  });

  it('refuses an unknown command with its usage', () => {
    const result = runMp('deploy', {});
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('usage: node scripts/mp.mjs check|preview|upload');
  });
});

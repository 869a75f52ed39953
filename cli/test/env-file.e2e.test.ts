import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../bin/touchbase.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'touchbase-cli-env-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('touchbase reads .env at start', () => {
  it('from the working directory, under the environment', async () => {
    writeFileSync(join(dir, '.env'), 'DATABASE_URL=not-a-url\nAPI_PORT=many\n');
    // Not NODE_ENV=test (vitest's): that is how the tests keep a developer's .env out.
    const { NODE_ENV: _test, DATABASE_URL: _url, ...env } = process.env;
    const child = spawn(process.execPath, [bin, 'migrate'], {
      cwd: dir,
      env: { ...env, API_PORT: '3999' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += String(d);
    });
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect(code).toBe(1);
    expect(stderr).toContain('DATABASE_URL');
    expect(stderr).not.toContain('API_PORT');
  });
});

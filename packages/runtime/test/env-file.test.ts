import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEnvFile, readEnvFile } from '../src/env-file.js';

const dir = mkdtempSync(join(tmpdir(), 'touchbase-env-'));
const file = join(dir, '.env');
writeFileSync(
  file,
  [
    '# a comment',
    'API_PORT=4000',
    'DATABASE_URL="postgresql://postgres:secret@127.0.0.1:5432/touchbase"',
    'LOG_LEVEL=debug',
    '',
  ].join('\n'),
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('.env at start', () => {
  it('fills in what the environment does not set; the environment wins', () => {
    const env: Record<string, string | undefined> = { LOG_LEVEL: 'warn' };
    const result = loadEnvFile({ path: file, env });
    expect(env).toEqual({
      LOG_LEVEL: 'warn',
      API_PORT: '4000',
      DATABASE_URL: 'postgresql://postgres:secret@127.0.0.1:5432/touchbase',
    });
    expect(result).toEqual({ path: file, loaded: ['API_PORT', 'DATABASE_URL'] });
  });

  it('an empty variable in the environment still wins (it was set on purpose)', () => {
    const env: Record<string, string | undefined> = { API_PORT: '' };
    loadEnvFile({ path: file, env });
    expect(env.API_PORT).toBe('');
  });

  it('no file is no error and changes nothing', () => {
    const env: Record<string, string | undefined> = { A: '1' };
    expect(loadEnvFile({ path: join(dir, 'absent.env'), env })).toEqual({ path: null, loaded: [] });
    expect(env).toEqual({ A: '1' });
  });

  it('is not read under NODE_ENV=test, so a developer’s .env cannot change what tests start', () => {
    const env: Record<string, string | undefined> = { NODE_ENV: 'test' };
    expect(readEnvFile({ path: file, env })).toEqual({ path: null, values: {} });
  });
});

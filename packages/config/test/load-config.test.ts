import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AllEnv, ConfigError, loadConfig } from '../src/index.js';

describe('configuration', () => {
  it('parses the defaults', () => {
    const config = loadConfig(AllEnv, {});
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(config.TIME_SCALE).toBe(1);
  });

  it('a bad variable stops start-up with a message naming it', () => {
    let error: unknown;
    try {
      loadConfig(AllEnv, { REDIS_URL: 'http://nope', API_PORT: 'seventy', TIME_SCALE: '0.5' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('REDIS_URL');
    expect(message).toContain('API_PORT');
    expect(message).toContain('TIME_SCALE');
    expect((error as ConfigError).issues.map((i) => i.variable).sort()).toEqual([
      'API_PORT',
      'REDIS_URL',
      'TIME_SCALE',
    ]);
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig(AllEnv, { ADMIN_TOKEN: '' }).ADMIN_TOKEN).toBeUndefined();
  });

  it('.env.example lists every variable', () => {
    const example = readFileSync(new URL('../../../.env.example', import.meta.url), 'utf8');
    const missing = Object.keys(AllEnv).filter((name) => !new RegExp(`^#? ?${name}=`, 'm').test(example));
    expect(missing).toEqual([]);
  });
});

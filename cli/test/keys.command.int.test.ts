import { createHash } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@touchbase/testing';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKeys } from '../src/commands/keys.command.js';

describe('touchbase keys', () => {
  let tdb: TestDatabase;
  let pool: pg.Pool;
  beforeAll(async () => {
    tdb = await createTestDatabase('cli_keys');
    pool = new pg.Pool({ connectionString: tdb.url, max: 1 });
  });
  afterAll(async () => {
    await pool?.end();
    await tdb?.drop();
  });

  const run = async (...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runKeys(
      args,
      { DATABASE_URL: tdb.url },
      { print: (l) => out.push(l), error: (l) => err.push(l) },
    );
    return { code, out, err };
  };

  it('creates a key, prints it once and stores only its SHA-256', async () => {
    const created = await run('create', '--name', 'ci-import', '--scope', 'write');
    expect(created.code).toBe(0);
    const key = created.out.at(-1) as string;
    expect(key).toMatch(/^tb_[A-Za-z0-9_-]{43}$/);
    expect(created.out.join('\n')).toContain('shown once');
    const { rows } = await pool.query('SELECT name, scope, key_hash FROM api_key');
    expect(rows).toEqual([
      { name: 'ci-import', scope: 'write', key_hash: createHash('sha256').update(key).digest('hex') },
    ]);
    const audit = await pool.query(`SELECT actor, action FROM audit_log WHERE entity_type = 'api_key'`);
    expect(audit.rows).toEqual([{ actor: 'cli', action: 'api_key.created' }]);

    const listed = await run('list');
    expect(listed.code).toBe(0);
    expect(listed.out.join('\n')).toContain('ci-import  write');
    expect(listed.out.join('\n')).not.toContain(key);
  });

  it('refuses a bad scope, a missing name and a name already used, without a stack', async () => {
    expect((await run('create', '--name', 'x', '--scope', 'root')).code).toBe(2);
    expect((await run('create', '--scope', 'read')).code).toBe(2);
    expect((await run('create', '--name', 'admin', '--scope', 'read')).code).toBe(2);
    const taken = await run('create', '--name', 'ci-import', '--scope', 'read');
    expect(taken.code).toBe(1);
    expect(taken.err.join('\n')).toContain('name exists');
    expect((await run('rotate')).code).toBe(2);
  });

  it('revokes by name or id; a revoked key is listed only with --all', async () => {
    await run('create', '--name', 'temp', '--scope', 'read');
    const { rows } = await pool.query(`SELECT id FROM api_key WHERE name = 'temp'`);
    expect((await run('revoke', 'ci-import')).code).toBe(0);
    expect((await run('revoke', rows[0].id)).code).toBe(0);
    const again = await run('revoke', 'temp');
    expect(again.code).toBe(1);
    expect(again.err.join('\n')).toContain('no live API key');
    expect((await run('list')).out).toEqual(['no API keys']);
    const all = (await run('list', '--all')).out.join('\n');
    expect(all).toContain('ci-import');
    expect(all).toContain('REVOKED');
  });
});

// createTestDatabase lives in packages/testing, which has no tests of its own yet; it is
// the runner's main caller, so it is checked here.
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../testing/src/database.js';
import { withClient } from './support/scratch-database.js';

const SERVER_URL = process.env.TEST_DATABASE_SERVER_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';

const databaseExists = (name: string) =>
  withClient(SERVER_URL, async (client) => {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    return rowCount === 1;
  });

describe('createTestDatabase', () => {
  it('creates a uniquely named, migrated database and drops it even while connected', async () => {
    const first = await createTestDatabase('Runner Check!');
    const second = await createTestDatabase('Runner Check!');
    try {
      expect(first.name).toMatch(/^touchbase_test_runner_check__[0-9a-f]{8}$/);
      expect(second.name).not.toBe(first.name);
      const migrated = await withClient(first.url, async (client) => {
        const { rows } = await client.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM _prisma_migrations',
        );
        return rows[0]?.n;
      });
      expect(migrated).toBeGreaterThan(0);

      // An open connection (a test that forgot to disconnect) must not block the drop.
      const forgotten = new pg.Client({ connectionString: first.url });
      forgotten.on('error', () => undefined); // drop() terminates it, on purpose
      await forgotten.connect();
      await first.drop();
      await forgotten.end(); // resolves even on a terminated connection (pg's end() never rejects)

      expect(await databaseExists(first.name)).toBe(false);
      await first.drop(); // a second drop is harmless
    } finally {
      await first.drop();
      await second.drop();
    }
    expect(await databaseExists(second.name)).toBe(false);
  });
});

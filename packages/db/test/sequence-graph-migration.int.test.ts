import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chainGraph, SequenceStepsSchema, timeoutEdge, validateGraph } from '@touchbase/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from '../src/migrate/migration-runner.js';
import {
  createScratchDatabase,
  type ScratchDatabase,
  withClient,
} from './migrate/support/scratch-database.js';

const MIGRATIONS = fileURLToPath(new URL('../../../prisma/migrations', import.meta.url));
const GRAPHS = '20261127010000_sequence_graphs';

// Versions written before graphs existed: lists of steps as the API stored them
// (defaults filled in), with and without variants, one to several steps.
const OLD_VERSIONS = [
  [{ channel: 'email', subject: 'Hi {{firstName}}', body: 'One', wait: '3d' }],
  [
    { channel: 'email', subject: 'Hello', body: 'First', wait: '2d' },
    {
      channel: 'email',
      subject: 'Ignored',
      body: 'Second',
      wait: '1d12h',
      variants: [{ subject: 'B', body: 'Second, B' }],
    },
    { channel: 'email', subject: 'x', body: 'Last', wait: '0s' },
  ],
];

// The migration maps every old version to the chain core's chainGraph makes of it,
// so enrollments and touches (node number = step number) keep running unchanged.
describe(`migration ${GRAPHS}`, () => {
  let db: ScratchDatabase;
  let before: string;
  const ids = OLD_VERSIONS.map(() => randomUUID());

  beforeAll(async () => {
    db = await createScratchDatabase('graphs');
    before = mkdtempSync(join(tmpdir(), 'touchbase-migrations-'));
    for (const name of readdirSync(MIGRATIONS)) {
      if (name < GRAPHS) cpSync(join(MIGRATIONS, name), join(before, name), { recursive: true });
    }
    await applyMigrations({ databaseUrl: db.url, migrationsDir: before });
    await withClient(db.url, async (c) => {
      const seq = randomUUID();
      await c.query(`INSERT INTO sequence (id, name) VALUES ($1, 'old')`, [seq]);
      for (const [i, steps] of OLD_VERSIONS.entries())
        await c.query(
          'INSERT INTO sequence_version (id, sequence_id, version, steps) VALUES ($1, $2, $3, $4)',
          [ids[i], seq, i + 1, JSON.stringify(steps)],
        );
    });
    await applyMigrations({ databaseUrl: db.url, migrationsDir: MIGRATIONS });
  });

  afterAll(async () => {
    await db?.drop();
    if (before) rmSync(before, { recursive: true, force: true });
  });

  it('writes each old version as the chain chainGraph makes of its steps, valid and ending at steps + 1', async () => {
    const rows = await withClient(
      db.url,
      async (c) =>
        (
          await c.query<{ id: string; steps: unknown; graph: unknown }>(
            'SELECT id, steps, graph FROM sequence_version',
          )
        ).rows,
    );
    expect(rows).toHaveLength(OLD_VERSIONS.length);
    for (const row of rows) {
      const steps = SequenceStepsSchema.parse(row.steps);
      const graph = chainGraph(steps);
      expect(row.graph).toEqual(graph);
      expect(validateGraph(graph)).toEqual([]);
      expect(timeoutEdge(graph, steps.length)?.to).toBe(steps.length + 1);
    }
  });

  it('leaves versions immutable afterwards', async () => {
    await expect(
      withClient(db.url, (c) => c.query(`UPDATE sequence_version SET graph = '{}' WHERE id = $1`, [ids[0]])),
    ).rejects.toThrow();
  });
});

import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from '../src/migrate/migration-runner.js';
import {
  createScratchDatabase,
  type ScratchDatabase,
  withClient,
} from './migrate/support/scratch-database.js';

const MIGRATIONS = fileURLToPath(new URL('../../../prisma/migrations', import.meta.url));
const TOUCH_VERSION = '20261127163000_touch_sequence_version';

// Touch rows written before they stored their version: the backfill gives each the
// version its enrollment was on when it was created, by the moves migrations recorded.
describe(`migration ${TOUCH_VERSION}`, () => {
  let db: ScratchDatabase;
  let before: string;
  const v = [randomUUID(), randomUUID(), randomUUID()];
  const [twice, never] = [randomUUID(), randomUUID()];
  const touch = { v1: randomUUID(), v2: randomUUID(), v3: randomUUID(), never: randomUUID() };
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 10, minute));

  beforeAll(async () => {
    db = await createScratchDatabase('touchver');
    before = mkdtempSync(join(tmpdir(), 'touchbase-migrations-'));
    for (const name of readdirSync(MIGRATIONS)) {
      if (name < TOUCH_VERSION) cpSync(join(MIGRATIONS, name), join(before, name), { recursive: true });
    }
    await applyMigrations({ databaseUrl: db.url, migrationsDir: before });
    await withClient(db.url, async (c) => {
      const seq = randomUUID();
      const domain = randomUUID();
      const mailbox = randomUUID();
      await c.query(`INSERT INTO sequence (id, name) VALUES ($1, 'old')`, [seq]);
      for (const [i, id] of v.entries())
        await c.query(
          `INSERT INTO sequence_version (id, sequence_id, version, steps, graph) VALUES ($1, $2, $3, '[]', '{"nodes":[],"edges":[]}')`,
          [id, seq, i + 1],
        );
      await c.query(`INSERT INTO sending_domain (id, domain) VALUES ($1, 'send.example')`, [domain]);
      await c.query(
        `INSERT INTO mailbox (id, address, domain_id, provider) VALUES ($1, 'sdr@send.example', $2, 'sandbox')`,
        [mailbox, domain],
      );
      for (const [id, version] of [
        [twice, v[2]],
        [never, v[0]],
      ] as const) {
        const prospect = randomUUID();
        await c.query('INSERT INTO prospect (id, email) VALUES ($1, $2)', [
          prospect,
          `${prospect}@people.example`,
        ]);
        await c.query(
          `INSERT INTO enrollment (id, prospect_id, sequence_id, sequence_version_id, mailbox_id) VALUES ($1, $2, $3, $4, $5)`,
          [id, prospect, seq, version, mailbox],
        );
      }
      // `twice` moved v1 -> v2 at minute 10 and v2 -> v3 at minute 20 (a skipped item of a third migration at 25 moved nothing).
      const moves = [
        [v[0], v[1], at(10), 'moved'],
        [v[1], v[2], at(20), 'moved'],
        [v[2], v[0], at(25), 'skipped'],
      ] as const;
      for (const [from, to, doneAt, state] of moves) {
        const m = randomUUID();
        await c.query(
          `INSERT INTO sequence_migration (id, sequence_id, from_version_id, to_version_id, mapping, plan, fingerprint, reason, planned_by, status)
           VALUES ($1, $2, $3, $4, '{}', '{}', 'f', 'test', 'test', 'completed')`,
          [m, seq, from, to],
        );
        await c.query(
          `INSERT INTO sequence_migration_item (migration_id, enrollment_id, from_node, to_node, state, done_at)
           VALUES ($1, $2, 1, 1, $3, $4)`,
          [m, twice, state, doneAt],
        );
      }
      const rows = [
        [touch.v1, twice, 1, at(5)],
        [touch.v2, twice, 2, at(15)],
        [touch.v3, twice, 3, at(30)],
        [touch.never, never, 1, at(5)],
      ] as const;
      for (const [id, enrollment, step, createdAt] of rows)
        await c.query(
          `INSERT INTO touch (id, enrollment_id, step, status, idempotency_key, created_at) VALUES ($1, $2, $3, 'sent', $4, $5)`,
          [id, enrollment, step, `${enrollment}-${step}-1`, createdAt],
        );
    });
    await applyMigrations({ databaseUrl: db.url, migrationsDir: MIGRATIONS });
  });

  afterAll(async () => {
    await db?.drop();
    if (before) rmSync(before, { recursive: true, force: true });
  });

  const versionOf = (id: string) =>
    withClient(db.url, async (c) => {
      const { rows } = await c.query<{ v: string }>(
        'SELECT sequence_version_id AS v FROM touch WHERE id = $1',
        [id],
      );
      return rows[0]?.v;
    });

  it('gives each old touch the version its enrollment was on when the touch was created', async () => {
    expect(await versionOf(touch.v1)).toBe(v[0]);
    expect(await versionOf(touch.v2)).toBe(v[1]);
    expect(await versionOf(touch.v3)).toBe(v[2]);
    expect(await versionOf(touch.never)).toBe(v[0]);
  });

  it("a new touch that does not name its version gets its enrollment's; one that names it keeps it", async () => {
    const [fill, named] = [randomUUID(), randomUUID()];
    await withClient(db.url, async (c) => {
      await c.query(
        `INSERT INTO touch (id, enrollment_id, step, status, idempotency_key) VALUES ($1, $2, 4, 'sending', $3)`,
        [fill, twice, `${twice}-4-1`],
      );
      await c.query(
        `INSERT INTO touch (id, enrollment_id, step, status, idempotency_key, sequence_version_id)
         VALUES ($1, $2, 5, 'sending', $3, $4)`,
        [named, twice, `${twice}-5-1`, v[0]],
      );
    });
    expect(await versionOf(fill)).toBe(v[2]);
    expect(await versionOf(named)).toBe(v[0]);
  });
});

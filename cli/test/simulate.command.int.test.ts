import { createDatabase, createRepositories, type Database } from '@touchbase/db';
import { createTestDatabase, type TestDatabase } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSimulate } from '../src/commands/simulate.command.js';

describe('touchbase simulate --sequence-id (real PostgreSQL)', () => {
  let tdb: TestDatabase;
  let db: Database;
  let sequenceId: string;
  let mailboxId: string;
  beforeAll(async () => {
    tdb = await createTestDatabase('cli_simulate');
    db = createDatabase(tdb.url);
    const repos = createRepositories(db);
    mailboxId = (
      await repos.mailboxes.create({ provider: 'sandbox', address: 'eve@cli-sim.example', perDay: 25 })
    ).id;
    sequenceId = (
      await repos.sequences.create({
        name: 'From the database',
        steps: [
          { channel: 'email', subject: 'One', body: 'b', wait: '2d' },
          { channel: 'email', subject: 'Two', body: 'b', wait: '0s' },
        ],
      })
    ).id;
  });
  afterAll(async () => {
    await db?.close();
    await tdb?.drop();
  });

  it('reads the sequence and the mailbox from the database, writes nothing, and says what binds', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runSimulate(
      [
        '--sequence-id',
        sequenceId,
        '--mailbox-id',
        mailboxId,
        '--count',
        '100',
        '--start',
        '2027-01-11T08:00:00Z',
      ],
      () => tdb.url,
      { print: (l) => out.push(l), error: (l) => err.push(l) },
    );
    expect(err).toEqual([]);
    expect(code).toBe(0);
    const text = out.join('\n');
    expect(text).toContain('Simulated 100 prospects, 2 steps, 1 mailbox, seed 1, from 2027-01-11 08:00 UTC');
    expect(text).toMatch(/caps 25\/day/);
    expect(text).toMatch(
      /Binding constraint: mailbox caps bind: \d more mailbox(es)? would finish \d+ days? sooner/,
    );
    const { rows } = await db.pool.query('SELECT count(*)::int AS n FROM enrollment');
    expect(rows[0].n).toBe(0);
  });
  it('runs the version --sequence-version names, not the latest', async () => {
    await createRepositories(db).sequences.addVersion(sequenceId, [
      { channel: 'email', subject: 'Only', body: 'b', wait: '0s' },
    ]);
    const run = async (extra: string[]) => {
      const out: string[] = [];
      const code = await runSimulate(
        ['--sequence-id', sequenceId, '--mailbox-id', mailboxId, '--count', '10', ...extra],
        () => tdb.url,
        { print: (l) => out.push(l), error: (l) => out.push(l) },
      );
      expect(code).toBe(0);
      return out.join('\n');
    };
    expect(await run([])).toMatch(/10 prospects, 1 step,/);
    expect(await run(['--sequence-version', '1'])).toContain('10 prospects, 2 steps,');
  });
});

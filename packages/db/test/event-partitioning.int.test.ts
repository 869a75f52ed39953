import { randomUUID } from 'node:crypto';
import {
  FUNNEL_ARCHIVED_EVENT_TYPES,
  RETIRABLE_EVENT_TYPES,
  RETIRABLE_STREAK_BREAKERS,
  SOFT_BOUNCE_STREAK_BREAKERS,
} from '@touchbase/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../src/database.js';
import type { Database, Repositories } from '../src/index.js';
import {
  ARCHIVE_MONTH,
  COPY_BATCH,
  KEYS_OF_RETIRED,
  PARTITIONED_LAYOUT,
  PARTITIONS_FOR_EXISTING_ROWS,
  SWITCH,
} from './support/event-partitioning.sql.js';
import {
  enrollOne,
  type RepositoryFixture,
  repositoryFixture,
  testEvent,
} from './support/repository-fixture.js';

/**
 * The partitioning story of docs/scaling.md#partitioning, run on real PostgreSQL: the
 * live `event` table, filled through the repositories' own insert path over four
 * months, is moved to monthly range partitions by `received_at` (built beside it,
 * copied in batches while inserts go on, switched by a rename under one short lock),
 * then a month is retired by DETACH and DROP. Dedupe (invariant 6) holds across the
 * months through the `event_key` table, the reads (event list by seq cursor, funnel)
 * answer the same, and the arrival times stay immutable. It also pins down what the
 * insert paths must change first: their `ON CONFLICT (source, external_id)` target has
 * no unique index to infer on a partitioned table, and fails loudly.
 */
describe('event partitioned by month (the documented migration and retention by partition)', () => {
  let fixture: RepositoryFixture;
  let db: Database;
  let repos: Repositories;
  const MONTHS = [3, 2, 1, 0];
  const seeded: { month: number; source: string; externalId: string; type: string }[] = [];
  let liveDuringCopy = 0;

  /** Every event row, in seq order, as the reads see them. */
  const allRows = async () =>
    (await db.pool.query('SELECT * FROM event ORDER BY seq')).rows.map((r) => JSON.stringify(r));
  /** The event list through the repository, page by page (its cursor is seq). */
  const listPages = async () => {
    const pages: string[] = [];
    let after: number | undefined;
    for (;;) {
      const page = await repos.events.list({}, 7, after);
      if (page.length === 0) return pages;
      pages.push(JSON.stringify(page));
      after = Number(page.at(-1)!.seq);
    }
  };
  const funnels = async () =>
    JSON.stringify(
      await Promise.all(
        (['sequence', 'step', 'mailbox'] as const).map((v) =>
          repos.funnel.view(v, { sequenceId: fixture.sequenceId }),
        ),
      ),
    );
  const insertApplied = (source: string, externalId: string, type: 'opened' | 'delivered' | 'reply') =>
    repos.events.recordApplied(randomUUID(), testEvent({ type, source, externalId }), 'applied', null);
  /** The keyed insert the paths take once partitioned: no conflict target, the key table decides. */
  const keyedInsert = (source: string, externalId: string, receivedAt: Date) =>
    db.pool.query(
      `INSERT INTO event (id, source, external_id, type, payload, received_at) VALUES ($1, $2, $3, 'opened', '{}', $4)
       ON CONFLICT DO NOTHING RETURNING seq`,
      [randomUUID(), source, externalId, receivedAt],
    );
  const monthsAgo = (n: number) => {
    const d = new Date();
    d.setUTCDate(15);
    d.setUTCMonth(d.getUTCMonth() - n);
    return d;
  };

  beforeAll(async () => {
    fixture = await repositoryFixture('event_partitions', 'sdr@partitions.example');
    ({ db, repos } = fixture);
    // Four prospects with a sent touch each (so the funnel ties their engagement), and in
    // each of four months their delivered and opened events, by the repository's insert.
    const people = [];
    for (let i = 0; i < 4; i++) {
      const { prospect, enrollmentId } = await enrollOne(fixture, `p${i}@partitions.example`);
      const messageId = `msg-${i}`;
      await db.pool.query(
        `INSERT INTO touch (id, enrollment_id, step, attempt, status, idempotency_key, provider_message_id, sent_at)
         VALUES ($1, $2, 0, 1, 'sent', $3, $4, now() - interval '4 months')`,
        [randomUUID(), enrollmentId, `${enrollmentId}-0-1`, messageId],
      );
      people.push({ prospectId: prospect.id, email: prospect.email, enrollmentId, messageId });
    }
    for (const month of MONTHS) {
      for (const [i, p] of people.entries()) {
        for (const type of ['delivered', 'opened'] as const) {
          const externalId = `m${month}-${type}-${i}`;
          await repos.events.recordApplied(
            randomUUID(),
            testEvent({ type, source: 'sandbox', externalId, messageId: p.messageId }),
            'applied',
            { prospectId: p.prospectId, email: p.email, enrollmentId: p.enrollmentId },
          );
          seeded.push({ month, source: 'sandbox', externalId, type });
        }
      }
      // A reply in the oldest month, from someone we do not know: a kept type, which its
      // month's drop must not take. (The funnel would need event_kept in its union to keep
      // counting a dropped month's replies; see the doc.)
      if (month === 3) {
        await repos.events.recordApplied(
          randomUUID(),
          testEvent({ type: 'reply', source: 'sandbox', externalId: 'm3-reply-0' }),
          'applied',
          null,
        );
        seeded.push({ month, source: 'sandbox', externalId: 'm3-reply-0', type: 'reply' });
      }
    }
    // Age each month's events (arrival times are immutable: triggers off for this statement).
    await inTransaction(db.pool, async (client) => {
      await client.query('SET LOCAL session_replication_role = replica');
      for (const month of MONTHS.filter((m) => m > 0)) {
        await client.query(
          `UPDATE event SET received_at = $2 WHERE source = 'sandbox' AND external_id LIKE $1`,
          [`m${month}-%`, monthsAgo(month)],
        );
      }
    });
    // A key the retention job retired before partitioning.
    await db.pool.query(
      `INSERT INTO event_retired (source, external_id) VALUES ('sandbox', 'retired-long-ago')`,
    );
  });
  afterAll(async () => {
    await fixture?.close();
  });

  it('the migration copies every row into its month with its seq, while inserts go on, and the reads answer the same', async () => {
    const before = { rows: await allRows(), pages: await listPages(), funnel: await funnels() };
    expect(before.rows.length).toBe(seeded.length);

    await db.pool.query(PARTITIONED_LAYOUT);
    await db.pool.query(PARTITIONS_FOR_EXISTING_ROWS);
    await db.pool.query(KEYS_OF_RETIRED);
    // A transaction that took its seq before the copy and commits only after the batches
    // have read past it: its row must still be copied.
    const late = await db.pool.connect();
    await late.query('BEGIN');
    await late.query(
      `INSERT INTO event (id, source, external_id, type, payload) VALUES ($1, 'sandbox', 'late-commit', 'opened', '{}')`,
      [randomUUID()],
    );
    // The copy, 5 rows a batch; ingest keeps recording on the live table between batches.
    let last = 0;
    for (;;) {
      const copied = await inTransaction(db.pool, async (client) => {
        await client.query('SET LOCAL session_replication_role = replica');
        return (await client.query<{ last: string | null }>(COPY_BATCH, [last, 5])).rows[0]!.last;
      });
      if (copied === null) break;
      last = Number(copied);
      if (liveDuringCopy < 3) {
        expect(await insertApplied('sandbox', `live-${liveDuringCopy}`, 'opened')).toBe(true);
        liveDuringCopy++;
      }
    }
    // The tail that arrived after the last batch is copied under the switch's lock, and so
    // is the late commit, whose seq is below the last one the batches copied.
    expect(await insertApplied('sandbox', 'live-tail', 'opened')).toBe(true);
    await late.query('COMMIT');
    late.release();
    const { rows: lateRow } = await db.pool.query<{ seq: string }>(
      `SELECT seq FROM event WHERE external_id = 'late-commit'`,
    );
    expect(Number(lateRow[0]!.seq)).toBeLessThan(last);
    await inTransaction(db.pool, (client) =>
      client.query(SWITCH.replaceAll('$FROM', String(Math.max(0, last - 1_000)))),
    );

    const { rows: kind } = await db.pool.query<{ relkind: string }>(
      `SELECT relkind FROM pg_class WHERE oid = 'event'::regclass`,
    );
    expect(kind[0]!.relkind).toBe('p');
    const after = await allRows();
    expect(after.length).toBe(seeded.length + liveDuringCopy + 2);
    // Every row as it was, seq and arrival time included, in the same order.
    const oldRows = (await db.pool.query('SELECT * FROM event_unpartitioned ORDER BY seq')).rows.map((r) =>
      JSON.stringify(r),
    );
    expect(after).toEqual(oldRows);
    expect(after.slice(0, before.rows.length)).toEqual(before.rows);
    // Each month in its own partition.
    const { rows: perPartition } = await db.pool.query<{ partition: string; n: number }>(
      `SELECT tableoid::regclass::text AS partition, count(*)::int AS n FROM event GROUP BY 1 ORDER BY 1`,
    );
    expect(perPartition.map((p) => p.n)).toEqual([9, 8, 8, 8 + liveDuringCopy + 2]);
    // The list by seq cursor and the funnel read the same (plus the rows recorded meanwhile).
    const pages = await listPages();
    expect(pages.flatMap((p) => JSON.parse(p)).slice(0, before.rows.length)).toEqual(
      before.pages.flatMap((p) => JSON.parse(p)),
    );
    expect(await funnels()).toBe(before.funnel);
    expect(JSON.parse(before.funnel)[0][0].delivered).toBeGreaterThan(0);
  });

  it("dedupe holds across months through event_key; today's conflict target fails loudly and must go", async () => {
    // The hot path as written today: no unique index on (source, external_id) to infer.
    await expect(insertApplied('sandbox', `today-${randomUUID()}`, 'opened')).rejects.toMatchObject({
      code: '42P10',
    });
    // The keyed form: a new key lands in the current month's partition.
    const fresh = await keyedInsert('sandbox', 'fresh-1', new Date());
    expect(fresh.rowCount).toBe(1);
    // The same key again, even stamped months earlier (another partition): a duplicate.
    expect((await keyedInsert('sandbox', 'fresh-1', monthsAgo(2))).rowCount).toBe(0);
    // A key recorded three months ago, redelivered today; one retired before partitioning.
    expect((await keyedInsert('sandbox', 'm3-opened-1', new Date())).rowCount).toBe(0);
    expect((await keyedInsert('sandbox', 'retired-long-ago', new Date())).rowCount).toBe(0);
    // Eight deliveries of one new key at once: one row, whichever transaction won.
    const racing = await Promise.all(
      Array.from({ length: 8 }, () => keyedInsert('sandbox', 'raced', new Date())),
    );
    expect(racing.reduce((a, r) => a + (r.rowCount ?? 0), 0)).toBe(1);
    const { rows } = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM event WHERE source = 'sandbox' AND external_id IN ('raced', 'fresh-1')`,
    );
    expect(rows[0]!.n).toBe(2);
    // Seq goes on from the old table's sequence.
    expect(Number(fresh.rows[0].seq)).toBeGreaterThan(seeded.length + liveDuringCopy + 2);
    // Partitions exist two months ahead; a row past them is refused, not put aside.
    expect((await keyedInsert('sandbox', 'next-month', monthsAgo(-1))).rowCount).toBe(1);
    await expect(keyedInsert('sandbox', 'too-far', monthsAgo(-6))).rejects.toMatchObject({ code: '23514' });
  });

  it('arrival times and payloads stay immutable on the partitions; applying an event still updates it', async () => {
    const { rows } = await db.pool.query<{ seq: string }>(
      `SELECT seq FROM event WHERE external_id = 'm2-opened-0'`,
    );
    const seq = rows[0]!.seq;
    await expect(
      db.pool.query(`UPDATE event SET payload = '{}' WHERE seq = $1`, [seq]),
    ).rejects.toMatchObject({ code: '23001' });
    await expect(
      db.pool.query(`UPDATE event SET received_at = now() WHERE seq = $1`, [seq]),
    ).rejects.toMatchObject({ code: '23001' });
    const applied = await db.pool.query(`UPDATE event SET outcome = 'applied' WHERE external_id = 'fresh-1'`);
    expect(applied.rowCount).toBe(1);
  });

  it('a month is retired by DETACH and DROP: its funnel facts and kept events stay, its keys stay duplicates', async () => {
    const funnelBefore = await funnels();
    const { rows: parts } = await db.pool.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'event'::regclass ORDER BY c.relname`,
    );
    const oldest = parts[0]!.name;
    expect(oldest).toMatch(/^event_\d{4}_\d{2}$/);
    await inTransaction(db.pool, (client) =>
      client.query(ARCHIVE_MONTH(oldest), [
        RETIRABLE_EVENT_TYPES,
        FUNNEL_ARCHIVED_EVENT_TYPES,
        RETIRABLE_STREAK_BREAKERS,
        SOFT_BOUNCE_STREAK_BREAKERS,
      ]),
    );
    await db.pool.query(`ALTER TABLE event DETACH PARTITION ${oldest} CONCURRENTLY`);
    await db.pool.query(`DROP TABLE ${oldest}`);

    const { rows: left } = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM event WHERE external_id LIKE 'm3-%'`,
    );
    expect(left[0]!.n).toBe(0);
    // The reply went to event_kept; the engagement facts to the funnel's archive.
    const { rows: kept } = await db.pool.query<{ external_id: string }>(`SELECT external_id FROM event_kept`);
    expect(kept.map((k) => k.external_id)).toEqual(['m3-reply-0']);
    const { rows: archived } = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM event_funnel_archive`,
    );
    expect(archived[0]!.n).toBe(8);
    expect(await funnels()).toBe(funnelBefore);
    // A redelivery of a dropped event is still a duplicate: its key was never in the partition.
    expect((await keyedInsert('sandbox', 'm3-delivered-2', new Date())).rowCount).toBe(0);
    // The other months are untouched.
    const { rows: others } = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM event WHERE external_id ~ '^m[0-2]-'`,
    );
    expect(others[0]!.n).toBe(24);
  });

  it('a query by arrival time reads only its month (partition pruning)', async () => {
    const from = monthsAgo(1);
    from.setUTCDate(1);
    from.setUTCHours(0, 0, 0, 0);
    const to = new Date(from);
    to.setUTCMonth(to.getUTCMonth() + 1);
    const { rows } = await db.pool.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT count(*) FROM event WHERE received_at >= '${from.toISOString()}' AND received_at < '${to.toISOString()}'`,
    );
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    const scanned = new Set(plan.match(/event_\d{4}_\d{2}/g));
    expect([...scanned]).toEqual([
      `event_${from.getUTCFullYear()}_${String(from.getUTCMonth() + 1).padStart(2, '0')}`,
    ]);
  });
});

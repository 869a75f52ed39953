import { randomUUID } from 'node:crypto';
import type { MailboxLimits } from '@touchbase/providers';
import type { TouchQueue } from '@touchbase/queues';
import type { TestSystem } from '../../test/support/test-system.js';

/** `xs` in slices of `size`, the last one shorter. */
export const chunks = <T>(xs: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(xs.length / size) }, (_, i) => xs.slice(i * size, (i + 1) * size));

/** `count` prospects, one insert. */
export async function seedProspects(sys: TestSystem, count: number): Promise<string[]> {
  const prospectIds = Array.from({ length: count }, () => randomUUID());
  await sys.rt.db.pool.query(
    `INSERT INTO prospect (id, email, first_name) SELECT p.id, 'p' || p.n || '@dispatch.bench.example', 'P' || p.n
     FROM unnest($1::uuid[]) WITH ORDINALITY AS p(id, n)`,
    [prospectIds],
  );
  return prospectIds;
}

/** `count` mailboxes with the given caps on one sending domain. */
export async function seedMailboxes(
  sys: TestSystem,
  label: string,
  limits: MailboxLimits,
  count: number,
): Promise<string[]> {
  const pool = sys.rt.db.pool;
  const domainId = randomUUID();
  await pool.query('INSERT INTO sending_domain (id, domain) VALUES ($1, $2)', [
    domainId,
    `${label}.bench.example`,
  ]);
  const ids = Array.from({ length: count }, () => randomUUID());
  await pool.query(
    `INSERT INTO mailbox (id, provider, address, domain_id, per_minute, per_hour, per_day, min_spacing_ms, window_days)
     SELECT m.id, 'sandbox', m.address, $3, $4, $5, $6, $7, '{}' FROM unnest($1::uuid[], $2::text[]) AS m(id, address)`,
    [
      ids,
      ids.map((_, i) => `sdr${i}@${label}.bench.example`),
      domainId,
      limits.perMinute,
      limits.perHour,
      limits.perDay,
      limits.minSpacingMs,
    ],
  );
  return ids;
}

/**
 * One enrollment per prospect on a new one-step sequence. `grouped`: each
 * mailbox's enrollments are consecutive (its touches queue together and meet its
 * caps); otherwise round-robin over the mailboxes.
 */
export async function seedEnrollments(
  sys: TestSystem,
  prospectIds: string[],
  mailboxIds: string[],
  grouped = false,
): Promise<string[]> {
  const per = Math.ceil(prospectIds.length / mailboxIds.length);
  const mailboxOf = (i: number) => mailboxIds[grouped ? Math.floor(i / per) : i % mailboxIds.length];
  // The step's wait is a month (12 h at TIME_SCALE 60): the job that would end the
  // enrollment stays delayed and never competes with the run.
  const seq = await sys.api('POST', '/v1/sequences', {
    name: `bench-${randomUUID().slice(0, 8)}`,
    steps: [{ subject: 'Hello {{firstName|there}}', body: 'A touch for {{firstName|you}}', wait: '30d' }],
  });
  if (seq.status !== 201) throw new Error(`sequence: ${JSON.stringify(seq.body)}`);
  // The same people are seeded in several sequences, with a finished campaign's sends
  // (seedHistory): without opting out, exclusivity and the 30-day cooldown would hold them.
  const policies = await sys.api('PATCH', `/v1/sequences/${seq.body.id}/policies`, {
    contact: { exclusive: false, cooldownDays: 0 },
  });
  if (policies.status !== 200) throw new Error(`policies: ${JSON.stringify(policies.body)}`);
  const ids = prospectIds.map(() => randomUUID());
  for (const part of chunks(
    ids.map((id, i) => [id, prospectIds[i], mailboxOf(i)] as const),
    5_000,
  )) {
    await sys.rt.db.pool.query(
      `INSERT INTO enrollment (id, prospect_id, sequence_id, sequence_version_id, mailbox_id, status, current_step, next_touch_at)
       SELECT e.id, e.prospect_id, $4, $5, e.mailbox_id, 'active', 1, now() FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) AS e(id, prospect_id, mailbox_id)`,
      [part.map((r) => r[0]), part.map((r) => r[1]), part.map((r) => r[2]), seq.body.id, seq.body.version.id],
    );
  }
  return ids;
}

/**
 * A running database has history and planner statistics over it. A fresh one has
 * an empty touch table until its first minute of sends, and plans made for an empty
 * table (a scan of it) then cost more with every touch recorded. So: the sends of a
 * finished campaign (three touches each) of these enrollments, then ANALYZE, as
 * autovacuum would have.
 */
export async function seedHistory(sys: TestSystem, enrollmentIds: string[]): Promise<void> {
  await sys.rt.db.pool.query(
    `WITH ended AS (
       UPDATE enrollment SET status = 'exhausted', current_step = 4, next_touch_at = NULL
       WHERE id = ANY($1::uuid[]) RETURNING id)
     INSERT INTO touch (id, enrollment_id, step, attempt, status, idempotency_key, provider_message_id, sent_at, variant)
     SELECT gen_random_uuid(), ended.id, s, 1, 'sent', ended.id || '-' || s, gen_random_uuid()::text, now() - interval '40 days', 0
     FROM ended CROSS JOIN generate_series(1, 3) s`,
    [enrollmentIds],
  );
  await sys.rt.db.pool.query('ANALYZE');
}

/** Queues step 1 of each enrollment, due at `dueAt(i)`. */
export async function enqueue(
  queue: TouchQueue,
  enrollmentIds: string[],
  dueAt: (i: number) => Date,
): Promise<void> {
  const now = Date.now();
  for (const [k, part] of chunks(enrollmentIds, 1_000).entries()) {
    await queue.schedule(
      part.map((enrollmentId, j) => ({ enrollmentId, step: 1, dueAt: dueAt(k * 1_000 + j) })),
      now,
    );
  }
}

import type pg from 'pg';

/**
 * Seeds `sends` sent touches on a mailbox (one ended enrollment and prospect each)
 * and hard bounces, complaints and replies on the first of them, in a few set-based
 * statements: thousands of sends in milliseconds, through the same triggers that
 * keep the rollup on the real paths (a touch row `sent`, an event row applied).
 */
export async function seedSends(
  pool: pg.Pool,
  input: {
    /** Unique per call: prefixes the prospects' addresses and the events' external ids. */
    tag: string;
    mailboxId: string;
    sequenceId: string;
    sequenceVersionId: string;
    sends: number;
    bounces?: number;
    complaints?: number;
    replies?: number;
    at?: Date;
  },
): Promise<void> {
  const at = input.at ?? new Date();
  await pool.query(
    `WITH p AS (
       INSERT INTO prospect (id, email)
       SELECT gen_random_uuid(), $1 || '-' || g || '@seed.example' FROM generate_series(1, $2::int) AS g
       RETURNING id),
     e AS (
       INSERT INTO enrollment (id, prospect_id, sequence_id, sequence_version_id, mailbox_id, status, current_step)
       SELECT gen_random_uuid(), p.id, $3, $4, $5, 'exhausted', 2 FROM p
       RETURNING id)
     INSERT INTO touch (id, enrollment_id, step, status, idempotency_key, sent_at)
     SELECT gen_random_uuid(), e.id, 1, 'sent', e.id || '-1', $6 FROM e`,
    [input.tag, input.sends, input.sequenceId, input.sequenceVersionId, input.mailboxId, at],
  );
  const events: [string, number | undefined, object][] = [
    ['bounce', input.bounces, { bounce: { hard: true, status: '5.1.1' } }],
    ['complaint', input.complaints, {}],
    ['reply', input.replies, { classification: 'not_interested' }],
  ];
  for (const [type, n, extra] of events) {
    if (!n) continue;
    await pool.query(
      `INSERT INTO event (id, source, external_id, type, prospect_id, enrollment_id, payload, received_at, applied_at, outcome)
       SELECT gen_random_uuid(), 'seed', $1 || '-' || $2 || '-' || e.id, $2, e.prospect_id, e.id, $3::jsonb, $4, $4, 'applied'
       FROM (SELECT e.id, e.prospect_id FROM enrollment e JOIN prospect p ON p.id = e.prospect_id
             WHERE e.mailbox_id = $5 AND p.email LIKE $1 || '-%' ORDER BY e.id LIMIT $6) AS e`,
      [input.tag, type, JSON.stringify({ type, ...extra }), at, input.mailboxId, n],
    );
  }
}

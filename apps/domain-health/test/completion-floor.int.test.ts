import type { HealthSettings } from '@touchbase/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, openHarness } from './support/tick-harness.js';

const settings: HealthSettings = {
  bounceThreshold: 0.03,
  bounceWarnRatio: 0.8,
  minSends: 50,
  complaintAlert: 0.001,
  complaintPause: 0.003,
  complaintMinSends: 1000,
  windowDays: 7,
  completionFloor: 0.3,
  completionMinEnded: 50,
};

/**
 * The completion rate per sending domain (real PostgreSQL, the rollup's triggers):
 * below the floor, one alert with the reason in words, none at the next tick; the
 * domain is never paused for it; back at the floor, the mark clears.
 */
describe('domain health: the completion-rate floor', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await openHarness('dhcompl');
  });
  afterAll(async () => {
    await h?.close();
  });

  /** `n` live enrollments on the mailbox, then ended as `status` (the trigger counts each end once). */
  async function ended(mailboxId: string, tag: string, n: number, status: 'exhausted' | 'cancelled') {
    await h.db.pool.query(
      `WITH p AS (
         INSERT INTO prospect (id, email)
         SELECT gen_random_uuid(), $1 || '-' || g || '@completion.example' FROM generate_series(1, $2::int) AS g
         RETURNING id)
       INSERT INTO enrollment (id, prospect_id, sequence_id, sequence_version_id, mailbox_id, status, current_step)
       SELECT gen_random_uuid(), p.id, $3, $4, $5, 'active', 1 FROM p`,
      [tag, n, h.sequence.id, h.sequence.version.id, mailboxId],
    );
    await h.db.pool.query(
      `UPDATE enrollment e SET status = $3::"EnrollmentStatus" FROM prospect p
       WHERE p.id = e.prospect_id AND e.mailbox_id = $1 AND p.email LIKE $2 || '-%'`,
      [mailboxId, tag, status],
    );
  }

  it('alerts once when a domain falls below the floor, in words, and clears when it is back', async () => {
    const { mailboxId, domainId } = await h.domain('completion.example');
    await ended(mailboxId, 'done', 10, 'exhausted');
    await ended(mailboxId, 'early', 50, 'cancelled');

    await h.tick({ settings });
    const alerts = (await h.alertsOf(domainId)).filter((a) => a.kind === 'domain.completion_low');
    expect(alerts).toHaveLength(1);
    expect(alerts[0].message).toContain('10 of 60 sequences that ended');
    expect(alerts[0].message).toContain('16.7%');
    expect(alerts[0].message).toContain('floor 30%');
    expect(alerts[0].data.thresholds.completionFloor).toBe(0.3);
    // Alerts only: the domain keeps sending.
    expect((await h.domainRow(domainId)).status).toBe('active');

    await h.tick({ settings });
    expect((await h.alertsOf(domainId)).filter((a) => a.kind === 'domain.completion_low')).toHaveLength(1);

    await ended(mailboxId, 'later', 40, 'exhausted');
    await h.tick({ settings });
    const row = await h.db.pool.query('SELECT completion_low_since FROM sending_domain WHERE id = $1', [
      domainId,
    ]);
    expect(row.rows[0].completion_low_since).toBeNull();
  });

  it('is off unless a floor is set, and judges nothing below the minimum of ended enrollments', async () => {
    const { mailboxId, domainId } = await h.domain('few.example');
    await ended(mailboxId, 'few', 20, 'cancelled');
    await h.tick({ settings });
    const { completionFloor: _off, ...noFloor } = settings;
    await ended(mailboxId, 'many', 60, 'cancelled');
    await h.tick({ settings: noFloor });
    expect((await h.alertsOf(domainId)).filter((a) => a.kind === 'domain.completion_low')).toEqual([]);
  });
});

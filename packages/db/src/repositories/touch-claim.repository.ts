import { randomUUID } from 'node:crypto';
import { suppressionKeysOf } from '@touchbase/core';
import type pg from 'pg';
import { suppressionMatchSql } from './enrollment-stop.sql.js';

/** The outcome of a claim: the touch is ours to send, ours to resolve, already settled, or fenced off. */
export type Claim =
  | { kind: 'claimed' }
  | { kind: 'in_doubt' }
  | { kind: 'settled'; status: string }
  | { kind: 'fenced' }
  | { kind: 'suppressed' };

/** One touch as a map key: its enrollment, step and attempt. */
export function touchOf(t: { enrollmentId: string; step: number; attempt?: number }): string {
  return `${t.enrollmentId}/${t.step}/${t.attempt ?? 1}`;
}

/** One touch to claim (see `TouchClaimRepository.claim`). */
export type ClaimInput = {
  enrollmentId: string;
  step: number;
  attempt: number;
  idempotencyKey: string;
  email: string;
  variant: number;
  /**
   * The sequence version the sender rendered the touch from: the claim is fenced
   * when the enrollment is on another one now (a migration moved it since the
   * sender read it), so an old version's copy never goes out. Absent: not checked.
   */
  versionId?: string | null;
};

/**
 * Claims touches before the provider is called: the reply fence, and the touch row
 * (one per enrollment, step and attempt) that makes a crash leave a trace. Writes
 * `touch`; cancels an enrollment whose address turned out to be suppressed.
 */
export class TouchClaimRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Claims attempt `attempt` of touch `step` of an enrollment: the reply fence. The
   * conditional SELECT ... FOR UPDATE locks the enrollment row until the claim
   * commits, so it serialises with ingest's status change: once ingest has committed
   * a reply (or a soft bounce that moved the enrollment to another attempt), this
   * sees it and refuses (a change in flight makes it wait, then re-check). It only
   * locks: no new row version is written for the fence. The suppression list is read and the
   * touch row (unique per enrollment, step and attempt) written in the same
   * statement, before the provider is called, so a crash leaves a trace: "in doubt".
   * (The sender claims through `claimMany`, which also fences a touch rendered from
   * a version the enrollment is no longer on: `ClaimInput.versionId`.)
   */
  async claim(
    enrollmentId: string,
    step: number,
    idempotencyKey: string,
    email: string,
    variant = 0,
    attempt = 1,
  ): Promise<Claim> {
    const [claim] = await this.claimMany([{ enrollmentId, step, attempt, idempotencyKey, email, variant }]);
    return claim!;
  }

  /**
   * `claim` for many touches in one statement, so one commit: the sender claims the
   * touches it took together. Each touch is fenced, suppressed or inserted on its
   * own, exactly as alone. Enrollment rows are locked in id order, as a reply that
   * ends several enrollments of one prospect locks them, so the two never deadlock.
   */
  async claimMany(inputs: ClaimInput[]): Promise<Claim[]> {
    if (inputs.length === 0) return [];
    // The same touch twice in one batch: the later ones are claimed after, so they
    // see the first one's claim, as they would one after the other.
    const first = new Map<string, ClaimInput>();
    const again: number[] = [];
    inputs.forEach((c, i) => {
      if (first.has(touchOf(c))) again.push(i);
      else first.set(touchOf(c), c);
    });
    const batch = [...first.values()];
    // One hash per address, not one for each of the two arrays that need it.
    const keys = batch.map((c) => suppressionKeysOf(c.email));
    // Every part is keyed by the touch (enrollment, step, attempt), not the enrollment:
    // a stale job of an earlier step can be in the same batch as the current one.
    const { rows } = await this.pool.query<{
      eid: string;
      step: number;
      attempt: number;
      locked: boolean;
      existing: string | null;
      suppressed: boolean;
      inserted: boolean;
    }>({
      name: 'touch-claim-many',
      text: `WITH input AS (
         SELECT * FROM unnest($1::uuid[], $2::int[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::uuid[], $9::int[], $10::uuid[])
           AS i(eid, step, attempt, key, email, domain, hash, touch_id, variant, version)),
       locked AS (
         SELECT i.eid, i.step, i.attempt, e.sequence_version_id FROM enrollment e JOIN input i ON e.id = i.eid
         WHERE e.status = 'active' AND e.current_step = i.step AND e.current_attempt = i.attempt
           AND (i.version IS NULL OR e.sequence_version_id = i.version)
         ORDER BY e.id FOR UPDATE OF e),
       existing AS (
         SELECT i.eid, i.step, i.attempt, t.status::text AS status FROM input i
         JOIN touch t ON t.enrollment_id = i.eid AND t.step = i.step AND t.attempt = i.attempt),
       sup AS (
         SELECT i.eid, i.step, i.attempt FROM input i WHERE EXISTS (
           SELECT 1 FROM suppression s
           WHERE ${suppressionMatchSql('s', { email: 'i.email', domain: 'i.domain', hash: 'i.hash' })})),
       ins AS (
         -- The touch runs in the version the locked row is on: its step is a node number of that version.
         INSERT INTO touch (id, enrollment_id, step, attempt, status, idempotency_key, variant, sequence_version_id)
         SELECT i.touch_id, i.eid, i.step, i.attempt, 'sending'::"TouchStatus", i.key, i.variant, l.sequence_version_id
         FROM input i JOIN locked l ON (l.eid, l.step, l.attempt) = (i.eid, i.step, i.attempt)
         WHERE (i.eid, i.step, i.attempt) NOT IN (SELECT eid, step, attempt FROM existing)
           AND (i.eid, i.step, i.attempt) NOT IN (SELECT eid, step, attempt FROM sup)
         ON CONFLICT DO NOTHING RETURNING enrollment_id, step, attempt)
       SELECT i.eid, i.step, i.attempt,
              (i.eid, i.step, i.attempt) IN (SELECT eid, step, attempt FROM locked) AS locked,
              (SELECT status FROM existing x WHERE (x.eid, x.step, x.attempt) = (i.eid, i.step, i.attempt)) AS existing,
              (i.eid, i.step, i.attempt) IN (SELECT eid, step, attempt FROM sup) AS suppressed,
              (i.eid, i.step, i.attempt) IN (SELECT enrollment_id, step, attempt FROM ins) AS inserted
       FROM input i`,
      values: [
        batch.map((c) => c.enrollmentId),
        batch.map((c) => c.step),
        batch.map((c) => c.attempt),
        batch.map((c) => c.idempotencyKey),
        batch.map((c) => c.email),
        keys.map((k) => k.domain),
        keys.map((k) => k.hash),
        batch.map(() => randomUUID()),
        batch.map((c) => c.variant),
        batch.map((c) => c.versionId ?? null),
      ],
    });
    const byTouch = new Map(
      rows.map((r) => [touchOf({ enrollmentId: r.eid, step: r.step, attempt: r.attempt }), r]),
    );
    const claims = new Map<string, Claim>();
    const suppressed: string[] = [];
    for (const [touch, c] of first) {
      const r = byTouch.get(touch);
      if (!r?.locked) claims.set(touch, { kind: 'fenced' });
      else if (r.existing)
        claims.set(
          touch,
          r.existing === 'sending' ? { kind: 'in_doubt' } : { kind: 'settled', status: r.existing },
        );
      else if (r.suppressed) {
        suppressed.push(c.enrollmentId);
        claims.set(touch, { kind: 'suppressed' });
      } else if (r.inserted) claims.set(touch, { kind: 'claimed' });
      // Another claim of the same touch committed after this statement's snapshot.
      else claims.set(touch, await this.claimedMeanwhile(c));
    }
    if (suppressed.length > 0) {
      await this.pool.query(
        `UPDATE enrollment SET status = 'cancelled', stop_reason = 'suppressed', next_touch_at = NULL, updated_at = now()
         WHERE id = ANY($1::uuid[]) AND status = 'active'`,
        [suppressed],
      );
    }
    const later = again.length > 0 ? await this.claimMany(again.map((i) => inputs[i]!)) : [];
    const repeated = new Set(again);
    let next = 0;
    return inputs.map((c, i) => (repeated.has(i) ? later[next++]! : claims.get(touchOf(c))!));
  }

  private async claimedMeanwhile(c: ClaimInput): Promise<Claim> {
    const status = await this.statusOf(c.enrollmentId, c.step, c.attempt);
    return status === 'sending' || status === null ? { kind: 'in_doubt' } : { kind: 'settled', status };
  }

  /** The status of one attempt of one touch, or null when it was never claimed. */
  async statusOf(enrollmentId: string, step: number, attempt = 1): Promise<string | null> {
    const { rows } = await this.pool.query<{ status: string }>(
      'SELECT status::text AS status FROM touch WHERE enrollment_id = $1 AND step = $2 AND attempt = $3',
      [enrollmentId, step, attempt],
    );
    return rows[0]?.status ?? null;
  }
}

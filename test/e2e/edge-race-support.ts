import type { TestSystem } from '../support/test-system.js';

/** A first touch sent, whose node's timeout falls due a day after it. */
export type SentFirst = { eid: string; id?: string; sent_at: Date };

/**
 * Every first touch of a sequence once all `n` are sent (graph edge races start there);
 * the caller waits for the answer with `waitFor`.
 */
export async function firstTouchesSent(
  sys: TestSystem,
  sequenceId: string,
  n: number,
): Promise<(SentFirst & { id: string })[] | null> {
  const { rows } = await sys.rt.db.pool.query<SentFirst & { id: string }>(
    `SELECT t.enrollment_id AS eid, t.id, t.sent_at FROM touch t JOIN enrollment e ON e.id = t.enrollment_id
     WHERE e.sequence_id = $1 AND t.step = 1 AND t.status = 'sent'`,
    [sequenceId],
  );
  return rows.length === n ? rows : null;
}

/**
 * Fires one event per enrollment around its own timeout, so the event's edge and the
 * timeout's race on every enrollment: each fires from half a day before the timeout
 * (a day after its first touch) to a fifth of a day after it, skewed early because on
 * a loaded machine the requests themselves run late. `fire` sends the event and
 * checks its acknowledgment. Returns when each one fired and when it was acknowledged.
 */
export async function fireAroundTimeouts<T extends SentFirst>(
  first: readonly T[],
  dayMs: number,
  concurrency: number,
  fire: (r: T) => Promise<void>,
): Promise<{ fireAt: Map<string, number>; ackAt: Map<string, number> }> {
  const fireAt = new Map(
    first.map((r) => [r.eid, r.sent_at.getTime() + dayMs + (Math.random() - 0.7) * 0.7 * dayMs]),
  );
  const order = [...first].sort((a, b) => fireAt.get(a.eid)! - fireAt.get(b.eid)!);
  const ackAt = new Map<string, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < order.length) {
        const r = order[next++]!;
        const wait = fireAt.get(r.eid)! - Date.now();
        if (wait > 0) await new Promise((ok) => setTimeout(ok, wait));
        await fire(r);
        ackAt.set(r.eid, Date.now());
      }
    }),
  );
  return { fireAt, ackAt };
}

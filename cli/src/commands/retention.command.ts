import { parseArgs } from 'node:util';
import { eventRetentionCutoff } from '@touchbase/core';
import { createDatabase, EventRetentionRepository, TouchRetentionRepository } from '@touchbase/db';
import type { Config } from '@touchbase/runtime';

export const RETENTION_USAGE = `usage: touchbase retention --older-than DURATION [--batch N]

  Retires the effect-free engagement events (sent, delivered, opened, clicked)
  received before now minus DURATION (at least 7d, e.g. 180d), N at a time
  (default 5000). Their keys stay, so a redelivery is still a duplicate, and the
  funnel's facts are archived, so every funnel reads the same. Replies, bounces,
  unsubscribes and every event that changed something are kept.
  Then moves the touches made before the same cutoff, of enrollments that ended
  before it (replied, unsubscribed, exhausted, cancelled, failed; not bounced),
  to the touch archive, N at a time: the funnel, /v1/stats, cooldowns and event
  ties by message id read both, so they answer the same.
`;

/** What a run did, for its report and its test. */
export type RetentionReport = {
  cutoff: Date;
  batches: number;
  retired: number;
  archived: number;
  /** Touches moved to the touch archive. */
  touchesArchived: number;
};

/**
 * `touchbase retention`: one run over the event log of DATABASE_URL (PostgreSQL only,
 * safe beside running services and beside another run: each batch is its own two
 * commits, and every write is idempotent). Run it daily from cron or a Kubernetes
 * CronJob. See docs/scaling.md#event-retention and #the-touch-table.
 * @returns the exit code: 0 done, 2 usage or a duration under 7 days.
 */
export async function runRetention(
  args: string[],
  config: Pick<Config, 'DATABASE_URL'>,
  out: { print: (line: string) => void; error: (line: string) => void },
  opts: { now?: Date; onReport?: (r: RetentionReport) => void } = {},
): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { 'older-than': { type: 'string' }, batch: { type: 'string', default: '5000' } },
  });
  const batch = Number(values.batch);
  if (!values['older-than'] || !Number.isInteger(batch) || batch < 1 || batch > 100_000) {
    out.error(RETENTION_USAGE);
    return 2;
  }
  let cutoff: Date;
  try {
    cutoff = eventRetentionCutoff(opts.now ?? new Date(), values['older-than']);
  } catch (err) {
    out.error(`--older-than: ${(err as Error).message}`);
    return 2;
  }
  const db = createDatabase(config.DATABASE_URL, { poolSize: 2 });
  const report: RetentionReport = { cutoff, batches: 0, retired: 0, archived: 0, touchesArchived: 0 };
  try {
    const store = new EventRetentionRepository(db.pool);
    let after = 0;
    for (;;) {
      const b = await store.retireBatch(cutoff, after, batch);
      report.batches++;
      report.retired += b.retired;
      report.archived += b.archived;
      if (b.lastSeq === null || b.reachedCutoff) break;
      after = b.lastSeq;
    }
    const touches = new TouchRetentionRepository(db.pool);
    for (;;) {
      const n = await touches.archiveBatch(cutoff, batch);
      report.touchesArchived += n;
      if (n === 0) break;
    }
  } finally {
    await db.close();
  }
  out.print(
    `retired ${report.retired} events received before ${cutoff.toISOString()} ` +
      `(${report.archived} funnel facts archived) in ${report.batches} batches`,
  );
  out.print(`archived ${report.touchesArchived} touches of enrollments ended before ${cutoff.toISOString()}`);
  opts.onReport?.(report);
  return 0;
}

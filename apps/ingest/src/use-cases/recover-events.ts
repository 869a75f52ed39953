import type { PulledPage } from '@touchbase/providers';
import { type IngestDeps, ingestEvent } from './ingest-event.js';

/** A provider's event stream, read by cursor (see `HttpEventStream`). */
export type EventStream = {
  readonly name: string;
  pull(cursor: string | null, limit?: number): Promise<PulledPage>;
};

/** What a recovery did. */
export type RecoveryReport = {
  provider: string;
  from: string | null;
  cursor: string | null;
  pulled: number;
  recorded: number;
  duplicates: number;
  rejected: number;
};

/**
 * Walks a provider's event stream from the persisted cursor: each event is
 * recorded once and applied exactly like a webhook (one it already got by webhook
 * is a duplicate and changes nothing), and the cursor moves forward only after a
 * page is recorded, so a crash repeats at most a page, which the log deduplicates.
 */
export async function recoverEvents(
  deps: IngestDeps,
  stream: EventStream,
  opts: { pageSize?: number; maxPages?: number } = {},
): Promise<RecoveryReport> {
  const from = await deps.events.cursor(stream.name);
  const report: RecoveryReport = {
    provider: stream.name,
    from,
    cursor: from,
    pulled: 0,
    recorded: 0,
    duplicates: 0,
    rejected: 0,
  };
  for (let pages = 0; pages < (opts.maxPages ?? 10_000); pages++) {
    const page = await stream.pull(report.cursor, opts.pageSize ?? 500);
    for (const { event } of page.events) {
      const r = await ingestEvent(deps, event);
      report.pulled++;
      if (r.duplicate) report.duplicates++;
      else report.recorded++;
    }
    for (const bad of page.rejected) {
      report.rejected++;
      deps.logger.warn(
        { provider: stream.name, seq: bad.seq, err: bad.error },
        'Pulled event skipped: not a valid event',
      );
    }
    if (page.cursor && page.cursor !== report.cursor) {
      await deps.events.advanceCursor(stream.name, page.cursor);
      report.cursor = page.cursor;
    }
    if (!page.hasMore || page.events.length + page.rejected.length === 0) break;
  }
  deps.logger.info({ ...report }, 'Provider events recovered');
  return report;
}

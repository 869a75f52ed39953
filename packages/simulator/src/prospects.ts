import { parse } from 'csv-parse/sync';
import type { z } from 'zod';
import type { ProspectListSchema, SyntheticProspectsSchema } from './simulation.schemas.js';

/** The prospects of a run: each one's time zone (null: the mailbox's). */
export type Population = { timeZones: (string | null)[] };

type ProspectsInput = z.output<typeof SyntheticProspectsSchema> | z.output<typeof ProspectListSchema>;

const ZONE_COLUMNS = ['timezone', 'time_zone', 'tz', 'timeZone'];

/** Thrown for a prospect list the simulator cannot read; `field` names where. */
export class ProspectListError extends Error {
  override readonly name = 'ProspectListError';
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

/**
 * The population a run enrolls: from a synthetic size and zone mix (zones dealt
 * out by largest remainder, then interleaved so each zone is spread over the
 * enrollment order, as an import sorted by nothing in particular would be), from
 * a CSV with a time-zone column, or from rows. A zone the runtime does not know
 * falls back to the mailbox's, as `resolveTimeZone` does live.
 */
export function populationOf(input: ProspectsInput): Population {
  if ('count' in input) return synthetic(input.count, input.timeZones);
  if ('list' in input) return { timeZones: input.list.map((p) => p.timezone ?? null) };
  return fromCsv(input.csv);
}

function synthetic(count: number, mix: Record<string, number> | undefined): Population {
  const zones = Object.entries(mix ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (zones.length === 0) return { timeZones: new Array<string | null>(count).fill(null) };
  const total = zones.reduce((s, [, w]) => s + w, 0);
  const exact = zones.map(([zone, w]) => ({ zone, share: (w / total) * count }));
  const counts = exact.map((e) => Math.floor(e.share));
  let left = count - counts.reduce((s, c) => s + c, 0);
  const order = exact
    .map((e, i) => ({ i, rest: e.share - Math.floor(e.share) }))
    .sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left-- <= 0) break;
    counts[i] = (counts[i] as number) + 1;
  }
  // Interleave: prospect k takes the zone furthest behind its share so far.
  const given = counts.map(() => 0);
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    let best = 0;
    let bestLag = Number.NEGATIVE_INFINITY;
    for (let i = 0; i < zones.length; i++) {
      if ((given[i] as number) >= (counts[i] as number)) continue;
      const lag = ((k + 1) * (counts[i] as number)) / count - (given[i] as number);
      if (lag > bestLag) {
        bestLag = lag;
        best = i;
      }
    }
    given[best] = (given[best] as number) + 1;
    out.push((zones[best] as [string, number])[0]);
  }
  return { timeZones: out };
}

function fromCsv(text: string): Population {
  let rows: Record<string, string>[];
  try {
    rows = parse(text, { columns: true, skip_empty_lines: true, trim: true, bom: true });
  } catch (error) {
    throw new ProspectListError(
      `prospects.csv is not readable CSV: ${error instanceof Error ? error.message : String(error)}`,
      'prospects.csv',
    );
  }
  if (rows.length === 0)
    throw new ProspectListError('prospects.csv has a header but no rows', 'prospects.csv');
  const column = ZONE_COLUMNS.find((c) => c in (rows[0] as Record<string, string>));
  return { timeZones: rows.map((r) => (column ? r[column] || null : null)) };
}

import { companyDomainOf, exclusivityConflict } from '@touchbase/core';
import { parse } from 'csv-parse/sync';
import type { z } from 'zod';
import type { ProspectListSchema, SyntheticProspectsSchema } from './simulation.schemas.js';

/** The people of the input that enrolling refuses, by the reason the live enrollment gives. */
export type Refusals = {
  /** Listed twice, or enrolled in this sequence already, live or ended (`already_enrolled`). */
  alreadyEnrolled: number;
  /** Live in another sequence when either is exclusive (`in_other_sequence`, core's `exclusivityConflict`). */
  inOtherSequence: number;
  /** A suppressed address, by address, domain or erased person's hash (`suppressed`). */
  suppressed: number;
  /** A person not to contact before a later date (`cooling_off`). */
  coolingOff: number;
};

/**
 * The prospects of a run: each one's time zone (null: the mailbox's), company
 * domain (null: none, the recipient-domain cap does not count them) and when
 * another enrollment last touched them (ms; NaN: never), for the cooldown.
 */
export type Population = {
  timeZones: (string | null)[];
  companyDomains?: (string | null)[];
  lastContactAt?: number[];
};

/** The population enrolled from an input, and the people of the input enrolling refused. */
export type Admission = Population & { refused: Refusals };

/** The simulated sequence as exclusivity sees it. */
type SequenceOf = { id?: string | undefined; exclusive: boolean };

type ProspectsInput = z.output<typeof SyntheticProspectsSchema> | z.output<typeof ProspectListSchema>;

const ZONE_COLUMNS = ['timezone', 'time_zone', 'tz', 'timeZone'];
const DOMAIN_COLUMNS = ['company_domain', 'companyDomain', 'website'];

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

const NO_REFUSALS: Refusals = { alreadyEnrolled: 0, inOtherSequence: 0, suppressed: 0, coolingOff: 0 };

/**
 * The population a run enrolls: from a synthetic size and zone mix (zones dealt
 * out by largest remainder, then interleaved so each zone is spread over the
 * enrollment order, as an import sorted by nothing in particular would be), from
 * a CSV with a time-zone column, or from rows. A zone the runtime does not know
 * falls back to the mailbox's, as `resolveTimeZone` does live. As enrolling does,
 * a person is enrolled once (a row whose `id`, or a CSV row whose `id` or `email`,
 * came before is refused), and a row held by another sequence under exclusivity
 * (`liveIn`), or live or ever enrolled in this one (`enrolledInSequence`), is refused.
 */
export function populationOf(input: ProspectsInput, sequence: SequenceOf = { exclusive: true }): Admission {
  if ('count' in input) return { ...synthetic(input.count, input.timeZones), refused: { ...NO_REFUSALS } };
  return admitted('list' in input ? input.list : listOfCsv(input.csv), sequence);
}

function admitted(
  rows: readonly {
    id?: string | undefined;
    timezone?: string | null | undefined;
    email?: string | undefined;
    companyDomain?: string | null | undefined;
    lastContactAt?: string | null | undefined;
    liveIn?: { sequenceId: string; exclusive: boolean }[] | undefined;
    refusal?: 'suppressed' | 'cooling_off' | undefined;
    enrolledInSequence?: boolean | undefined;
  }[],
  sequence: SequenceOf,
): Admission {
  const refused = { ...NO_REFUSALS };
  const seen = new Set<string>();
  const timeZones: (string | null)[] = [];
  const companyDomains: (string | null)[] = [];
  const lastContactAt: number[] = [];
  const self = { id: sequence.id ?? '', exclusive: sequence.exclusive };
  for (const row of rows) {
    const live = row.liveIn ?? [];
    // In the live enrollment's order: not found, suppressed or cooling off, exclusivity, already enrolled.
    if (row.refusal === 'suppressed' || row.refusal === 'cooling_off') {
      if (row.refusal === 'suppressed') refused.suppressed++;
      else refused.coolingOff++;
      continue;
    }
    if (row.id !== undefined && seen.has(row.id)) {
      refused.alreadyEnrolled++;
      continue;
    }
    if (row.id !== undefined) seen.add(row.id);
    if (exclusivityConflict(self, live) !== null) {
      refused.inOtherSequence++;
      continue;
    }
    if (row.enrolledInSequence || live.some((l) => l.sequenceId === sequence.id)) {
      refused.alreadyEnrolled++;
      continue;
    }
    timeZones.push(row.timezone ?? null);
    companyDomains.push(companyDomainOf(row.email ?? '', row.companyDomain));
    lastContactAt.push(row.lastContactAt ? Date.parse(row.lastContactAt) : Number.NaN);
  }
  return { timeZones, companyDomains, lastContactAt, refused };
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

/** A prospect list's row (`prospects.list`). */
export type ProspectRow = Extract<z.output<typeof ProspectListSchema>, { list: unknown }>['list'][number];

/**
 * A CSV prospect list as rows: a person is keyed (`id`) by the `id` column, else the
 * `email` one, in lower case (a CSV import makes one prospect per person), with the
 * time zone, address and company domain columns given. The API turns a CSV into rows
 * so that what it reads of existing people applies to both.
 * @throws ProspectListError for text that is not CSV or has no rows
 */
export function listOfCsv(text: string): ProspectRow[] {
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
  const first = rows[0] as Record<string, string>;
  const column = ZONE_COLUMNS.find((c) => c in first);
  const key = ['id', 'email'].find((c) => c in first);
  const domainColumn = DOMAIN_COLUMNS.find((c) => c in first);
  return rows.map((r) => {
    const person = key ? (r[key] ?? '').toLowerCase() : '';
    const domain = domainColumn ? r[domainColumn] : '';
    return {
      ...(person !== '' ? { id: person } : {}),
      timezone: column ? r[column] || null : null,
      ...(r.email ? { email: r.email } : {}),
      // As the import stores it: the column given, else the address's (core's `companyDomainOf`).
      ...(domain ? { companyDomain: domain } : {}),
    };
  });
}

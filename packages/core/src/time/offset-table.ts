import { IANAZone } from 'luxon';

// Offsets are sampled this far apart before bisecting, so two changes closer than
// this would be stepped over unseen. tzdb has none in the years we schedule for:
// the closest pair in the zones the property tests cover (Casablanca's Ramadan
// breaks) is 31 days apart, and Temporal's polyfill samples two weeks apart on the
// same bet. A smaller step only costs more Intl calls per table.
export const OFFSET_SCAN_STEP_MS = 6 * 3_600_000;

/** The years kept as tables; instants outside ask Intl directly. */
const TABLE_FROM = Date.UTC(1900, 0, 1);
const TABLE_UNTIL = Date.UTC(2200, 0, 1);

/** One UTC year of a zone: the offset (minutes) at its start and each change in it, with the offset after. */
type YearTable = { start: number; end: number; startOffset: number; changes: number[]; offsets: number[] };

const tables = new Map<string, Map<number, YearTable>>();
// The table each zone was last read from: consecutive reads mostly fall in the same year.
const lastRead = new Map<string, YearTable>();
const TABLE_ZONES_MAX = 1_000;

/**
 * A zone's UTC offsets, in minutes, as luxon's `IANAZone.offset` gives them, from
 * a table of each UTC year's changes built once per zone and year. Asking Intl
 * costs tens of microseconds a call and a window search makes dozens; a dry run
 * of a campaign makes hundreds of thousands of searches, and the live scheduler
 * the same searches at every touch. The table is found with the same scan (every
 * 6 hours, then bisection to the millisecond), so it finds the same changes.
 */
export function zoneOffsetMinutes(timeZone: string, epochMs: number): number {
  if (!(epochMs >= TABLE_FROM && epochMs < TABLE_UNTIL)) return IANAZone.create(timeZone).offset(epochMs);
  const table = yearTableOf(timeZone, epochMs);
  const i = lastAtOrBefore(table.changes, epochMs);
  return i < 0 ? table.startOffset : (table.offsets[i] as number);
}

/**
 * The first instant in (`from`, `until`] whose offset differs from the offset at
 * `from`, or null; from the year tables when both ends lie in their range.
 */
export function firstChangeAfter(timeZone: string, from: number, until: number): number | null | undefined {
  if (!(from >= TABLE_FROM && until < TABLE_UNTIL)) return undefined;
  const first = yearOf(from);
  const before = zoneOffsetMinutes(timeZone, from);
  for (let year = first; yearStart(year) <= until; year++) {
    const table = yearTableOf(timeZone, Math.max(from, yearStart(year)));
    // A change exactly at New Year is the next table's starting offset.
    if (year > first && table.startOffset !== before) return yearStart(year);
    const i = year === first ? lastAtOrBefore(table.changes, from) + 1 : 0;
    const change = table.changes[i];
    if (change !== undefined) return change <= until ? change : null;
  }
  return null;
}

function yearTableOf(timeZone: string, epochMs: number): YearTable {
  const last = lastRead.get(timeZone);
  if (last && epochMs >= last.start && epochMs < last.end) return last;
  let years = tables.get(timeZone);
  if (!years) {
    if (tables.size >= TABLE_ZONES_MAX) {
      tables.clear();
      lastRead.clear();
    }
    years = new Map();
    tables.set(timeZone, years);
  }
  const year = yearOf(epochMs);
  let table = years.get(year);
  if (!table) {
    table = buildYear(IANAZone.create(timeZone), year);
    years.set(year, table);
  }
  lastRead.set(timeZone, table);
  return table;
}

function buildYear(zone: IANAZone, year: number): YearTable {
  const start = yearStart(year);
  const end = yearStart(year + 1);
  const startOffset = zone.offset(start);
  const changes: number[] = [];
  const offsets: number[] = [];
  let low = start;
  let current = startOffset;
  while (low < end) {
    // The last sample is one ms before the next year, whose table starts there.
    const high = Math.min(low + OFFSET_SCAN_STEP_MS, end - 1);
    const offset = zone.offset(high);
    if (offset !== current) {
      const at = findOffsetChange(zone, low, high, current);
      changes.push(at);
      offsets.push(offset);
      current = offset;
    }
    if (high === end - 1) break;
    low = high;
  }
  return { start, end, startOffset, changes, offsets };
}

/** The first instant in (lo, hi] whose offset differs from `before` (the offset at `lo`). */
export function findOffsetChange(zone: IANAZone, lo: number, hi: number, before = zone.offset(lo)): number {
  let low = lo;
  let high = hi;
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (zone.offset(mid) === before) low = mid;
    else high = mid;
  }
  return high;
}

/** Index of the last entry ≤ `t`, -1 if none. */
function lastAtOrBefore(sorted: number[], t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

function yearOf(epochMs: number): number {
  return new Date(epochMs).getUTCFullYear();
}

function yearStart(year: number): number {
  return Date.UTC(year, 0, 1);
}

import fc from 'fast-check';
import { IANAZone } from 'luxon';
import { describe, expect, it } from 'vitest';
import { zoneOffsetMinutes } from '../../src/time/offset-table.js';
import { nextOffsetChange } from '../../src/time/zoned-time.js';

const ZONES = [
  'America/New_York',
  'Europe/Berlin',
  'Australia/Lord_Howe',
  'Pacific/Chatham',
  'America/St_Johns',
  'America/Sao_Paulo',
  'Asia/Tehran',
  'Pacific/Apia',
  'Africa/Casablanca',
  'UTC',
];
const FROM = Date.UTC(1990, 0, 1);
const UNTIL = Date.UTC(2100, 0, 1);

/** The scan the year tables replace: every 6 hours from `from`, then bisection. */
function scannedChange(zone: IANAZone, from: number, until: number): number | null {
  const before = zone.offset(from);
  for (let low = from; low < until; ) {
    const high = Math.min(low + 6 * 3_600_000, until);
    if (zone.offset(high) !== before) {
      let lo = low;
      let hi = high;
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (zone.offset(mid) === zone.offset(low)) lo = mid;
        else hi = mid;
      }
      return hi;
    }
    low = high;
  }
  return null;
}

describe('zone offset year tables', () => {
  it('give the offset Intl gives, at any instant', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.integer({ min: FROM, max: UNTIL }), (name, t) => {
        expect(zoneOffsetMinutes(name, t)).toBe(IANAZone.create(name).offset(t));
      }),
      { numRuns: 1_500 },
    );
  });

  it('find the same next change as scanning from the instant, across New Year too', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: FROM, max: UNTIL }),
        fc.integer({ min: 1, max: 400 * 86_400_000 }),
        (name, from, span) => {
          const until = Math.min(from + span, UNTIL);
          expect(nextOffsetChange(name, from, until)).toBe(scannedChange(IANAZone.create(name), from, until));
        },
      ),
      { numRuns: 600 },
    );
  });
});

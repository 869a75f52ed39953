import { describe, expect, it } from 'vitest';
import {
  addWait,
  moveIntoWindow,
  type SendingWindow,
  SendingWindowError,
  TimeRangeError,
} from '../../src/time/index.js';
import { catchError } from './support/catch-error.js';

// The rule: the fitted time is the earliest instant at or after `due` whose LOCAL
// wall time is on an allowed, non-holiday day and in [start, end). These cases come
// from the property check against Temporal reported in issue 19.

const NY = 'America/New_York';
const SAO_PAULO = 'America/Sao_Paulo';
const APIA = 'Pacific/Apia';
const MAX_DATE_MS = 8.64e15;

const move = (iso: string, window: SendingWindow, timeZone: string, jitterMs = 0, random = () => 0) =>
  moveIntoWindow(new Date(iso), window, timeZone, { jitterMs, random }).toISOString();

describe('moveIntoWindow on a fall-back day: the window opens by the local clock', () => {
  // 2025-11-02 in New York: 02:00 EDT (06:00Z) becomes 01:00 EST, so 01:00–02:00 is lived twice.
  it('a start in the repeated hour does not let a touch out before it (01:00 EST → 01:45 EST)', () => {
    const window: SendingWindow = { days: [7], start: '01:45', end: '02:00' };
    expect(move('2025-11-02T06:00:00Z', window, NY)).toBe('2025-11-02T06:45:00.000Z');
  });

  it('an end in the repeated hour keeps the second pass open (01:00 EST is inside 00:00–01:45)', () => {
    const window: SendingWindow = { days: [7], start: '00:00', end: '01:45' };
    expect(move('2025-11-02T06:00:00Z', window, NY)).toBe('2025-11-02T06:00:00.000Z');
  });

  it('after the first pass of the slot, waits for its second pass the same night, not a week', () => {
    const window: SendingWindow = { days: [7], start: '01:45', end: '02:00' };
    expect(move('2025-11-02T05:50:00Z', window, NY)).toBe('2025-11-02T05:50:00.000Z'); // 01:50 EDT
    expect(move('2025-11-02T05:59:00Z', window, NY)).toBe('2025-11-02T05:59:00.000Z'); // 01:59 EDT
    expect(move('2025-11-02T06:01:00Z', window, NY)).toBe('2025-11-02T06:45:00.000Z'); // 01:01 EST
  });

  it('keeps jitter inside the pass of the slot it starts in', () => {
    const window: SendingWindow = { days: [7], start: '01:45', end: '02:00' };
    // 01:55 EDT + up to an hour of jitter stops at 01:59:59.999 EDT, not at 02:00 EST.
    expect(move('2025-11-02T05:55:00Z', window, NY, 3_600_000, () => 0.99)).toBe('2025-11-02T05:59:59.999Z');
  });

  it('a fall-back at midnight keeps the repeated evening hour open (São Paulo, 2019-02-16)', () => {
    // 2019-02-17 00:00 BRST (02:00Z) became 2019-02-16 23:00 BRT: Saturday 23:00–24:00 is lived twice.
    const window: SendingWindow = { days: [6], start: '23:00', end: '23:30' };
    expect(move('2019-02-17T02:10:00Z', window, SAO_PAULO)).toBe('2019-02-17T02:10:00.000Z'); // 23:10 BRT
    expect(move('2019-02-17T01:40:00Z', window, SAO_PAULO)).toBe('2019-02-17T02:00:00.000Z'); // 23:40 BRST → 23:00 BRT
  });
});

describe('moveIntoWindow on a spring-forward day: skipped local times do not exist', () => {
  it('a window starting in the gap opens at the first instant after it', () => {
    // São Paulo 2018-11-04: 00:00 BRT became 01:00 BRST, so the day starts at 01:00.
    const window: SendingWindow = { days: [7], start: '00:30', end: '06:00' };
    expect(move('2018-11-04T02:00:00Z', window, SAO_PAULO)).toBe('2018-11-04T03:00:00.000Z');
  });

  it('a day the zone skipped entirely has no slot (Apia skipped Friday 2011-12-30)', () => {
    const window: SendingWindow = { days: [5, 6], start: '09:00', end: '17:00' };
    // Thursday 2011-12-29 18:00 (−10:00) → Saturday 2011-12-31 09:00 (+14:00).
    expect(move('2011-12-30T04:00:00Z', window, APIA)).toBe('2011-12-30T19:00:00.000Z');
  });
});

describe('a window ending at 23:59 runs to midnight', () => {
  const holidayOnly: SendingWindow = {
    days: [1, 2, 3, 4, 5, 6, 7],
    start: '00:00',
    end: '23:59',
    holidays: ['2013-04-02'],
  };

  it('reaches the last minute of the day before a holiday', () => {
    expect(move('2013-04-01T23:59:00Z', holidayOnly, 'UTC')).toBe('2013-04-01T23:59:00.000Z');
    expect(move('2013-04-01T23:59:59.999Z', holidayOnly, 'UTC')).toBe('2013-04-01T23:59:59.999Z');
  });

  it('keeps jitter before midnight: the next date, open or not, is another slot', () => {
    expect(move('2013-04-03T23:50:00Z', holidayOnly, 'UTC', 3_600_000, () => 0.99)).toBe(
      '2013-04-03T23:59:59.999Z',
    );
  });

  it('still skips the holiday itself, to the next midnight', () => {
    expect(move('2013-04-02T00:00:00Z', holidayOnly, 'UTC')).toBe('2013-04-03T00:00:00.000Z');
  });
});

describe('arithmetic past the range of a JavaScript Date', () => {
  it('addWait throws TimeRangeError instead of returning Invalid Date', () => {
    for (const [from, wait] of [
      [MAX_DATE_MS - 1_000, '1h'],
      [MAX_DATE_MS, '1d'],
      [MAX_DATE_MS - 3_600_000, 'P1W'],
    ] as const) {
      const error = catchError(() => addWait(new Date(from), wait, NY));
      expect(error).toBeInstanceOf(TimeRangeError);
      expect((error as TimeRangeError).code).toBe('time_out_of_range');
    }
  });

  it('moveIntoWindow throws TimeRangeError when the next slot is past the range', () => {
    const window: SendingWindow = { days: [1], start: '09:00', end: '17:00' };
    const error = catchError(() => moveIntoWindow(new Date(MAX_DATE_MS - 1_000), window, 'UTC'));
    expect(error).toBeInstanceOf(TimeRangeError);
    expect(error).not.toBeInstanceOf(SendingWindowError);
  });
});

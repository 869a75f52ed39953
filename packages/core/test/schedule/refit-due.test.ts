import { describe, expect, it } from 'vitest';
import {
  dueAfterWait,
  firstTouchDue,
  fitDue,
  placeInWindow,
  refitDue,
  softBounceRetryDue,
  unfittedAfterWait,
  unfittedFirstTouch,
  unfittedSoftBounceRetry,
} from '../../src/index.js';

const nineToFive = { days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' };
const eightToFive = { days: [1, 2, 3, 4, 5], start: '08:00', end: '17:00' };
const tenToFive = { days: [1, 2, 3, 4, 5], start: '10:00', end: '17:00' };
const utc = (window: typeof nineToFive | null) => ({ timeZone: 'UTC', window, timeScale: 1 });

// Monday 2026-11-23 07:00 UTC, before every window of the day.
const early = new Date('2026-11-23T07:00:00Z');

describe('fitting a due time and re-fitting it', () => {
  it('keeps the raw time the window moved: equal to the due time when no window applies', () => {
    expect(fitDue(early, utc(nineToFive))).toEqual({
      at: new Date('2026-11-23T09:00:00Z'),
      unfittedAt: early,
    });
    expect(fitDue(early, utc(null))).toEqual({ at: early, unfittedAt: early });
  });

  it('the unfitted forms are the due times before the window', () => {
    const from = new Date('2026-11-20T21:00:00Z'); // Friday
    const t = { timeZone: 'America/New_York', window: nineToFive, timeScale: 1 };
    expect(placeInWindow(unfittedAfterWait(from, '1d', t), t)).toEqual(dueAfterWait(from, '1d', t));
    expect(unfittedAfterWait(from, '1d', t).toISOString()).toBe('2026-11-21T21:00:00.000Z');
    const r = () => 0.5;
    expect(placeInWindow(unfittedFirstTouch(early, 3, 1000, { ...t, random: r }), t)).toEqual(
      firstTouchDue(early, 3, 1000, { ...t, random: r }),
    );
    expect(placeInWindow(unfittedSoftBounceRetry(early, 2, t), t)).toEqual(softBounceRetryDue(early, 2, t));
    expect(unfittedSoftBounceRetry(early, 2, t).getTime() - early.getTime()).toBe(2 * 86_400_000);
  });

  it('brings a touch forward when the window widens and back when it narrows', () => {
    const { at, unfittedAt } = fitDue(early, utc(nineToFive));
    const pending = { nextTouchAt: at, unfittedAt, fittedAt: at };
    expect(refitDue(pending, utc(eightToFive))?.toISOString()).toBe('2026-11-23T08:00:00.000Z');
    expect(refitDue(pending, utc(tenToFive))?.toISOString()).toBe('2026-11-23T10:00:00.000Z');
    expect(refitDue(pending, utc(null))).toEqual(early);
  });

  it('re-fits from the raw time, not from the fitted one', () => {
    // Fitted to 09:00 under 09:00–17:00. Re-fitting 09:00 into 08:00–17:00 leaves it
    // at 09:00 (it is inside); re-fitting the raw 07:00 gives 08:00.
    const { at, unfittedAt } = fitDue(early, utc(nineToFive));
    expect(placeInWindow(at, utc(eightToFive)).toISOString()).toBe('2026-11-23T09:00:00.000Z');
    expect(refitDue({ nextTouchAt: at, unfittedAt, fittedAt: at }, utc(eightToFive))?.toISOString()).toBe(
      '2026-11-23T08:00:00.000Z',
    );
    // Narrowed then widened back: the touch returns to where it was, not to 10:00.
    const back = refitDue({ nextTouchAt: at, unfittedAt, fittedAt: at }, utc(tenToFive))!;
    expect(refitDue({ nextTouchAt: back, unfittedAt, fittedAt: back }, utc(nineToFive))).toEqual(at);
  });

  it('moves a touch to the next open day when a holiday is added', () => {
    const { at, unfittedAt } = fitDue(early, utc(nineToFive));
    const holiday = { ...nineToFive, holidays: ['2026-11-23'] };
    expect(refitDue({ nextTouchAt: at, unfittedAt, fittedAt: at }, utc(holiday))?.toISOString()).toBe(
      '2026-11-24T09:00:00.000Z',
    );
  });

  it('is idempotent', () => {
    const { at, unfittedAt } = fitDue(early, utc(nineToFive));
    const once = refitDue({ nextTouchAt: at, unfittedAt, fittedAt: at }, utc(eightToFive))!;
    expect(refitDue({ nextTouchAt: once, unfittedAt, fittedAt: once }, utc(eightToFive))).toEqual(once);
  });

  it('keeps a jittered time that is still a placement of the same slot, and re-jitters none', () => {
    const slot = new Date('2026-11-23T09:00:00Z');
    const jittered = new Date(slot.getTime() + 60_000);
    const t = { ...utc(nineToFive), jitterMs: 300_000, random: () => 0.9 };
    expect(refitDue({ nextTouchAt: jittered, unfittedAt: early, fittedAt: jittered }, t)).toEqual(jittered);
    // Under the new window the slot is 08:00: the exact slot, no new jitter.
    expect(
      refitDue(
        { nextTouchAt: jittered, unfittedAt: early, fittedAt: jittered },
        { ...t, window: eightToFive },
      ),
    ).toEqual(new Date('2026-11-23T08:00:00Z'));
  });

  it('leaves a touch whose due time was moved by something else, or never fitted', () => {
    const { at, unfittedAt } = fitDue(early, utc(nineToFive));
    const heldUntil = new Date('2026-11-25T09:00:00Z'); // a contact-policy hold moved it
    expect(refitDue({ nextTouchAt: heldUntil, unfittedAt, fittedAt: at }, utc(eightToFive))).toBeNull();
    expect(refitDue({ nextTouchAt: at, unfittedAt: null, fittedAt: null }, utc(eightToFive))).toBeNull();
  });

  it('ignores windows under TIME_SCALE, as fitting does', () => {
    const pending = { nextTouchAt: early, unfittedAt: early, fittedAt: early };
    expect(refitDue(pending, { timeZone: 'UTC', window: eightToFive, timeScale: 100 })).toEqual(early);
  });
});

import { describe, expect, it } from 'vitest';
import { DurationError, DurationSchema, parseDuration } from '../../src/time/index.js';

const S = 1_000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('parseDuration', () => {
  it.each([
    ['30s', 30 * S],
    ['15m', 15 * M],
    ['4h', 4 * H],
    ['3d', 3 * D],
    ['2w', 14 * D],
    ['1d12h', D + 12 * H],
    ['1w2d3h4m5s', 9 * D + 3 * H + 4 * M + 5 * S],
    ['1d 12h', D + 12 * H],
    [' 3d ', 3 * D],
    ['0s', 0],
  ])('reads the short form %j', (input, ms) => {
    expect(parseDuration(input)).toBe(ms);
  });

  it.each([
    ['P3D', 3 * D],
    ['PT4H', 4 * H],
    ['P1DT2H30M', D + 2 * H + 30 * M],
    ['PT90S', 90 * S],
    ['P2W', 14 * D],
    ['p1dt2h', D + 2 * H],
    ['PT0S', 0],
  ])('reads ISO 8601 %j', (input, ms) => {
    expect(parseDuration(input)).toBe(ms);
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['3', 'number and a unit'],
    ['d', 'number and a unit'],
    ['-1d', 'number and a unit'],
    ['3x', 'unknown unit "x"'],
    ['3D', 'unknown unit "D"'],
    ['100ms', 'unknown unit "ms"'],
    ['1.5h', 'fractions'],
    ['12h1d', 'largest to smallest'],
    ['1d1d', 'more than once'],
    ['P', 'no components'],
    ['PT', 'ISO 8601'],
    ['P1DT', 'ISO 8601'],
    ['P1M', 'years and months'],
    ['P1Y2D', 'years and months'],
    ['PT1.5H', 'fractions'],
    ['P1H', 'ISO 8601'],
    ['99999d', 'limit'],
  ])('refuses %j (%s)', (input, problem) => {
    let caught: unknown;
    try {
      parseDuration(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DurationError);
    const error = caught as DurationError;
    expect(error.code).toBe('invalid_duration');
    expect(error.input).toBe(input);
    expect(error.message).toContain(JSON.stringify(input));
    expect(error.message).toContain(problem);
  });
});

describe('DurationSchema', () => {
  it('keeps a valid duration as the string it was given', () => {
    expect(DurationSchema.parse('P1DT2H')).toBe('P1DT2H');
  });

  it('names the problem in its message', () => {
    const result = DurationSchema.safeParse('3 days');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      'Invalid duration "3 days": unknown unit "days" (use s, m, h, d or w)',
    );
  });

  it('refuses a non-string', () => {
    expect(DurationSchema.safeParse(3).success).toBe(false);
  });
});

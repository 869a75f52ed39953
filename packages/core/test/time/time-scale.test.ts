import { describe, expect, it } from 'vitest';
import { parseDuration, scaleDuration } from '../../src/time/index.js';

describe('scaleDuration', () => {
  it('is the identity at scale 1', () => {
    expect(scaleDuration(parseDuration('3d'), 1)).toBe(parseDuration('3d'));
  });

  it('makes a day last one second at scale 86400', () => {
    expect(scaleDuration(parseDuration('1d'), 86_400)).toBe(1_000);
    expect(scaleDuration(parseDuration('3d'), 86_400)).toBe(3_000);
  });

  it('never turns a positive wait into zero', () => {
    expect(scaleDuration(parseDuration('30s'), 86_400)).toBe(1);
    expect(scaleDuration(0, 86_400)).toBe(0);
  });

  it.each([
    [-1, 1],
    [Number.NaN, 1],
    [1_000, 0],
    [1_000, -2],
    [1_000, Number.POSITIVE_INFINITY],
  ])('refuses ms=%d, timeScale=%d', (ms, timeScale) => {
    expect(() => scaleDuration(ms, timeScale)).toThrow(RangeError);
  });
});

import { describe, expect, it } from 'vitest';
import { pickVariant } from '../../src/templates/index.js';

// Computed once from FNV-1a + the murmur3 finaliser and checked against an independent
// implementation; a change here reshuffles every running A/B test.
const PINNED = [0, 2, 1, 0, 0, 2];

describe('pickVariant', () => {
  it('is stable for a seed', () => {
    const seed = 'prospect-42:sequence-7:2';
    const first = pickVariant(3, seed);
    for (let i = 0; i < 10; i++) expect(pickVariant(3, seed)).toBe(first);
  });

  it('keeps the assignments it has already made', () => {
    expect(
      ['a', 'b', 'c', 'prospect-1:seq-1:1', 'prospect-2:seq-1:1', 'é'].map((seed) => pickVariant(4, seed)),
    ).toEqual(PINNED);
  });

  it.each([2, 3, 4, 5])(
    'spreads 10,000 seeds evenly over %i variants (each share within ±3 points)',
    (count) => {
      const hits = new Array<number>(count).fill(0);
      for (let i = 0; i < 10_000; i++) {
        const variant = pickVariant(count, `prospect-${i}:sequence-1:2`);
        hits[variant] = (hits[variant] ?? 0) + 1;
      }
      for (const hit of hits) expect(Math.abs(hit / 10_000 - 1 / count)).toBeLessThan(0.03);
    },
  );

  it('spreads seeds that differ only in the step number', () => {
    const hits = [0, 0];
    for (let i = 0; i < 10_000; i++) {
      const variant = pickVariant(2, `prospect-7:sequence-1:${i}`);
      hits[variant] = (hits[variant] ?? 0) + 1;
    }
    for (const hit of hits) expect(Math.abs(hit / 10_000 - 0.5)).toBeLessThan(0.03);
  });

  it('always answers 0 for a single variant and stays in range', () => {
    expect(pickVariant(1, 'anything')).toBe(0);
    for (let i = 0; i < 1_000; i++) {
      const variant = pickVariant(5, `s${i}`);
      expect(Number.isInteger(variant) && variant >= 0 && variant < 5).toBe(true);
    }
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses variantCount %d', (count) => {
    expect(() => pickVariant(count, 'seed')).toThrow(RangeError);
  });
});

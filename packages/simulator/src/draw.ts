/**
 * A number in [0, 1) fixed by (seed, a, b, salt): each prospect's outcome at each
 * step is drawn by its own coordinates, not from one shared stream, so a what-if
 * run with more mailboxes meets the same replies and bounces as the base run and
 * the difference between them is the mailboxes' alone.
 */
export function drawFor(seed: number, a: number, b: number, salt: number): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  h = mix(h ^ Math.imul(a + 1, 0x85ebca6b));
  h = mix(h ^ Math.imul(b + 1, 0xc2b2ae35));
  h = mix(h ^ Math.imul(salt + 1, 0x27d4eb2f));
  return h / 4294967296;
}

// murmur3's 32-bit finaliser: every input bit reaches every output bit.
function mix(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const utf8 = new TextEncoder();

/**
 * The A/B variant (0-based, below `variantCount`) for a seed such as
 * `${prospectId}:${sequenceId}:${step}`. Stable: the same seed always gets the same
 * variant, on any machine and after a restart, so a retried touch sends the copy
 * the stats already counted. Roughly uniform over many seeds.
 *
 * Throws `RangeError` unless `variantCount` is a positive integer.
 */
export function pickVariant(variantCount: number, seed: string): number {
  if (!Number.isInteger(variantCount) || variantCount < 1) {
    throw new RangeError(`pickVariant: variantCount must be a positive integer, got ${variantCount}`);
  }
  // Scale by the high bits: FNV-1a's low bits follow the parity of the input bytes,
  // so `hash % 2` would split seeds that differ only in their last digit badly.
  return Math.floor((mix32(fnv1a32(seed)) / 2 ** 32) * variantCount);
}

/** 32-bit FNV-1a over the UTF-8 bytes of `text`. */
function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of utf8.encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** MurmurHash3's finaliser: spreads every input bit over the whole word. */
function mix32(value: number): number {
  let hash = value;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

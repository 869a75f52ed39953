import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeText, safeTextDeep, TextSchema, unsafeTextReason } from '../../src/text/safe-text.js';

describe('TextSchema', () => {
  it('refuses NUL and lone surrogates, naming the position', () => {
    expect(TextSchema.safeParse('ab\u0000').error?.issues[0]?.message).toMatch(/NUL character .* position 2/);
    expect(TextSchema.safeParse('a\ud800b').error?.issues[0]?.message).toMatch(/unpaired UTF-16 surrogate/);
    expect(TextSchema.safeParse('\udc00').success).toBe(false);
    expect(TextSchema.safeParse('\ud83d').success).toBe(false);
  });

  it('takes any well-formed text, emoji and other astral characters included', () => {
    expect(TextSchema.safeParse('Ω≈ç 😀 👨‍👩‍👧‍👦 𝒶').success).toBe(true);
    expect(TextSchema.trim().max(3).safeParse(' ab ').data).toBe('ab');
  });
});

describe('safeText', () => {
  it('replaces exactly what TextSchema refuses, with U+FFFD, and nothing else', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const safe = safeText(s);
        expect(unsafeTextReason(safe)).toBeNull();
        expect(safe.length).toBe(s.length);
        if (unsafeTextReason(s) === null) expect(safe).toBe(s);
        // What Node's UTF-8 encoder does with a lone surrogate, NUL aside.
        expect(Buffer.from(safe).toString()).toBe(Buffer.from(s.replaceAll('\u0000', '\ufffd')).toString());
      }),
    );
  });

  it('reaches every string of an event, keys included, and leaves dates and numbers', () => {
    const at = new Date(0);
    expect(safeTextDeep({ 'k\u0000': ['a\ud800', 1, null, { x: '\udc00😀' }], at })).toEqual({
      'k\ufffd': ['a\ufffd', 1, null, { x: '\ufffd😀' }],
      at,
    });
  });
});

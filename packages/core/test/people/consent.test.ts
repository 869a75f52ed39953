import { describe, expect, it } from 'vitest';
import {
  ConsentInputSchema,
  consentStateOf,
  LegalBasisInputSchema,
  legalBasisOf,
} from '../../src/people/consent.js';

describe('consent and legal basis', () => {
  it('reads consent in the spellings CRM exports use', () => {
    expect(consentStateOf('Yes')).toBe('granted');
    expect(consentStateOf('opt-in')).toBe('granted');
    expect(consentStateOf('NO')).toBe('denied');
    expect(consentStateOf('Opted out')).toBe('withdrawn');
    expect(consentStateOf('maybe')).toBeNull();
    expect(consentStateOf('constructor')).toBeNull();
  });

  it('reads a GDPR art. 6(1) basis by name or letter', () => {
    expect(legalBasisOf('Legitimate interests')).toBe('legitimate_interests');
    expect(legalBasisOf('legitimate interest')).toBe('legitimate_interests');
    expect(legalBasisOf('art. 6(1)(f)')).toBe('legitimate_interests');
    expect(legalBasisOf('a')).toBe('consent');
    expect(legalBasisOf('consent')).toBe('consent');
    expect(legalBasisOf('because')).toBeNull();
  });

  it('refuses an unknown value with the allowed ones in the message', () => {
    expect(ConsentInputSchema.parse('given')).toBe('granted');
    const bad = LegalBasisInputSchema.safeParse('because');
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toContain('legitimate_interests');
  });
});

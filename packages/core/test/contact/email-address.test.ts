import { describe, expect, it } from 'vitest';
import { normalisedEmail } from '../../src/contact/email-address.js';

describe('normalisedEmail', () => {
  it('trims and lowercases, so one person typed two ways is one address', () => {
    expect(normalisedEmail('  Ada.Lovelace@Example.COM \n')).toBe('ada.lovelace@example.com');
    expect(normalisedEmail('ada.lovelace@example.com')).toBe(normalisedEmail('ADA.LOVELACE@EXAMPLE.COM'));
  });

  it('keeps the rest of the address as given', () => {
    expect(normalisedEmail('ada+sales@example.com')).toBe('ada+sales@example.com');
  });
});

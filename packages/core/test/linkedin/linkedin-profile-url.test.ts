import { describe, expect, it } from 'vitest';
import { linkedInProfileSlug, normaliseLinkedInProfileUrl } from '../../src/linkedin/linkedin-profile-url.js';

const CANONICAL = 'https://www.linkedin.com/in/john-doe/';

describe('normaliseLinkedInProfileUrl', () => {
  it.each([
    'https://www.linkedin.com/in/john-doe/',
    'https://www.linkedin.com/in/john-doe',
    'http://www.linkedin.com/in/john-doe/',
    'https://linkedin.com/in/john-doe',
    'linkedin.com/in/john-doe',
    'www.linkedin.com/in/john-doe/',
    'HTTPS://WWW.LINKEDIN.COM/IN/John-Doe/',
    'https://m.linkedin.com/in/john-doe',
    'https://mobile.linkedin.com/in/john-doe/',
    'https://fr.linkedin.com/in/john-doe/',
    'https://uk.linkedin.com/in/john-doe',
    'https://www.linkedin.com/in/john-doe/?originalSubdomain=fr',
    'https://www.linkedin.com/in/john-doe?trk=public_profile_browsemap',
    'https://www.linkedin.com/in/john-doe/#experience',
    'https://www.linkedin.com/in/john-doe/details/experience/',
    'https://www.linkedin.com/in/john-doe/en',
    'https://www.linkedin.com//in//john-doe//',
    '  https://www.linkedin.com/in/john-doe/  ',
    'https://www.linkedin.com./in/john-doe',
    'https://www.linkedin.com:443/in/john-doe',
    'https://www.linkedin.com/in/%6A%6F%68%6E-doe/',
  ])('%s is the one profile', (input) => {
    expect(normaliseLinkedInProfileUrl(input)).toBe(CANONICAL);
  });

  it('decodes, lower-cases and re-encodes a slug that is not ASCII, whichever way it came', () => {
    const a = normaliseLinkedInProfileUrl('https://www.linkedin.com/in/J%C3%A9r%C3%B4me-Martin');
    const b = normaliseLinkedInProfileUrl('https://fr.linkedin.com/in/jérôme-martin/');
    const c = normaliseLinkedInProfileUrl('https://www.linkedin.com/in/je\u0301ro\u0302me-martin');
    expect(a).toBe('https://www.linkedin.com/in/j%C3%A9r%C3%B4me-martin/');
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(linkedInProfileSlug(a as string)).toBe('jérôme-martin');
  });

  it('is idempotent', () => {
    for (const input of ['https://de.linkedin.com/in/Anna-M%C3%BCller-123?x=1', 'linkedin.com/in/abc']) {
      const once = normaliseLinkedInProfileUrl(input) as string;
      expect(normaliseLinkedInProfileUrl(once)).toBe(once);
    }
  });

  it.each([
    '',
    'john-doe',
    'https://www.linkedin.com/',
    'https://www.linkedin.com/in/',
    'https://www.linkedin.com/company/acme/',
    'https://www.linkedin.com/sales/lead/ACwAAAB,NAME_SEARCH',
    'https://www.linkedin.com/talent/profile/AEMAAAB',
    'https://www.linkedin.com/pub/john-doe/1/2/3',
    'https://linkedin.com.evil.io/in/john-doe',
    'https://evil-linkedin.com/in/john-doe',
    'https://a.b.linkedin.com/in/john-doe',
    'https://user:pw@www.linkedin.com/in/john-doe',
    'https://www.linkedin.com:8443/in/john-doe',
    'ftp://www.linkedin.com/in/john-doe',
    'javascript:alert(1)//linkedin.com/in/john-doe',
    'https://www.linkedin.com/in/ab',
    'https://www.linkedin.com/in/%E0%A4%A',
    'https://www.linkedin.com/in/john%20doe',
    'https://www.linkedin.com/in/john%2Fdoe',
  ])('%s is not a profile URL', (input) => {
    expect(normaliseLinkedInProfileUrl(input)).toBeNull();
  });
});

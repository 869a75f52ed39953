import { describe, expect, it } from 'vitest';
import {
  identitiesOf,
  normalisedHubspotId,
  normalisedIdentity,
  normalisedPhone,
  samePersonGroups,
} from '../../src/people/prospect-identity.js';

describe('identity normalisers', () => {
  it('writes phone numbers in E.164, whatever the spelling', () => {
    expect(normalisedPhone('+49 30 1234567')).toBe('+49301234567');
    expect(normalisedPhone('+49 (0)30 123-4567')).toBe('+49301234567');
    expect(normalisedPhone('030 1234567', 'de')).toBe('+49301234567');
    expect(normalisedPhone('(415) 555-2671', 'US')).toBe('+14155552671');
    expect(normalisedPhone('+1 415 555 2671')).toBe(normalisedPhone('001 415 555 2671', 'DE'));
  });

  it('refuses what is not a possible phone number', () => {
    expect(normalisedPhone('030 1234567')).toBeNull(); // no country to read it in
    expect(normalisedPhone('+49 1')).toBeNull();
    expect(normalisedPhone('call me')).toBeNull();
    expect(normalisedPhone('')).toBeNull();
    expect(normalisedPhone('030 1234567', 'XX')).toBeNull();
  });

  it('keeps HubSpot ids as digits and addresses lower-cased', () => {
    expect(normalisedHubspotId(' 51 ')).toBe('51');
    expect(normalisedHubspotId('051')).toBeNull();
    expect(normalisedHubspotId('abc')).toBeNull();
    expect(normalisedIdentity('email', ' Alice@ACME.com ')).toBe('alice@acme.com');
    expect(normalisedIdentity('email', 'alice')).toBeNull();
    expect(normalisedIdentity('linkedin', 'fr.linkedin.com/in/Alice-Doe?trk=x')).toBe(
      'https://www.linkedin.com/in/alice-doe/',
    );
  });

  it('lists every identity of a row once, normalised, the address first', () => {
    expect(
      identitiesOf({
        email: 'Alice@Acme.com',
        otherEmails: ['alice@acme.com', 'alice@home.example'],
        linkedinUrl: 'https://linkedin.com/in/alice-doe/',
        hubspotId: '42',
        phone: '+44 20 7946 0958',
      }),
    ).toEqual([
      { kind: 'email', value: 'alice@acme.com' },
      { kind: 'email', value: 'alice@home.example' },
      { kind: 'linkedin', value: 'https://www.linkedin.com/in/alice-doe/' },
      { kind: 'hubspot', value: '42' },
      { kind: 'phone', value: '+442079460958' },
    ]);
  });
});

describe('samePersonGroups', () => {
  const row = (email: string, linkedinUrl?: string, phone?: string) =>
    identitiesOf({ email, linkedinUrl, phone });

  it('groups rows sharing the LinkedIn URL in any spelling, named by the first row', () => {
    expect(
      samePersonGroups([
        row('a@acme.com', 'https://www.linkedin.com/in/alice/'),
        row('b@other.com'),
        row('alice@home.example', 'linkedin.com/in/ALICE?trk=1'),
      ]),
    ).toEqual([0, 1, 0]);
  });

  it('joins groups through a row that shares one identity with each', () => {
    expect(
      samePersonGroups([
        row('x@one.com', 'https://www.linkedin.com/in/xavier/'),
        row('y@two.com', undefined, '+49301234567'),
        row('z@three.com', 'linkedin.com/in/xavier', '+49 30 1234567'),
        row('w@four.com'),
      ]),
    ).toEqual([0, 0, 0, 3]);
  });

  it('leaves rows with nothing in common apart', () => {
    expect(samePersonGroups([row('a@a.com'), row('b@b.com'), row('c@c.com')])).toEqual([0, 1, 2]);
    expect(samePersonGroups([])).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { threadSubject } from '../../src/templates/index.js';

describe('threadSubject', () => {
  it('prefixes Re: ', () => {
    expect(threadSubject('Quick question about Acme')).toBe('Re: Quick question about Acme');
  });

  it.each([
    'Re: Hello',
    'RE: Hello',
    're: Hello',
    'AW: Hallo',
    'Aw: Hallo',
    'SV: Hej',
    'Re[2]: Hello',
    'Re : Hello',
  ])('does not double an existing prefix in %j', (subject) => {
    expect(threadSubject(subject)).toBe(subject);
  });

  it('trims the subject and handles an empty one', () => {
    expect(threadSubject('  Hello  ')).toBe('Re: Hello');
    expect(threadSubject('')).toBe('Re:');
  });

  it('does not mistake a word starting with "re" for a prefix', () => {
    expect(threadSubject('Regarding your post')).toBe('Re: Regarding your post');
    expect(threadSubject('Reply needed: budget')).toBe('Re: Reply needed: budget');
  });
});

import { describe, expect, it } from 'vitest';
import {
  companyDomainOf,
  isFreeMailDomain,
  normalisedCompanyDomain,
} from '../../src/people/company-domain.js';

describe('company domain', () => {
  it('is the address domain unless it is a free-mail provider', () => {
    expect(companyDomainOf('alice@Acme.com')).toBe('acme.com');
    expect(companyDomainOf('carol@gmail.com')).toBeNull();
    expect(companyDomainOf('dan@outlook.com')).toBeNull();
    expect(isFreeMailDomain('yahoo.com')).toBe(true);
    expect(isFreeMailDomain('acme.com')).toBe(false);
  });

  it('takes the domain given on import over the address, whatever form it is written in', () => {
    expect(companyDomainOf('carol@gmail.com', 'https://www.Acme.com/about')).toBe('acme.com');
    expect(companyDomainOf('bob@acme-mail.com', 'acme.com')).toBe('acme.com');
    // A company name, not a domain: the address decides.
    expect(companyDomainOf('bob@acme.com', 'Acme Inc.')).toBe('acme.com');
    expect(normalisedCompanyDomain('acme')).toBeNull();
  });
});

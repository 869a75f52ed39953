/// <reference path="./email-providers.d.ts" />
import freeMailDomains from 'email-providers';

// The maintained list (`email-providers`, released monthly) rather than our own: free-mail
// providers come and go, and a miss here would make every gmail.com user one company.
const FREE_MAIL = new Set(freeMailDomains);

/** Whether `domain` belongs to a free-mail provider (gmail.com, outlook.com, ...): its users are not one company. */
export function isFreeMailDomain(domain: string): boolean {
  return FREE_MAIL.has(domain.trim().toLowerCase());
}

/**
 * A company domain as given on import (`acme.com`, `https://www.acme.com/about`,
 * `ACME.com.`): the bare host in lower case, without `www.`. Null when nothing
 * host-like is left.
 */
export function normalisedCompanyDomain(given: string): string | null {
  const host = given
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/?#].*$/, '')
    .replace(/:\d+$/, '')
    .replace(/\.$/, '')
    .replace(/^www\./, '');
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(host) ? host : null;
}

/**
 * The company a person belongs to, by domain: the one given on import when there is
 * one, else the domain of their address unless it is a free-mail domain (then none:
 * two gmail.com users are not colleagues).
 */
export function companyDomainOf(email: string, given?: string | null): string | null {
  if (given) {
    const explicit = normalisedCompanyDomain(given);
    if (explicit) return explicit;
  }
  const at = email.lastIndexOf('@');
  if (at < 0) return null;
  const domain = normalisedCompanyDomain(email.slice(at + 1));
  return domain && !isFreeMailDomain(domain) ? domain : null;
}

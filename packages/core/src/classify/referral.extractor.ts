// An address in the writer's own words (quotes and signatures are already cut off).
const ADDRESS = /[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}/gi;
// Addresses that are never a colleague: our own systems and generic mailboxes.
const NOT_A_PERSON = /^(no-?reply|mailer-daemon|postmaster|unsubscribe|bounces?)@/i;

/**
 * The address a reply points us to ("please contact jane@acme.com instead"), as the
 * writer spelt it, or undefined. The first address in the writer's own words wins:
 * people name the right contact once, near the sentence that says so. The case is
 * kept because the local part of an address is case-sensitive (RFC 5321 section
 * 2.4: only the domain is not); whoever compares a referral with other addresses
 * does so without regard to case (erasure does).
 */
export function findReferral(ownText: string): string | undefined {
  for (const match of ownText.matchAll(ADDRESS)) {
    const address = match[0].replace(/\.$/, '');
    if (!NOT_A_PERSON.test(address)) return address;
  }
  return undefined;
}

// An address in the writer's own words (quotes and signatures are already cut off).
const ADDRESS = /[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}/gi;
// Addresses that are never a colleague: our own systems and generic mailboxes.
const NOT_A_PERSON = /^(no-?reply|mailer-daemon|postmaster|unsubscribe|bounces?)@/i;

/**
 * The address a reply points us to ("please contact jane@acme.com instead"), in
 * lower case, or undefined. The first address in the writer's own words wins:
 * people name the right contact once, near the sentence that says so.
 */
export function findReferral(ownText: string): string | undefined {
  for (const match of ownText.matchAll(ADDRESS)) {
    const address = match[0].replace(/\.$/, '').toLowerCase();
    if (!NOT_A_PERSON.test(address)) return address;
  }
  return undefined;
}

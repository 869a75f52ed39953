/**
 * The form in which an address is stored, compared, suppressed and hashed: trimmed
 * and lowercased. RFC 5321 lets a local part be case-sensitive, but no mailbox
 * provider we send through treats it so, and one person imported twice in two
 * cases must be one prospect, one suppression and one hash.
 */
export function normalisedEmail(address: string): string {
  return address.trim().toLowerCase();
}

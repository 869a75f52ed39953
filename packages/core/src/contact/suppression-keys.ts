import { createHash } from 'node:crypto';
import { normalisedEmail } from './email-address.js';

/** The kinds of suppression entry: one address, a whole domain, or the sha-256 left by an erasure. */
export const SUPPRESSION_KINDS = ['email', 'domain', 'hash'] as const;
export type SuppressionKind = (typeof SUPPRESSION_KINDS)[number];

/** The sha-256 (hex) of the normalised address: what an erasure keeps, and what the event log holds instead of an address. */
export function addressHash(address: string): string {
  return createHash('sha256').update(normalisedEmail(address)).digest('hex');
}

/** The suppression entries that keep an address from being contacted, one per kind. */
export type SuppressionKeys = Record<SuppressionKind, string>;

/**
 * Which suppression entries match an address: the address itself, its domain (every
 * address there), and its hash (a person erased, whose address we no longer hold).
 */
export function suppressionKeysOf(address: string): SuppressionKeys {
  const email = normalisedEmail(address);
  return { email, domain: email.split('@')[1] ?? '', hash: addressHash(email) };
}

/** Whether any of these suppression entries (kind and value) matches the address. */
export function isSuppressed(address: string, entries: { kind: string; value: string }[]): boolean {
  const keys = suppressionKeysOf(address);
  return entries.some((e) => SUPPRESSION_KINDS.some((k) => e.kind === k && e.value === keys[k]));
}

/**
 * Why a value cannot be a suppression entry of this kind, or null when it can: an
 * address with one `@`, a domain name, or a sha-256 in hex (what an erasure keeps).
 */
export function suppressionValueProblem(kind: SuppressionKind, value: string): string | null {
  const v = normalisedEmail(value);
  if (kind === 'email') return /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(v) ? null : 'not an e-mail address';
  if (kind === 'domain') {
    return /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(v)
      ? null
      : 'not a domain name';
  }
  return /^[0-9a-f]{64}$/.test(v) ? null : 'not a sha-256 in hex (64 characters)';
}

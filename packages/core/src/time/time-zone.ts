import { IANAZone } from 'luxon';
import { z } from 'zod';
import { TimeZoneError } from './time.errors.js';

// Intl accepts more than IANA names on newer runtimes (e.g. "+05:30"); a stored
// zone must mean the same thing on every Node version, so only names are allowed.
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

// Asking Intl whether a zone exists costs ~50 µs, and the scheduler asks for every
// prospect of a bulk enrollment; the answer never changes within a process, so it is
// remembered (bounded: prospect zones come from imports and may be junk).
const known = new Map<string, boolean>();
const KNOWN_MAX = 10_000;

/** True when `name` is an IANA time zone name the runtime knows (e.g. `Asia/Kolkata`, `UTC`). */
export function isValidTimeZone(name: string): boolean {
  const cached = known.get(name);
  if (cached !== undefined) return cached;
  const valid = IANA_NAME.test(name) && IANAZone.isValidZone(name);
  if (known.size >= KNOWN_MAX) known.clear();
  known.set(name, valid);
  return valid;
}

/** Throws {@link TimeZoneError} unless `name` is a valid IANA time zone. */
export function assertTimeZone(name: string): void {
  if (!isValidTimeZone(name)) throw new TimeZoneError(name);
}

/** Zod schema for an IANA time zone name (mailbox and prospect zones). */
export const TimeZoneSchema = z
  .string()
  .trim()
  .refine(isValidTimeZone, { message: 'Expected an IANA time zone name such as "Europe/Berlin"' });

/**
 * The zone a touch is scheduled in: the prospect's when it is a valid IANA name,
 * otherwise the mailbox's. Prospect zones come from imports and CRMs and are often
 * missing or junk, so they fall back quietly; the mailbox zone is our own
 * configuration, so an invalid one throws {@link TimeZoneError}.
 */
export function resolveTimeZone(prospectTz: string | null | undefined, mailboxTz: string): string {
  const mailbox = mailboxTz.trim();
  assertTimeZone(mailbox);
  const prospect = prospectTz?.trim();
  return prospect && isValidTimeZone(prospect) ? prospect : mailbox;
}

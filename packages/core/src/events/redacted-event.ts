import { addressHash } from '../contact/suppression-keys.js';
import type { CanonicalEvent } from './canonical-event.js';

/**
 * The event as it is logged: addresses (a referral's too) and profile URLs become their sha-256 (the
 * log is immutable, and an erasure must leave no address behind).
 */
export function redactedEvent(event: CanonicalEvent): CanonicalEvent {
  // A reply's words stay out of the log: the excerpt exists only for the notification.
  const { excerpt: _excerpt, ...rest } = event;
  return {
    ...rest,
    ...(event.referral ? { referral: `sha256:${addressHash(event.referral)}` } : {}),
    ...(event.email ? { email: `sha256:${addressHash(event.email)}` } : {}),
    ...(event.newEmail ? { newEmail: `sha256:${addressHash(event.newEmail)}` } : {}),
    ...(event.linkedinUrl ? { linkedinUrl: `sha256:${addressHash(event.linkedinUrl)}` } : {}),
  };
}

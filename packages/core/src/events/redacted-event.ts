import { addressHash } from '../contact/suppression-keys.js';
import type { CanonicalEvent } from './canonical-event.js';

/**
 * The event as it is logged: addresses and profile URLs become their sha-256 (the
 * log is immutable, and an erasure must leave no address behind).
 */
export function redactedEvent(event: CanonicalEvent): CanonicalEvent {
  return {
    ...event,
    ...(event.email ? { email: `sha256:${addressHash(event.email)}` } : {}),
    ...(event.newEmail ? { newEmail: `sha256:${addressHash(event.newEmail)}` } : {}),
    ...(event.linkedinUrl ? { linkedinUrl: `sha256:${addressHash(event.linkedinUrl)}` } : {}),
  };
}

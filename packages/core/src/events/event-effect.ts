import type { EnrollmentStatus } from '../enrollment/enrollment-status.js';
import type { CanonicalEvent } from './canonical-event.js';

/** What an event does to the prospect's sequences. */
export type EventEffect =
  | {
      kind: 'stop';
      status: EnrollmentStatus;
      reason: string;
      /** Put the address on the suppression list. */
      suppress: boolean;
      /** Mark the address itself dead (`prospect.email_status = 'invalid'`) and tell the CRM. */
      invalidateEmail: boolean;
    }
  /** Pause every active enrollment until the return date (or a default) plus one business day. */
  | { kind: 'pause'; reason: 'out_of_office'; returnDate: string | null }
  /** A temporary failure: retried later; the third in a row counts as hard. */
  | { kind: 'soft_bounce'; status: string; reason: string }
  /** The prospect's address changed: move to it, in a new thread. */
  | { kind: 'email_changed'; newEmail: string }
  /** End everything, delete the person, keep only a hash. */
  | { kind: 'erase' }
  | { kind: 'none'; reason: string };

/** Soft bounces in a row after which the address is treated as dead. */
export const SOFT_BOUNCES_AS_HARD = 3;

/**
 * The rule book: which events end or pause a prospect's sequences. Pure, so the
 * same rules hold for every provider and channel.
 *
 * A delivery proved only by a per-endpoint token (a provider that cannot sign) may
 * stop or pause, never start a send: an address change, which would send to a new
 * address, is refused from such a source.
 */
export function effectOf(event: CanonicalEvent): EventEffect {
  switch (event.type) {
    case 'reply':
      return {
        kind: 'stop',
        status: 'replied',
        reason: `reply:${event.classification ?? 'unclassified'}`,
        suppress: false,
        invalidateEmail: false,
      };
    case 'bounce':
      if (event.bounce?.hard === false) {
        return {
          kind: 'soft_bounce',
          status: event.bounce.status ?? '',
          reason: event.bounce.reason ?? 'soft',
        };
      }
      return {
        kind: 'stop',
        status: 'bounced',
        reason: `bounce:${event.bounce?.status || 'hard'}`,
        suppress: true,
        invalidateEmail: true,
      };
    case 'unsubscribe':
      return {
        kind: 'stop',
        status: 'unsubscribed',
        reason: 'unsubscribe',
        suppress: true,
        invalidateEmail: false,
      };
    case 'complaint':
      return {
        kind: 'stop',
        status: 'unsubscribed',
        reason: 'complaint',
        suppress: true,
        invalidateEmail: false,
      };
    case 'erasure_request':
      return { kind: 'erase' };
    case 'crm.deal_won':
    case 'crm.deal_lost':
      return {
        kind: 'stop',
        status: 'cancelled',
        reason: event.type,
        suppress: false,
        invalidateEmail: false,
      };
    case 'out_of_office':
      return { kind: 'pause', reason: 'out_of_office', returnDate: event.returnDate ?? null };
    case 'email_changed':
      if (!event.newEmail) return { kind: 'none', reason: 'no_new_address' };
      if (event.auth === 'token') return { kind: 'none', reason: 'refused_unsigned' };
      return { kind: 'email_changed', newEmail: event.newEmail };
    default:
      return { kind: 'none', reason: 'informational' };
  }
}

/** The effect of the soft bounce that makes `count` in a row: from the third on, a hard bounce. */
export function softBounceEffect(event: CanonicalEvent, count: number): EventEffect {
  if (count < SOFT_BOUNCES_AS_HARD) return effectOf(event);
  return {
    kind: 'stop',
    status: 'bounced',
    reason: `bounce:soft_x${count}`,
    suppress: true,
    invalidateEmail: true,
  };
}

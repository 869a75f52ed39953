import type { EnrollmentStatus } from '../enrollment/enrollment-status.js';
import type { CanonicalEvent } from './canonical-event.js';

/** What an event does to the prospect's sequences. */
export type EventEffect =
  | { kind: 'stop'; status: EnrollmentStatus; reason: string; suppress: boolean }
  | { kind: 'pause'; reason: string; until: Date | null }
  | { kind: 'none' };

/**
 * The rule book: which events end or pause a prospect's sequences. Pure, so the
 * same rules hold for every provider and channel.
 */
export function effectOf(event: CanonicalEvent): EventEffect {
  switch (event.type) {
    case 'reply':
      return {
        kind: 'stop',
        status: 'replied',
        reason: `reply:${event.classification ?? 'unclassified'}`,
        suppress: false,
      };
    case 'bounce':
      return event.bounce?.hard === false
        ? { kind: 'none' }
        : {
            kind: 'stop',
            status: 'bounced',
            reason: `bounce:${event.bounce?.status ?? 'hard'}`,
            suppress: true,
          };
    case 'unsubscribe':
      return { kind: 'stop', status: 'unsubscribed', reason: 'unsubscribe', suppress: true };
    case 'complaint':
      return { kind: 'stop', status: 'unsubscribed', reason: 'complaint', suppress: true };
    case 'erasure_request':
      return { kind: 'stop', status: 'cancelled', reason: 'erasure_request', suppress: true };
    case 'crm.deal_won':
    case 'crm.deal_lost':
      return { kind: 'stop', status: 'cancelled', reason: event.type, suppress: false };
    case 'out_of_office':
      return {
        kind: 'pause',
        reason: 'out_of_office',
        until: event.returnDate ? new Date(event.returnDate) : null,
      };
    default:
      return { kind: 'none' };
  }
}

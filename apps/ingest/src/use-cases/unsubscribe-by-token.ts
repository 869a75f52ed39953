import { createHash } from 'node:crypto';
import { signUnsubscribeToken, verifyUnsubscribeToken } from '@touchbase/providers';
import type { ApplyResult } from '@touchbase/use-cases';
import { type IngestDeps, ingestEvent } from './ingest-event.js';

/** The source of events recorded from our own `/u/{token}` links. */
export const ONE_CLICK_SOURCE = 'one-click';

/** What a click on an unsubscribe link did. */
export type UnsubscribeResult =
  | { ok: false; reason: 'bad_token' }
  | { ok: true; enrollmentId: string; result: ApplyResult };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The enrollment a token names when it is genuine (HMAC, compared in constant time), else null. */
export function enrollmentOfToken(token: string, secret: string): string | null {
  const enrollmentId = verifyUnsubscribeToken(token, secret);
  return enrollmentId && UUID.test(enrollmentId) ? enrollmentId : null;
}

/**
 * A one-click unsubscribe (RFC 8058, or the button of the confirmation page): the
 * token is checked first, and a bad one changes nothing. A genuine one becomes a
 * canonical `unsubscribe` event, recorded once and applied like any webhook:
 * every live enrollment of the prospect ends, the address is suppressed, the
 * pending jobs go, and the audit log says so.
 *
 * The external id is a hash of the token as we signed it, so every click on the
 * same link (a person clicking twice, their mail provider's one-click POST and
 * then the page) is the same event, and the log holds no usable link.
 */
export async function unsubscribeByToken(
  deps: IngestDeps & { unsubscribeSecret: string },
  token: string,
  via: 'one-click' | 'page',
): Promise<UnsubscribeResult> {
  const enrollmentId = enrollmentOfToken(token, deps.unsubscribeSecret);
  if (!enrollmentId) return { ok: false, reason: 'bad_token' };
  const canonical = signUnsubscribeToken(enrollmentId, deps.unsubscribeSecret);
  const result = await ingestEvent(deps, {
    source: ONE_CLICK_SOURCE,
    externalId: createHash('sha256').update(canonical).digest('hex').slice(0, 40),
    type: 'unsubscribe',
    occurredAt: deps.clock?.() ?? new Date(),
    enrollmentId,
    channel: 'email',
    // Whoever holds the mail holds the link: enough to stop a sequence, never to start one.
    auth: 'token',
    data: { via },
  });
  return { ok: true, enrollmentId, result };
}

import { type CanonicalEvent, CanonicalEventSchema } from '../events/canonical-event.js';
import type { TrackingClaim } from './tracking-token.js';

/** The event source of opens and clicks served by ingest's `/t/…` routes. */
export const TRACKING_SOURCE = 'tracking';

/**
 * The canonical event of a genuine open or click: `opened` / `clicked` of the
 * touch's enrollment. Its external id is `{kind}:{touchId}`, so events being
 * recorded once by (source, external id) makes every later open of the same
 * touch (image proxies fetch the pixel again and again) and every later click
 * on any of its links a duplicate, not a new event: one per (touch, kind).
 */
export function trackingEvent(claim: TrackingClaim, at: Date): CanonicalEvent {
  return CanonicalEventSchema.parse({
    source: TRACKING_SOURCE,
    externalId: `${claim.kind}:${claim.touchId}`,
    type: claim.kind === 'open' ? 'opened' : 'clicked',
    occurredAt: at,
    enrollmentId: claim.enrollmentId,
    channel: 'email',
    data: { touchId: claim.touchId, ...(claim.kind === 'click' ? { url: claim.url } : {}) },
  });
}

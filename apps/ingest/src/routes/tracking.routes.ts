import { type TrackingClaim, trackingEvent, verifyTrackingToken } from '@touchbase/core';
import { ProblemError } from '@touchbase/runtime';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type IngestDeps, ingestEvent } from '../use-cases/ingest-event.js';

export type TrackingRoutesDeps = IngestDeps & { trackingSecret: string };

type TokenRequest = FastifyRequest<{ Params: { token: string } }>;

/** The smallest transparent GIF (1x1, 43 bytes). */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/**
 * Open and click tracking, for sequences that turn it on (`policies.tracking`):
 *
 * - `GET /t/o/{token}` answers a 1x1 GIF and records `opened`;
 * - `GET /t/c/{token}` records `clicked` and redirects (302) to the URL the token
 *   signs, and only to it: the target is never read from the query, so the
 *   route is no open redirect.
 *
 * Each is recorded once per (touch, kind) through the one record/apply use case
 * (external id `{kind}:{touchId}`): image proxies and link scanners fetching again
 * add nothing. A token that is not genuine is a bare 404, with no hint of why.
 * The recording failing does not keep a reader from the link or the mail client
 * from its image: it is logged with its ids, and the answer goes out.
 */
export async function trackingRoutes(app: FastifyInstance, deps: TrackingRoutesDeps): Promise<void> {
  app.get('/t/o/:token', async (req: TokenRequest, reply) => {
    const claim = genuine(req, deps, 'open');
    await record(deps, claim);
    return noStore(reply).code(200).type('image/gif').send(PIXEL);
  });

  app.get('/t/c/:token', async (req: TokenRequest, reply) => {
    const claim = genuine(req, deps, 'click');
    await record(deps, claim);
    return noStore(reply).redirect(claim.url as string, 302);
  });
}

function genuine(req: TokenRequest, deps: TrackingRoutesDeps, kind: TrackingClaim['kind']): TrackingClaim {
  const claim = verifyTrackingToken(req.params.token, deps.trackingSecret);
  // A click token leads only to a web page: anything else was never signed by us.
  const ok = claim?.kind === kind && (kind === 'open' || /^https?:\/\//i.test(claim.url ?? ''));
  if (!claim || !ok) {
    deps.metrics.eventsReceived.inc({
      source: 'tracking',
      type: kind === 'open' ? 'opened' : 'clicked',
      outcome: 'rejected_bad_token',
    });
    throw new ProblemError({ status: 404, title: 'Not Found', code: 'not_found' });
  }
  return claim;
}

async function record(deps: TrackingRoutesDeps, claim: TrackingClaim): Promise<void> {
  try {
    await ingestEvent(deps, trackingEvent(claim, new Date()));
  } catch (err) {
    deps.logger.error(
      { err, touchId: claim.touchId, enrollmentId: claim.enrollmentId, kind: claim.kind },
      'Tracking event not recorded',
    );
  }
}

function noStore(reply: FastifyReply): FastifyReply {
  // Every fetch must reach us (a cached pixel records nothing), and the token stays out of referrers.
  return reply.header('cache-control', 'no-store, private').header('referrer-policy', 'no-referrer');
}

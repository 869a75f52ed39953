import { UnsubscribeTokenError } from '@touchbase/providers';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IngestDeps } from '../use-cases/ingest-event.js';
import {
  enrollmentOfToken,
  ONE_CLICK_SOURCE,
  unsubscribeByToken,
} from '../use-cases/unsubscribe-by-token.js';
import { confirmPage, donePage, invalidPage } from './unsubscribe-page.js';

export type UnsubscribeRoutesDeps = IngestDeps & { unsubscribeSecret: string };

type TokenRequest = FastifyRequest<{ Params: { token: string } }>;

// A form post or RFC 8058's `List-Unsubscribe=One-Click`: a few bytes.
const BODY_LIMIT = 4096;
// `List-Unsubscribe=One-Click`, or the multipart part `name="List-Unsubscribe"` holding `One-Click`.
const ONE_CLICK_BODY = /List-Unsubscribe(?:=|"\s*)One-Click/;

/**
 * One-click unsubscribe under `/u/{token}`, the link in every touch's
 * List-Unsubscribe header.
 *
 * - `GET` shows a confirmation page with a button and changes nothing: mail
 *   scanners and link previews fetch every link in a message.
 * - `POST` unsubscribes: the RFC 8058 one-click POST a mail provider sends
 *   (`List-Unsubscribe=One-Click`, no cookies, no redirect) and the page's button
 *   alike. A repeat is recorded once and answered the same way.
 *
 * A token that is not genuine gets 404 and nothing is recorded.
 */
export async function unsubscribeRoutes(app: FastifyInstance, deps: UnsubscribeRoutesDeps): Promise<void> {
  app.get('/u/:token', async (req: TokenRequest, reply) => {
    if (!enrollmentOfToken(req.params.token, deps.unsubscribeSecret)) return invalid(req, reply);
    return html(reply, 200, confirmPage(req.params.token));
  });

  app.post('/u/:token', { bodyLimit: BODY_LIMIT }, async (req: TokenRequest, reply) => {
    const raw = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
    // RFC 8058 allows the field urlencoded or as multipart/form-data; either way any POST unsubscribes.
    const oneClick = ONE_CLICK_BODY.test(raw);
    const done = await unsubscribeByToken(deps, req.params.token, oneClick ? 'one-click' : 'page');
    if (!done.ok) {
      deps.metrics.eventsReceived.inc({
        source: ONE_CLICK_SOURCE,
        type: 'unsubscribe',
        outcome: 'rejected_bad_token',
      });
      deps.logger.warn({ oneClick }, 'Unsubscribe link refused: bad token');
      return invalid(req, reply);
    }
    const { result } = done;
    if (wantsHtml(req)) return html(reply, 200, donePage());
    return reply.code(200).send({
      unsubscribed: true,
      duplicate: result.duplicate,
      outcome: result.outcome,
      eventId: result.eventId,
    });
  });
}

function wantsHtml(req: FastifyRequest): boolean {
  return (req.headers.accept ?? '').includes('text/html');
}

/** A page for a person; for a mail provider's one-click POST, the 404 problem+json the one error handler writes. */
function invalid(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (wantsHtml(req)) return html(reply, 404, invalidPage());
  throw new UnsubscribeTokenError();
}

function html(reply: FastifyReply, status: number, body: string): FastifyReply {
  return (
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      // The token is in the URL: keep it out of caches, referrers and search engines.
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .header('x-robots-tag', 'noindex, nofollow')
      .header(
        'content-security-policy',
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
      )
      .send(body)
  );
}

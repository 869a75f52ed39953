import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { WebhookProvider } from '@touchbase/providers';
import { type ProblemLog, problemAnswerOf } from '@touchbase/runtime';
import { errorCodes, type FastifyError } from 'fastify';
import type { IngestDeps } from '../use-cases/ingest-event.js';
import { countRefusal, receiveWebhook } from './receive-webhook.js';

/** The content types the fast path takes; any other spelling goes through Fastify. */
const JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8']);

/**
 * `POST /webhooks/{source}` served straight on Node's HTTP server, before Fastify's
 * routing, hooks, content-type parsing and reply pipeline: the route a provider's
 * storm hits, where those were about 7% of ingest's CPU per accepted webhook.
 *
 * Only the plainest request is taken here: exactly the route's own path (no other
 * spelling, no query, no token segment), a JSON content type, and a Content-Length
 * within the endpoint's body limit. Anything else (`/webhooks/%73andbox`, `//webhooks/…`,
 * a trailing slash, another case, chunked, no content type, too large, the server
 * closing) is left to Fastify, which serves the very same endpoints. Either way the
 * delivery goes through {@link receiveWebhook} (the signature over the raw bytes,
 * then the body), and a refusal is answered by the one problem+json mapping
 * ({@link problemAnswerOf}) and counted: which server answered never changes the answer.
 */
export class WebhookFastPath {
  private readonly bySource: Map<string, WebhookProvider>;
  private closing = false;

  constructor(
    private readonly deps: IngestDeps & { providers: WebhookProvider[] },
    private readonly log: ProblemLog,
  ) {
    this.bySource = new Map(deps.providers.map((p) => [`/webhooks/${p.source}`, p]));
  }

  /** From now on every request goes to Fastify (which answers 503 while closing). */
  close(): void {
    this.closing = true;
  }

  /** Serves `req` and returns true, or returns false and leaves it untouched for Fastify. */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'POST' || this.closing) return false;
    const provider = this.bySource.get(req.url ?? '');
    if (!provider) return false;
    const type = req.headers['content-type'];
    const length = req.headers['content-length'];
    if (type === undefined || !JSON_TYPES.has(type) || req.headers['transfer-encoding'] !== undefined)
      return false;
    // Node's parser has checked Content-Length is a number; a body over the limit is
    // Fastify's to refuse (413 before reading it).
    if (length === undefined || Number(length) > provider.bodyLimit) return false;
    readBody(req, Number(length), (err, rawBody) => {
      if (err) return this.refuse(provider, res, err, true);
      receiveWebhook(provider, this.deps, {
        method: 'POST',
        url: () =>
          `${(req.socket as TLSSocket).encrypted ? 'https' : 'http'}://${req.headers.host}${req.url}`,
        headers: req.headers,
        rawBody,
        pathToken: undefined,
      }).then(
        (answer) => send(res, 200, 'application/json; charset=utf-8', answer, {}),
        (e: FastifyError) => this.refuse(provider, res, e, false),
      );
    });
    return true;
  }

  private refuse(provider: WebhookProvider, res: ServerResponse, err: FastifyError, close: boolean): void {
    countRefusal(provider, this.deps, err);
    const { problem, headers } = problemAnswerOf(err, this.log);
    // As Fastify does when reading the body failed: the client may still be sending.
    if (close) headers.connection = 'close';
    send(res, problem.status, 'application/problem+json; charset=utf-8', problem, headers);
  }
}

/**
 * The body's bytes, as Fastify reads them for its buffer parser: an error of the
 * stream is a 400 (unless it has its own 4xx), and a body whose length is not the
 * Content-Length is refused as Fastify refuses it.
 */
function readBody(
  req: IncomingMessage,
  length: number,
  done: (err: FastifyError | null, body: Buffer) => void,
): void {
  const chunks: Buffer[] = [];
  let received = 0;
  const onData = (chunk: Buffer) => {
    chunks.push(chunk);
    received += chunk.length;
  };
  const onEnd = (err?: FastifyError) => {
    req.removeListener('data', onData);
    req.removeListener('end', onEnd);
    req.removeListener('error', onEnd);
    if (err) {
      if (!(typeof err.statusCode === 'number' && err.statusCode >= 400)) err.statusCode = 400;
      return done(err, Buffer.alloc(0));
    }
    if (received !== length)
      return done(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH(), Buffer.alloc(0));
    done(null, chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, received));
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onEnd);
}

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: unknown,
  headers: Record<string, string>,
): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': type, 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

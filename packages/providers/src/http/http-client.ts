import { Pool } from 'undici';
import { parseRetryAfter } from './retry-after.js';

/**
 * How a failed exchange is to be treated: `retryable` (408, 5xx, a timeout, a
 * dropped connection: try again later), `rate_limited` (429: wait as told by
 * Retry-After) or `permanent` (any other 4xx: trying again cannot help).
 */
export type HttpFailureKind = 'retryable' | 'rate_limited' | 'permanent';

/** The one classification of an HTTP status every caller of a provider or a CRM shares. */
export function classifyHttpStatus(status: number): 'ok' | HttpFailureKind {
  if (status >= 200 && status < 300) return 'ok';
  if (status === 429) return 'rate_limited';
  // 408 is a timeout by another name.
  if (status === 408 || status >= 500) return 'retryable';
  return 'permanent';
}

/** One request, relative to the client's base URL. */
export type HttpRequest = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Appended to the base URL's path; may carry its own query string. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  body?: string;
  /** This call's own bound, shorter than the client's (a pre-send look must not hold a send up). */
  timeoutMs?: number;
};

/** An answer, whatever its status, with its classification and the wait a 429 or 503 asked for. */
export type HttpAnswer = {
  status: number;
  kind: 'ok' | HttpFailureKind;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** What Retry-After asked for (delta-seconds or HTTP-date), undefined when it was absent or unreadable. */
  retryAfterMs: number | undefined;
};

/**
 * No answer came: the connection failed, timed out, or the answer was cut off.
 * Always retryable. `notSent` is true only when not a byte of the request can
 * have reached the server (a refused connection, a name that does not resolve).
 * The message names the client and the error code, never the URL (a Slack
 * webhook's URL is itself the secret).
 */
export class HttpTransportError extends Error {
  override readonly name = 'HttpTransportError';
  readonly kind = 'retryable';

  constructor(
    message: string,
    /** undici's or the socket's code (`ECONNREFUSED`, `UND_ERR_HEADERS_TIMEOUT`), or '' */
    readonly code: string,
    readonly notSent: boolean,
    /** `request` when no answer came, `body` when the answer was cut off. */
    readonly stage: 'request' | 'body',
  ) {
    super(message);
  }
}

export type HttpClientOptions = {
  /** Names the client in errors: `smartlead unreachable: ECONNREFUSED`. */
  name: string;
  /** Bound on connecting, on waiting for the headers and on each pause in the body. */
  timeoutMs: number;
  connections?: number;
  pipelining?: number;
};

// Errors raised before a single byte of the request can have reached the server.
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * The one HTTP client of the providers package: every adapter, the CRM client,
 * the pull streams, the alert channels and the sandbox's webhook pushes go
 * through it. It keeps an undici pool to one origin, bounds every call with a
 * timeout, and hands back every answer classified ({@link classifyHttpStatus},
 * Retry-After read in both its forms); only a missing answer throws
 * ({@link HttpTransportError}). What a refusal means (a ProviderError, a CRM
 * result, an alert delivery error) is its caller's to say.
 */
export class HttpClient {
  readonly name: string;
  private readonly pool: Pool;
  private readonly basePath: string;
  private readonly baseQuery: string;

  constructor(
    baseUrl: string,
    private readonly opts: HttpClientOptions,
  ) {
    const url = new URL(baseUrl);
    this.name = opts.name;
    this.basePath = url.pathname.replace(/\/$/, '');
    this.baseQuery = url.search.slice(1);
    this.pool = new Pool(url.origin, {
      connections: opts.connections ?? 16,
      ...(opts.pipelining !== undefined ? { pipelining: opts.pipelining } : {}),
      connect: { timeout: opts.timeoutMs },
    });
  }

  /** Sends one request and reads the whole answer. @throws HttpTransportError when no whole answer came. */
  async exchange(req: HttpRequest): Promise<HttpAnswer> {
    const timeout = req.timeoutMs ?? this.opts.timeoutMs;
    let res: Awaited<ReturnType<Pool['request']>>;
    try {
      res = await this.pool.request({
        method: req.method,
        path: this.pathOf(req),
        ...(req.headers ? { headers: req.headers } : {}),
        ...(req.body !== undefined ? { body: req.body } : {}),
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      throw new HttpTransportError(
        `${this.name} unreachable: ${code || (err as Error).message}`,
        code,
        NOT_SENT_CODES.has(code),
        'request',
      );
    }
    let text: string;
    try {
      text = await res.body.text();
    } catch (err) {
      throw new HttpTransportError(
        `${this.name} answer cut off: ${(err as Error).message}`,
        (err as { code?: string }).code ?? '',
        false,
        'body',
      );
    }
    return {
      status: res.statusCode,
      kind: classifyHttpStatus(res.statusCode),
      headers: res.headers,
      text,
      retryAfterMs: parseRetryAfter(res.headers['retry-after']),
    };
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  /** The base URL's path, then the request's, then every query: the base URL's, the path's own, `query`. */
  private pathOf(req: HttpRequest): string {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) qs.set(k, String(v));
    const [path = '', ownQuery = ''] = req.path.split('?', 2);
    const query = [this.baseQuery, ownQuery, qs.toString()].filter(Boolean).join('&');
    return `${`${this.basePath}${path}` || '/'}${query ? `?${query}` : ''}`;
  }
}

import { Pool } from 'undici';
import { ProviderError } from '../provider-adapter.js';
import { retryAfterMs } from './retry-after.js';

/** One JSON call to a provider's API. */
export type JsonRequest = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  body?: unknown;
  /** This call's own bound, shorter than the client's (a pre-send look must not hold a send up). */
  timeoutMs?: number;
};

export type JsonResponse = {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // biome-ignore lint/suspicious/noExplicitAny: a provider's JSON is read field by field where it is used
  body: any;
};

export type JsonHttpClientOptions = {
  /** Shown in error messages: `smartlead answered 503`. */
  name: string;
  timeoutMs: number;
  connections?: number;
  /**
   * Looks at a refusal before the generic rules: return a ProviderError to
   * classify it (a "mailbox disconnected" is our setup, not the prospect), or null.
   */
  // biome-ignore lint/suspicious/noExplicitAny: a provider's JSON is read field by field where it is used
  classify?: (status: number, body: any, text: string) => ProviderError | null;
};

// Errors raised before a single byte of the request can have reached the provider.
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * A small JSON client over an undici pool that turns every failure into a
 * classified {@link ProviderError}: 429 is `rate_limited` with the wait of its
 * Retry-After; 5xx, timeouts and dropped connections are `retryable`; 401 is
 * `our_setup` (the API key was refused: no prospect is at fault); any other 4xx
 * is `permanent`, with the provider's own words as the reason.
 */
export class JsonHttpClient {
  private readonly pool: Pool;
  private readonly basePath: string;

  constructor(
    baseUrl: string,
    private readonly opts: JsonHttpClientOptions,
  ) {
    const url = new URL(baseUrl);
    this.basePath = url.pathname.replace(/\/$/, '');
    this.pool = new Pool(url.origin, {
      connections: opts.connections ?? 16,
      connect: { timeout: opts.timeoutMs },
    });
  }

  async request(req: JsonRequest): Promise<JsonResponse> {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) qs.set(k, String(v));
    const path = `${this.basePath}${req.path}${qs.size > 0 ? `?${qs}` : ''}`;
    let res: Awaited<ReturnType<Pool['request']>>;
    try {
      res = await this.pool.request({
        method: req.method,
        path,
        headers: {
          accept: 'application/json',
          ...(req.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...req.headers,
        },
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        headersTimeout: req.timeoutMs ?? this.opts.timeoutMs,
        bodyTimeout: req.timeoutMs ?? this.opts.timeoutMs,
      });
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      throw new ProviderError(
        'retryable',
        `${this.opts.name} unreachable: ${code || (err as Error).message}`,
        undefined,
        {
          notSent: NOT_SENT_CODES.has(code),
        },
      );
    }
    let text: string;
    try {
      text = await res.body.text();
    } catch (err) {
      throw new ProviderError(
        'retryable',
        `${this.opts.name} answer cut off: ${(err as Error).message}`,
        undefined,
        { notSent: false },
      );
    }
    // biome-ignore lint/suspicious/noExplicitAny: a provider's JSON is read field by field where it is used
    let body: any = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    if (res.statusCode < 300) return { status: res.statusCode, headers: res.headers, body };
    const custom = this.opts.classify?.(res.statusCode, body, text);
    if (custom) throw custom;
    const reason = describeRefusal(body, text, res.statusCode);
    if (res.statusCode === 429) {
      throw new ProviderError(
        'rate_limited',
        `${this.opts.name} rate limited: ${reason}`,
        retryAfterMs(res.headers['retry-after']),
      );
    }
    // 408 is a timeout by another name; 409 stays permanent unless an adapter knows better.
    if (res.statusCode >= 500 || res.statusCode === 408) {
      throw new ProviderError(
        'retryable',
        `${this.opts.name} answered ${res.statusCode}: ${reason}`,
        undefined,
        { notSent: false },
      );
    }
    if (res.statusCode === 401)
      throw new ProviderError('our_setup', `${this.opts.name} refused our credentials: ${reason}`);
    throw new ProviderError('permanent', `${this.opts.name} refused (${res.statusCode}): ${reason}`);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** The provider's own words for a refusal, short. */
// biome-ignore lint/suspicious/noExplicitAny: a provider's JSON is read field by field where it is used
export function describeRefusal(body: any, text: string, status: number): string {
  const candidate =
    body && typeof body === 'object' ? (body.message ?? body.error ?? body.detail ?? body.title) : undefined;
  const words = typeof candidate === 'string' ? candidate : text || `HTTP ${status}`;
  return words.replace(/\s+/g, ' ').slice(0, 300);
}

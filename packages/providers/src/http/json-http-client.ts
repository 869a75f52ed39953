import { ProviderError } from '../provider-adapter.js';
import { HttpClient, type HttpRequest, HttpTransportError } from './http-client.js';

/** One JSON call to a provider's API. */
export type JsonRequest = Omit<HttpRequest, 'body'> & { body?: unknown };

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
  pipelining?: number;
  /**
   * Looks at a refusal before the generic rules: return a ProviderError to
   * classify it (a "mailbox disconnected" is our setup, not the prospect), or null.
   */
  // biome-ignore lint/suspicious/noExplicitAny: a provider's JSON is read field by field where it is used
  classify?: (status: number, body: any, text: string) => ProviderError | null;
};

/**
 * A `classify` that blames our sending setup (`our_setup`), not the prospect, for a
 * 4xx other than 429 whose text matches `words` (the provider's way of saying the
 * sending account is disconnected or paused).
 */
export function ourSetupWhenTextSays(name: string, words: RegExp): JsonHttpClientOptions['classify'] {
  return (status, _body, text) =>
    status >= 400 && status < 500 && status !== 429 && words.test(text)
      ? new ProviderError('our_setup', `${name}: ${text.replace(/\s+/g, ' ').slice(0, 300)}`)
      : null;
}

/**
 * A provider's JSON API over the one {@link HttpClient}, every failure thrown as a
 * classified {@link ProviderError}: 429 is `rate_limited` with the wait of its
 * Retry-After (1 s when it gave none); 408, 5xx, timeouts and dropped connections
 * are `retryable`; 401 is `our_setup` (the API key was refused: no prospect is at
 * fault); any other 4xx is `permanent`, with the provider's own words as the reason.
 */
export class JsonHttpClient {
  private readonly http: HttpClient;

  constructor(
    baseUrl: string,
    private readonly opts: JsonHttpClientOptions,
  ) {
    this.http = new HttpClient(baseUrl, {
      name: opts.name,
      timeoutMs: opts.timeoutMs,
      ...(opts.connections !== undefined ? { connections: opts.connections } : {}),
      ...(opts.pipelining !== undefined ? { pipelining: opts.pipelining } : {}),
    });
  }

  async request(req: JsonRequest): Promise<JsonResponse> {
    const { body: json, ...rest } = req;
    let answer: Awaited<ReturnType<HttpClient['exchange']>>;
    try {
      answer = await this.http.exchange({
        ...rest,
        headers: {
          accept: 'application/json',
          ...(json === undefined ? {} : { 'content-type': 'application/json' }),
          ...req.headers,
        },
        ...(json === undefined ? {} : { body: JSON.stringify(json) }),
      });
    } catch (err) {
      if (!(err instanceof HttpTransportError)) throw err;
      throw new ProviderError('retryable', err.message, undefined, { notSent: err.notSent });
    }
    const { status, text } = answer;
    const body = parseJson(text);
    if (answer.kind === 'ok') return { status, headers: answer.headers, body };
    const custom = this.opts.classify?.(status, body, text);
    if (custom) throw custom;
    const reason = describeRefusal(body, text, status);
    if (answer.kind === 'rate_limited') {
      throw new ProviderError(
        'rate_limited',
        `${this.opts.name} rate limited: ${reason}`,
        answer.retryAfterMs ?? 1_000,
      );
    }
    // 409 stays permanent unless an adapter knows better.
    if (answer.kind === 'retryable') {
      throw new ProviderError('retryable', `${this.opts.name} answered ${status}: ${reason}`, undefined, {
        notSent: false,
      });
    }
    if (status === 401)
      throw new ProviderError('our_setup', `${this.opts.name} refused our credentials: ${reason}`);
    throw new ProviderError('permanent', `${this.opts.name} refused (${status}): ${reason}`);
  }

  close(): Promise<void> {
    return this.http.close();
  }
}

/** A provider's answer as JSON, or null when it is empty or not JSON. */
// biome-ignore lint/suspicious/noExplicitAny: a provider's JSON is read field by field where it is used
export function parseJson(text: string): any {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    // Not JSON (an HTML error page from a proxy): the refusal is described from the text.
    return null;
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

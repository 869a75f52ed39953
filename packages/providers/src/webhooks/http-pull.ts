import type { CanonicalEvent } from '@touchbase/core';
import { z } from 'zod';
import { describeRefusal, JsonHttpClient } from '../http/json-http-client.js';
import { ProviderError } from '../provider-adapter.js';
import { HttpProviderEventSchema, normaliseHttpEvent } from './http-webhook.js';

/**
 * One page of the HTTP provider's event stream (`GET /events?after=SEQ&limit=N`, beside
 * the send contract of `HttpProviderAdapter`, with the same Bearer token):
 * events in sequence order, each with the id its webhook carried.
 */
export const HttpEventPageSchema = z.object({
  events: z.array(
    z.object({ seq: z.number().int().min(0), id: z.string().min(1).max(500), event: z.unknown() }),
  ),
  /** Whether events after the last one are waiting. */
  has_more: z.boolean().default(false),
});

/**
 * Turns one item of a stream (its id and its body, as its webhook carried them)
 * into the canonical event, or says why it is not one.
 */
export type PulledEventReader = (id: string, body: unknown) => { event: CanonicalEvent } | { error: string };

/** The generic HTTP provider's events: its webhook body, normalised as its webhook is. */
export function httpPulledEvent(source = 'http'): PulledEventReader {
  return (id, body) => {
    const parsed = HttpProviderEventSchema.safeParse(body);
    if (!parsed.success) return { error: parsed.error.issues.map((i) => i.message).join('; ') };
    // Pulled with our credentials from the provider itself: as trusted as a signature.
    return { event: normaliseHttpEvent(id, parsed.data, undefined, source) };
  };
}

/** A page read from a provider's stream: the events, and the cursor after the last. */
export type PulledPage = {
  events: { seq: number; event: CanonicalEvent }[];
  /** Unparseable events, skipped (the cursor passes them; they are reported, never retried forever). */
  rejected: { seq: number; id: string; error: string }[];
  cursor: string | null;
  hasMore: boolean;
};

/**
 * The pull side of the generic HTTP provider, for recovery: what ingest missed
 * while it was down is read by sequence number from the persisted cursor. Events
 * keep their webhook ids, so one that also came by webhook is recorded once.
 * Any provider with a stream of this shape (the sandbox's) is read with it, with
 * its own `name` (the cursor's key) and `read` (its event body).
 */
export class HttpEventStream {
  /** The provider, as its cursor is stored and the report names it. */
  readonly name: string;
  private readonly client: JsonHttpClient;
  private readonly read: PulledEventReader;

  constructor(
    private readonly opts: {
      baseUrl: string;
      apiKey?: string | undefined;
      timeoutMs?: number;
      /** Default `http`. */
      name?: string;
      /** Default: the generic HTTP provider's event (`httpPulledEvent`). */
      read?: PulledEventReader;
    },
  ) {
    this.name = opts.name ?? 'http';
    this.read = opts.read ?? httpPulledEvent();
    this.client = new JsonHttpClient(opts.baseUrl, {
      name: `${this.name} event stream`,
      timeoutMs: opts.timeoutMs ?? 15_000,
      connections: 2,
      // A refused key fails the recovery, not a mailbox: permanent, where a send says `our_setup`.
      classify: (status, body, text) =>
        status === 401
          ? new ProviderError(
              'permanent',
              `${this.name} event stream refused (401): ${describeRefusal(body, text, status)}`,
            )
          : null,
    });
  }

  /**
   * Reads the events after `cursor` (a sequence number; null for the start).
   * @throws ProviderError when the stream cannot be read; ZodError when its page is not one.
   */
  async pull(cursor: string | null, limit = 500): Promise<PulledPage> {
    const after = cursor ?? '0';
    // Failures are ProviderErrors, classified as a send's are (429 with its Retry-After).
    const res = await this.client.request({
      method: 'GET',
      path: '/events',
      query: { after, limit },
      ...(this.opts.apiKey ? { headers: { authorization: `Bearer ${this.opts.apiKey}` } } : {}),
    });
    const page = HttpEventPageSchema.parse(res.body);
    const events: PulledPage['events'] = [];
    const rejected: PulledPage['rejected'] = [];
    let last = Number(after);
    for (const item of page.events) {
      last = Math.max(last, item.seq);
      const read = this.read(item.id, item.event);
      if ('error' in read) rejected.push({ seq: item.seq, id: item.id, error: read.error });
      else events.push({ seq: item.seq, event: read.event });
    }
    return {
      events,
      rejected,
      cursor: page.events.length > 0 ? String(last) : cursor,
      hasMore: page.has_more,
    };
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

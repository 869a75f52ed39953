import { MicroBatcher } from '@touchbase/core';
import { Pool } from 'undici';
import {
  type ProspectStatus,
  type ProviderAdapter,
  ProviderError,
  type SendRequest,
  type SendResult,
  type TouchStatusAtProvider,
} from '../provider-adapter.js';

/** The sandbox provider's adapter: plain HTTP to the loopback server. */
export class SandboxAdapter implements ProviderAdapter {
  readonly name = 'sandbox';
  readonly idempotent = true;
  private readonly pool: Pool;
  /**
   * The pre-send re-checks of the touches in flight, asked together: one request
   * for the addresses gathered while the previous one ran (a touch waits for nothing
   * more than one turn of the event loop when the sender is idle).
   */
  private readonly looks = new MicroBatcher(
    (asks: { email: string; timeoutMs: number }[]) => this.lookUp(asks),
    100,
    2,
  );

  constructor(
    baseUrl: string,
    private readonly timeoutMs = 10_000,
  ) {
    this.pool = new Pool(baseUrl, { connections: 64, pipelining: 1 });
  }

  async send(req: SendRequest): Promise<SendResult> {
    const res = await this.call('POST', '/v1/messages', {
      'idempotency-key': req.idempotencyKey,
      body: {
        from: req.from,
        to: req.to,
        subject: req.subject,
        body: req.body,
        conversation_id: req.conversationId ?? undefined,
        in_reply_to: req.inReplyTo ?? undefined,
        metadata: req.metadata,
        // What a real provider puts in List-Unsubscribe; the sandbox keeps it in its log.
        unsubscribe_url: req.unsubscribeUrl ?? undefined,
      },
    });
    return { messageId: String(res.body.id), conversationId: String(res.body.conversation_id) };
  }

  async status(idempotencyKey: string): Promise<TouchStatusAtProvider> {
    try {
      const res = await this.call('GET', `/v1/messages/${encodeURIComponent(idempotencyKey)}`, {});
      return {
        state: 'sent',
        result: { messageId: String(res.body.id), conversationId: String(res.body.conversation_id) },
      };
    } catch (err) {
      if (err instanceof ProviderError && err.kind === 'permanent') return { state: 'not_found' };
      return { state: 'unknown' };
    }
  }

  /** The sandbox remembers who replied or hard-bounced (`POST /v1/prospects/status`, many at once). */
  prospectStatus(req: SendRequest, opts: { timeoutMs: number }): Promise<ProspectStatus> {
    return this.looks.submit({ email: req.to, timeoutMs: opts.timeoutMs });
  }

  private async lookUp(asks: { email: string; timeoutMs: number }[]): Promise<ProspectStatus[]> {
    try {
      const res = await this.call('POST', '/v1/prospects/status', {
        body: { emails: asks.map((a) => a.email) },
        timeoutMs: Math.min(...asks.map((a) => a.timeoutMs)),
      });
      const statuses = res.body.statuses;
      return asks.map((_, i) => {
        const status = Array.isArray(statuses) ? statuses[i] : undefined;
        return status === 'replied' || status === 'bounced' || status === 'ok' ? status : 'unknown';
      });
    } catch {
      // A pre-send look that fails says nothing: the send goes on, the reply fence holds.
      return asks.map(() => 'unknown' as const);
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  private async call(
    method: 'GET' | 'POST',
    path: string,
    opts: { 'idempotency-key'?: string; body?: unknown; timeoutMs?: number },
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    let res: Awaited<ReturnType<Pool['request']>>;
    try {
      res = await this.pool.request({
        method,
        path,
        headers: {
          'content-type': 'application/json',
          ...(opts['idempotency-key'] ? { 'idempotency-key': opts['idempotency-key'] } : {}),
        },
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        headersTimeout: opts.timeoutMs ?? this.timeoutMs,
        bodyTimeout: opts.timeoutMs ?? this.timeoutMs,
      });
    } catch (err) {
      throw new ProviderError('retryable', `sandbox unreachable: ${(err as Error).message}`);
    }
    const text = await res.body.text();
    const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (res.statusCode < 300) return { status: res.statusCode, body };
    if (res.statusCode === 429) {
      const ra = Number(res.headers['retry-after'] ?? 1);
      throw new ProviderError('rate_limited', 'sandbox rate limited', ra * 1000);
    }
    if (res.statusCode >= 500) throw new ProviderError('retryable', `sandbox answered ${res.statusCode}`);
    throw new ProviderError('permanent', `sandbox refused: ${String(body.error ?? res.statusCode)}`);
  }
}

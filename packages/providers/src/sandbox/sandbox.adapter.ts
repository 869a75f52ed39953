import { MicroBatcher } from '@touchbase/core';
import { JsonHttpClient } from '../http/json-http-client.js';
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
  private readonly client: JsonHttpClient;
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

  constructor(baseUrl: string, timeoutMs = 10_000) {
    this.client = new JsonHttpClient(baseUrl, { name: 'sandbox', timeoutMs, connections: 64, pipelining: 1 });
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
    return { messageId: String(res.body?.id), conversationId: String(res.body?.conversation_id) };
  }

  async status(idempotencyKey: string): Promise<TouchStatusAtProvider> {
    try {
      const res = await this.call('GET', `/v1/messages/${encodeURIComponent(idempotencyKey)}`, {});
      return {
        state: 'sent',
        result: { messageId: String(res.body?.id), conversationId: String(res.body?.conversation_id) },
      };
    } catch (err) {
      if (err instanceof ProviderError && err.kind === 'permanent') return { state: 'not_found' };
      // When in doubt, do not resend: the caller logs why the sandbox could not say.
      return { state: 'unknown', reason: (err as Error).message };
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
      const statuses = res.body?.statuses;
      return asks.map((_, i) => {
        const status = Array.isArray(statuses) ? statuses[i] : undefined;
        return status === 'replied' || status === 'bounced' || status === 'ok' ? status : 'unknown';
      });
    } catch {
      // Handled: a pre-send look that fails says nothing ('unknown', which the sender
      // counts as such), the send goes on and the reply fence holds.
      return asks.map(() => 'unknown' as const);
    }
  }

  close(): Promise<void> {
    return this.client.close();
  }

  private call(
    method: 'GET' | 'POST',
    path: string,
    opts: { 'idempotency-key'?: string; body?: unknown; timeoutMs?: number },
  ) {
    return this.client.request({
      method,
      path,
      ...(opts['idempotency-key'] ? { headers: { 'idempotency-key': opts['idempotency-key'] } } : {}),
      ...(opts.body === undefined ? {} : { body: opts.body }),
      ...(opts.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs }),
    });
  }
}

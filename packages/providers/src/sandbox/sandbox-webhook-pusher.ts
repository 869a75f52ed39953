import { HttpClient, HttpTransportError } from '../http/http-client.js';
import { standardWebhookHeaders } from '../webhooks/standard-webhooks.js';
import type { SandboxLoggedEvent, SandboxWebhookRetry } from './sandbox.types.js';

/** A push that hears nothing back in this long is tried again, as providers do. */
const PUSH_TIMEOUT_MS = 10_000;

/**
 * Pushes the sandbox's events to ingest's webhook, signed with Standard Webhooks,
 * like real providers: 2xx is done, a 4xx other than 408 and 429 is final, and
 * anything else (5xx, 429, no answer) is pushed again after a back-off, up to
 * `retry.attempts` times. Each event keeps what became of its pushes.
 */
export class SandboxWebhookPusher {
  private http: { url: string; client: HttpClient } | undefined;
  private closed = false;

  constructor(
    private readonly secret: string,
    private readonly retry: SandboxWebhookRetry,
    /** Ingest's webhook URL now: it may be set (or changed) after the sandbox started. */
    private readonly webhookUrl: () => string | undefined,
  ) {}

  async push(e: SandboxLoggedEvent): Promise<void> {
    const body = JSON.stringify(e.payload);
    const { attempts, backoffMs, maxBackoffMs } = this.retry;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0)
        await new Promise((r) => setTimeout(r, Math.min(maxBackoffMs, backoffMs * 2 ** (attempt - 1))));
      // A closed sandbox pushes nothing more (the event stays in its stream).
      if (this.closed) {
        e.lastError = 'sandbox closed';
        break;
      }
      const url = this.webhookUrl();
      if (!url) continue;
      e.attempts++;
      try {
        const answer = await this.clientFor(url).exchange({
          method: 'POST',
          path: '',
          headers: { 'content-type': 'application/json', ...standardWebhookHeaders(this.secret, e.id, body) },
          body,
        });
        if (answer.kind === 'ok') {
          e.push = 'delivered';
          e.deliveredAt = new Date().toISOString();
          e.lastError = null;
          return;
        }
        e.lastError = `HTTP ${answer.status}`;
        if (answer.kind === 'permanent') {
          e.push = 'refused';
          return;
        }
      } catch (err) {
        if (!(err instanceof HttpTransportError)) throw err;
        // Ingest is down or restarting: pushed again after the back-off, as providers do.
        e.lastError = err.code || err.message;
      }
    }
    e.push = 'given_up';
  }

  /** Stops further pushes; the one in flight finishes first. */
  async close(): Promise<void> {
    this.closed = true;
    await this.http?.client.close();
    this.http = undefined;
  }

  /** One pool per webhook URL; a new URL (ingest moved) gets a new one. */
  private clientFor(url: string): HttpClient {
    if (this.http?.url !== url) {
      const previous = this.http?.client;
      // Pushes still in flight on the old pool finish before it closes.
      void previous?.close();
      this.http = {
        url,
        client: new HttpClient(url, { name: 'ingest webhook', timeoutMs: PUSH_TIMEOUT_MS }),
      };
    }
    return this.http.client;
  }
}

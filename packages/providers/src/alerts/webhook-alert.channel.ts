import { HttpClient } from '../http/http-client.js';
import { standardWebhookHeaders } from '../webhooks/standard-webhooks.js';
import type { AlertChannel, OpsAlert } from './ops-alert.js';
import { postJson } from './post-json.js';

/** The body of a generic alert webhook, in the Standard Webhooks shape `{ type, timestamp, data }`. */
export function webhookAlertPayload(alert: OpsAlert) {
  return {
    type: alert.kind,
    timestamp: alert.createdAt.toISOString(),
    data: {
      alertId: alert.id,
      title: alert.title,
      message: alert.message,
      domain: alert.domain,
      ...(alert.mailbox ? { mailbox: alert.mailbox } : {}),
      ...(alert.excerpt ? { excerpt: alert.excerpt } : {}),
      figures: alert.figures,
      thresholds: alert.thresholds,
      link: alert.link,
    },
  };
}

/**
 * Posts alerts to any HTTP endpoint, signed as the Standard Webhooks spec says
 * (`webhook-id` is the alert id, the same on every retry, so a receiver can drop
 * a second delivery; `webhook-timestamp`; `webhook-signature` `v1,<HMAC-SHA256>`).
 */
export class WebhookAlertChannel implements AlertChannel {
  readonly name = 'webhook';
  private readonly http: HttpClient;

  constructor(
    url: string,
    private readonly secret: string,
    timeoutMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {
    // Idle sockets do not hold the process open (undici unrefs them), so the channel needs no close.
    this.http = new HttpClient(url, { name: this.name, timeoutMs, connections: 2 });
  }

  async send(alert: OpsAlert): Promise<void> {
    const body = JSON.stringify(webhookAlertPayload(alert));
    await postJson(this.http, body, standardWebhookHeaders(this.secret, alert.id, body, this.now()));
  }
}

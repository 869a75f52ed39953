import { HttpClient } from '../http/http-client.js';
import type { AlertChannel, OpsAlert } from './ops-alert.js';
import { postJson } from './post-json.js';

const ICON: Record<OpsAlert['kind'], string> = {
  'domain.paused': ':rotating_light:',
  'account.paused': ':rotating_light:',
  'mailbox.paused': ':rotating_light:',
  'domain.threshold_approached': ':warning:',
  'account.threshold_approached': ':warning:',
  'domain.resumed': ':white_check_mark:',
  'account.resumed': ':white_check_mark:',
  'domain.completion_low': ':warning:',
  'reply.received': ':speech_balloon:',
};

// Slack's mrkdwn treats these three as control characters.
const escapeMrkdwn = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The body of a Slack incoming webhook: `text` (notifications, fallback) and Block Kit blocks. */
export function slackAlertPayload(alert: OpsAlert): { text: string; blocks: object[] } {
  const link = alert.link ? ` <${alert.link}|Open in touchbase>` : '';
  const text = `${ICON[alert.kind]} ${escapeMrkdwn(alert.title)}: ${escapeMrkdwn(alert.message)}${link}`;
  const fields = [
    ...Object.entries(alert.figures).map(([k, v]) => `*${k}*: ${formatValue(k, v)}`),
    ...Object.entries(alert.thresholds).map(([k, v]) => `*${k}*: ${formatValue(k, v)}`),
  ]
    .slice(0, 10) // Slack allows ten fields per section.
    .map((f) => ({ type: 'mrkdwn', text: f }));
  const quote = alert.excerpt
    ? [
        {
          type: 'section',
          text: { type: 'mrkdwn', text: `>${escapeMrkdwn(alert.excerpt).replace(/\n/g, '\n>')}` },
        },
      ]
    : [];
  const blocks: object[] = [
    { type: 'section', text: { type: 'mrkdwn', text } },
    ...quote,
    ...(fields.length > 0 ? [{ type: 'section', fields }] : []),
    {
      type: 'context',
      elements: [{ type: 'mrkdwn', text: `touchbase · ${alert.kind} · ${alert.createdAt.toISOString()}` }],
    },
  ];
  return { text, blocks };
}

function formatValue(key: string, v: number): string {
  return /rate|threshold/i.test(key) ? `${Number((v * 100).toFixed(3))}%` : String(v);
}

/** Posts alerts to a Slack incoming webhook. */
export class SlackAlertChannel implements AlertChannel {
  readonly name = 'slack';
  private readonly http: HttpClient;

  constructor(webhookUrl: string, timeoutMs = 10_000) {
    // Idle sockets do not hold the process open (undici unrefs them), so the channel needs no close.
    this.http = new HttpClient(webhookUrl, { name: this.name, timeoutMs, connections: 2 });
  }

  async send(alert: OpsAlert): Promise<void> {
    await postJson(this.http, JSON.stringify(slackAlertPayload(alert)));
  }
}

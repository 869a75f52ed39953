import { ConfigError } from '@touchbase/config';
import type { AlertRow } from '@touchbase/db';
import {
  type AlertChannel,
  type AlertLogger,
  LogAlertChannel,
  type OpsAlert,
  type OpsAlertKind,
  SlackAlertChannel,
  WebhookAlertChannel,
} from '@touchbase/providers';

/** The alert variables of DomainHealthEnv. */
export type AlertChannelConfig = {
  ALERT_LOG: boolean;
  ALERT_SLACK_WEBHOOK_URL?: string | undefined;
  ALERT_WEBHOOK_URL?: string | undefined;
  ALERT_WEBHOOK_SECRET?: string | undefined;
  ALERT_TIMEOUT_MS: number;
};

/**
 * The channels configured by the environment: the log, a Slack incoming webhook, a
 * generic webhook signed as Standard Webhooks.
 * @throws ConfigError when ALERT_WEBHOOK_URL is set without its secret.
 */
export function buildAlertChannels(config: AlertChannelConfig, logger: AlertLogger): AlertChannel[] {
  const channels: AlertChannel[] = [];
  if (config.ALERT_LOG) channels.push(new LogAlertChannel(logger));
  if (config.ALERT_SLACK_WEBHOOK_URL) {
    channels.push(new SlackAlertChannel(config.ALERT_SLACK_WEBHOOK_URL, config.ALERT_TIMEOUT_MS));
  }
  if (config.ALERT_WEBHOOK_URL) {
    if (!config.ALERT_WEBHOOK_SECRET) {
      throw new ConfigError([
        { variable: 'ALERT_WEBHOOK_SECRET', message: 'required when ALERT_WEBHOOK_URL is set' },
      ]);
    }
    channels.push(
      new WebhookAlertChannel(config.ALERT_WEBHOOK_URL, config.ALERT_WEBHOOK_SECRET, config.ALERT_TIMEOUT_MS),
    );
  }
  return channels;
}

function titleOf(kind: OpsAlertKind, domain: string | null): string {
  switch (kind) {
    case 'domain.paused':
      return `Sending domain ${domain} paused`;
    case 'domain.resumed':
      return `Sending domain ${domain} resumed`;
    case 'domain.threshold_approached':
      return `Sending domain ${domain} approaching its threshold`;
    case 'account.paused':
      return 'Every sending domain paused by the account-wide guard';
    case 'account.resumed':
      return 'Sending domains resumed after the account-wide pause';
    case 'account.threshold_approached':
      return 'Account-wide rates approaching the threshold';
    case 'mailbox.paused':
      return `A mailbox of ${domain} paused: the provider blamed our setup`;
    case 'domain.completion_low':
      return `Sending domain ${domain}: sequences complete too rarely`;
    case 'reply.received':
      return 'A prospect replied';
  }
}

const numbers = (o: unknown): Record<string, number> =>
  Object.fromEntries(
    Object.entries((o ?? {}) as Record<string, unknown>).filter(([, v]) => typeof v === 'number'),
  ) as Record<string, number>;

/** An alert row as the channels deliver it, with the link to its page in the API. */
export function toOpsAlert(row: AlertRow, publicBaseUrl: string): OpsAlert {
  const base = publicBaseUrl.replace(/\/+$/, '');
  const kind = row.kind as OpsAlertKind;
  // The sender's mailbox pauses name their mailbox; the alert links to it rather than to the domain.
  const mailbox =
    typeof row.data.mailboxId === 'string'
      ? { id: row.data.mailboxId, provider: String(row.data.provider ?? '') }
      : null;
  let link = row.domainId ? `${base}/v1/domains/${row.domainId}` : `${base}/v1/domains/health`;
  if (mailbox) link = `${base}/v1/mailboxes/${mailbox.id}`;
  // A reply's notification links to the timeline of the enrollment it answered. Only a
  // reply's: a mailbox pause also names the enrollment whose touch met the refusal, but
  // links to its mailbox.
  if (kind === 'reply.received' && typeof row.data.enrollmentId === 'string')
    link = `${base}/v1/enrollments/${row.data.enrollmentId}/timeline`;
  const excerpt = typeof row.data.excerpt === 'string' ? row.data.excerpt : null;
  return {
    id: row.id,
    kind,
    title: titleOf(kind, row.domain),
    message: row.message,
    domain: row.domainId && row.domain ? { id: row.domainId, name: row.domain } : null,
    ...(mailbox ? { mailbox } : {}),
    ...(excerpt ? { excerpt } : {}),
    figures: numbers(row.data.figures),
    thresholds: numbers(row.data.thresholds),
    link,
    createdAt: new Date(row.createdAt),
  };
}

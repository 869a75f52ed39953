/** Ops alert channels: a Slack incoming webhook, a generic Standard Webhooks endpoint, the log. */
export { type AlertLogger, LogAlertChannel } from './log-alert.channel.js';
export { type AlertChannel, AlertDeliveryError, type OpsAlert, type OpsAlertKind } from './ops-alert.js';
export { SlackAlertChannel, slackAlertPayload } from './slack-alert.channel.js';
export { WebhookAlertChannel, webhookAlertPayload } from './webhook-alert.channel.js';

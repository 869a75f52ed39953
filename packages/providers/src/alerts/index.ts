/** Ops alert channels: a Slack incoming webhook, a generic Standard Webhooks endpoint, the log. */
export { LogAlertChannel, type AlertLogger } from './log-alert.channel.js';
export { AlertDeliveryError, type AlertChannel, type OpsAlert, type OpsAlertKind } from './ops-alert.js';
export { SlackAlertChannel, slackAlertPayload } from './slack-alert.channel.js';
export { WebhookAlertChannel, webhookAlertPayload } from './webhook-alert.channel.js';

/**
 * @touchbase/ingest: provider webhooks and one-click unsubscribes to canonical
 * events, recorded once and applied.
 */
export { buildIngest, type IngestAppDeps } from './app.js';
export { CrmNotifier, type CrmNotifierDeps } from './crm/crm-notifier.js';
export { startIngest } from './start.js';
export { type IngestDeps, ingestEvent } from './use-cases/ingest-event.js';
export { type EventStream, type RecoveryReport, recoverEvents } from './use-cases/recover-events.js';
export {
  ONE_CLICK_SOURCE,
  type UnsubscribeResult,
  unsubscribeByToken,
} from './use-cases/unsubscribe-by-token.js';
export { webhookProvidersFrom } from './webhook-providers.js';

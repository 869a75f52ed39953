/** @touchbase/domain-health: the bounce and complaint guard that pauses sending domains and alerts ops. */
export { buildAlertChannels, toOpsAlert } from './alerts/alert-channels.js';
export { buildDomainHealth, type DomainHealth, type DomainHealthAppDeps } from './app.js';
export { createDeliverAlertProcessor } from './processors/deliver-alert.processor.js';
export { startDomainHealth } from './start.js';
export {
  type DomainFigures,
  type DomainHealthDeps,
  domainHealthTick,
  type TickResult,
} from './use-cases/domain-health-tick.js';

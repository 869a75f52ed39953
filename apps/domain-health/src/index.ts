/** @touchbase/domain-health: the bounce-rate guard that pauses sending domains. */
export { buildDomainHealth } from './app.js';
export { type DomainFigures, domainHealthTick } from './processors/domain-health.processor.js';
export { startDomainHealth } from './start.js';

/**
 * @touchbase/telemetry: the pino logger (PII redacted), the prom-client metrics and
 * the health routes every HTTP service exposes.
 */
export { registerHealthRoutes, type ReadinessCheck } from './health.plugin.js';
export { createLogger, scrubEmails, type Logger } from './logger.js';
export { Metrics } from './metrics.js';

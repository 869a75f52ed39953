/**
 * @touchbase/telemetry: the pino logger (PII redacted), the prom-client metrics and
 * the health routes every HTTP service exposes.
 */
export { type ReadinessCheck, registerHealthRoutes, registerMetricsRoute } from './health.plugin.js';
export {
  createLogger,
  deferredChild,
  LazyChildLogger,
  type LogCalls,
  type Logger,
  lazyChildLoggerFactory,
  scrubEmails,
} from './logger.js';
export { Metrics } from './metrics.js';

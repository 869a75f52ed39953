/**
 * @touchbase/runtime: what every `main.ts` shares: the parsed configuration, the
 * connections (checked at boot), the ordered, bounded shutdown, and the one place
 * errors become RFC 9457 problem+json.
 */

export { doNotContactTableOf } from './do-not-contact.js';
export { type EnvFile, loadEnvFile, readEnvFile } from './env-file.js';
export {
  DATABASE_RETRY_AFTER_SECONDS,
  type FieldError,
  fieldErrors,
  type Problem,
  type ProblemAnswer,
  type ProblemLog,
  problemAnswerOf,
  problemDocument,
  registerProblemHandler,
  sendDatabaseUnavailable,
  sendProblem,
} from './http/problem.js';
export { ProblemSchema } from './http/problem.schema.js';
export {
  type ProblemBody,
  ProblemError,
  type ProblemOfError,
  problemOfError,
} from './http/problem-of-error.js';
export { startMetricsServer } from './metrics-server.js';
export { listenNamed, PortInUseError } from './port-in-use.js';
export { describeBootError, runService } from './run-service.js';
export {
  type Config,
  loadRuntimeConfig,
  openRuntime,
  queueLayoutOf,
  type Runtime,
  redisTargetOf,
} from './runtime.js';
export { Shutdown } from './shutdown.js';

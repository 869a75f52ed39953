/**
 * What this package logs with: the calls of a pino logger it uses, so that
 * `@touchbase/telemetry`'s logger (or a test's) fits without this package
 * depending on it. Messages are constant; the ids go in the object.
 */
export type QueueLogger = {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

import type { JobsOptions, WorkerOptions } from 'bullmq';
import { z } from 'zod';

/**
 * THE queue contract: names never change once shipped, job names are dotted, job
 * ids deterministic. Payloads carry ids only, never addresses, bodies or secrets,
 * which also keeps Redis memory per enrollment small.
 */
export const QUEUE = {
  touches: 'touches',
  scheduler: 'scheduler',
  domainHealth: 'domain-health',
  alerts: 'alerts',
  reactivations: 'reactivations',
} as const;
export type QueueName = (typeof QUEUE)[keyof typeof QUEUE];

/**
 * One touch to send: enrollment `e`, step `s`, and attempt `a` only for a resend
 * after a soft bounce (2 or 3; absent means the first attempt).
 */
export const TouchSendSchema = z
  .object({
    e: z.uuid(),
    s: z.number().int().min(1),
    a: z.number().int().min(2).max(3).optional(),
    /** Retries spent after errors (see `retry` below); absent until the first. */
    r: z.number().int().min(1).optional(),
  })
  .strict();
export type TouchSend = z.infer<typeof TouchSendSchema>;

const UUID = z.regexes.uuid();
const intFrom = (v: unknown, min: number, max = Number.MAX_SAFE_INTEGER) =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/**
 * Whether a job's data is a valid {@link TouchSend}, by hand: the sender checks every
 * job it takes, and the schema (zod) costs more than the touch's other checks put
 * together. Accepts exactly what `TouchSendSchema` accepts; where this says no, the
 * worker asks the schema, for its message.
 */
export function isTouchSend(data: unknown): data is TouchSend {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return false;
  for (const k of Object.keys(data)) if (k !== 'e' && k !== 's' && k !== 'a' && k !== 'r') return false;
  const d = data as Record<string, unknown>;
  return (
    typeof d.e === 'string' &&
    UUID.test(d.e) &&
    intFrom(d.s, 1) &&
    (d.a === undefined || intFrom(d.a, 2, 3)) &&
    (d.r === undefined || intFrom(d.r, 1))
  );
}

/**
 * Retries kept by the worker instead of BullMQ's per-job `attempts`: after a
 * failed run the job goes back to delayed for `delayMs * 2^(n-1)` (less up to
 * `jitter` of it), its count in the payload's `r`; the `attempts`-th failure fails it.
 */
export type RetryPolicy = { attempts: number; delayMs: number; jitter: number };

export const EmptyPayloadSchema = z.object({}).strict();

/** One ops alert to deliver on every configured channel; the job id is the alert id. */
export const AlertDeliverSchema = z.object({ alertId: z.uuid() }).strict();
export type AlertDeliver = z.infer<typeof AlertDeliverSchema>;

/** One reactivation that has come due; the job id is the reactivation id (the row is the truth). */
export const ReactivationDueSchema = z.object({ reactivationId: z.uuid() }).strict();
export type ReactivationDue = z.infer<typeof ReactivationDueSchema>;

export const JOBS = {
  'touch.send': {
    queue: QUEUE.touches,
    schema: TouchSendSchema,
    valid: isTouchSend,
    // Nothing per job: every byte of a job's options is stored in each pending job's
    // hash, and BullMQ's `attempts` and `backoff` would push it past Redis's compact
    // encoding (the job hash doubles, measured in bench/enrollment). Retries are
    // the worker's (`retry`), retention too (`keep`).
    options: {},
    // Provider 5xx, timeouts and a database away retry with the same id, so the same idempotency key.
    retry: { attempts: 8, delayMs: 2_000, jitter: 0.5 },
    keep: { removeOnComplete: { count: 0 }, removeOnFail: { age: 7 * 24 * 3600, count: 10_000 } },
  },
  'schedule.reconcile': {
    queue: QUEUE.scheduler,
    schema: EmptyPayloadSchema,
    options: { attempts: 1, removeOnComplete: 100, removeOnFail: 100 },
  },
  'domain-health.tick': {
    queue: QUEUE.domainHealth,
    schema: EmptyPayloadSchema,
    options: { attempts: 3, removeOnComplete: 100, removeOnFail: 100 },
  },
  'alert.deliver': {
    queue: QUEUE.alerts,
    schema: AlertDeliverSchema,
    options: {
      // A channel that is down (Slack, the ops webhook) is retried for about two hours
      // (2 s, 4 s, ... 68 min); a channel already delivered is never sent again.
      attempts: 12,
      backoff: { type: 'exponential', delay: 2_000, jitter: 0.25 },
      removeOnComplete: true,
      removeOnFail: { age: 7 * 24 * 3600, count: 1_000 },
    },
  },
  'reactivation.due': {
    queue: QUEUE.reactivations,
    schema: ReactivationDueSchema,
    // A database away retries; a lost job is re-created from its row by the reconciler.
    options: {
      attempts: 8,
      backoff: { type: 'exponential', delay: 2_000, jitter: 0.25 },
      removeOnComplete: true,
      removeOnFail: { age: 7 * 24 * 3600, count: 1_000 },
    },
  },
} as const satisfies Record<
  string,
  {
    queue: QueueName;
    schema: z.ZodType;
    /** A hand-written check accepting exactly what `schema` accepts, for a hot queue (see isTouchSend). */
    valid?: (data: unknown) => boolean;
    options: JobsOptions;
    retry?: RetryPolicy;
    keep?: Pick<WorkerOptions, 'removeOnComplete' | 'removeOnFail'>;
  }
>;

export type JobName = keyof typeof JOBS;
export type JobPayload<N extends JobName> = z.infer<(typeof JOBS)[N]['schema']>;

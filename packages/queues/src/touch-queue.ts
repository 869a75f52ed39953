import { MicroBatcher, touchKey } from '@touchbase/core';
import { Queue } from 'bullmq';
import { JOBS, QUEUE, type TouchSend, TouchSendSchema } from './queue-catalog.js';
import { logQueueErrors } from './queue-errors.js';
import { type LayoutOrPrefix, queuePrefix, toLayout, touchPartitionOf } from './queue-layout.js';
import type { QueueLogger } from './queue-logger.js';
import type { RedisClient } from './redis-connection.js';
import { touchJobId, touchKeyOfJobId } from './touch-job-id.js';

/** One touch to schedule: the enrollment, its step (and attempt, for a resend) and when it is due. */
export type ScheduledTouch = { enrollmentId: string; step: number; attempt?: number; dueAt: Date };

/**
 * How many entries BullMQ keeps in each touch partition's events stream (its
 * default is 10,000). Every touch writes about five (added, delayed, waiting,
 * active, completed) and nothing in touchbase reads them: no QueueEvents, and Bull
 * Board reads the job lists, not the stream. The stream is trimmed approximately
 * (whole nodes of 100), so it stays a few hundred entries, tens of kB instead of
 * about a megabyte per partition, and a `XREVRANGE` still shows the last moments.
 */
export const TOUCH_EVENTS_MAX_LEN = 200;

/** The job of one touch: an enrollment's step, and its attempt when it is a resend. */
export type TouchJobKey = { enrollmentId: string; step: number; attempt?: number };

const jobIdOf = (k: TouchJobKey) => touchJobId(touchKey(k.enrollmentId, k.step, k.attempt));

/** A job Redis failed to remove, and why. */
type RemovalFailure = { jobId: string; reason: unknown };

/**
 * The part of BullMQ's Redis backend `Queue.remove` runs, to queue the same script on
 * a pipeline: `execCommand` (public) with `removeArgs` (the script's keys and
 * arguments, protected in its typings; the cancel test holds it to BullMQ's answers).
 */
type RemovingBackend = {
  execCommand(client: unknown, commandName: string, args: unknown[]): unknown;
  removeArgs(jobId: string, removeChildren: boolean): (string | number)[];
};

/**
 * The producer side of the `touches` queue: one delayed job per active enrollment,
 * with a deterministic id made from its touch key `{enrollmentId}-{step}`
 * (`{enrollmentId}-{step}-{attempt}` for a resend after a soft bounce) by
 * {@link touchJobId}, e.g. `b8H3mJ0aQ0KuOm2xKjQd1w.2`, so adding it twice is a no-op.
 *
 * With TOUCH_QUEUE_PARTITIONS above 1 the queue is split into that many BullMQ
 * queues named `touches`, each under a hash-tagged prefix of its own (see
 * `queuePrefix`), and an enrollment's touches always go to the same one
 * (`touchPartitionOf`), so the dedupe by job id holds within it. On Redis Cluster
 * each partition is one slot, so their load spreads over the shards.
 */
export class TouchQueue {
  /** One queue per partition, in partition order. */
  readonly partitions: Queue<TouchSend>[];

  /** `logger` takes each partition's errors (its Redis connection's, re-emitted). */
  constructor(
    private readonly connection: RedisClient,
    layout: LayoutOrPrefix,
    logger: QueueLogger,
  ) {
    const { touchPartitions } = toLayout(layout);
    this.partitions = Array.from({ length: touchPartitions }, (_, i) => {
      const queue = new Queue<TouchSend>(QUEUE.touches, {
        connection,
        prefix: queuePrefix(layout, QUEUE.touches, i),
        streams: { events: { maxLen: TOUCH_EVENTS_MAX_LEN } },
      });
      logQueueErrors(queue, logger, {
        queue: QUEUE.touches,
        ...(touchPartitions > 1 ? { partition: i } : {}),
      });
      return queue;
    });
  }

  /** The first (with one partition, the only) queue: Bull Board and tests of an unpartitioned layout. */
  get queue(): Queue<TouchSend> {
    return this.partitions[0]!;
  }

  /** The queue an enrollment's touches go to. */
  queueOf(enrollmentId: string): Queue<TouchSend> {
    return this.partitions[touchPartitionOf(enrollmentId, this.partitions.length)]!;
  }

  /** Job counts summed over the partitions (BullMQ's `getJobCounts`). */
  async counts(...types: Parameters<Queue['getJobCounts']>): Promise<Record<string, number>> {
    const all = await Promise.all(this.partitions.map((q) => q.getJobCounts(...types)));
    const sum: Record<string, number> = {};
    for (const c of all) for (const [k, v] of Object.entries(c)) sum[k] = (sum[k] ?? 0) + v;
    return sum;
  }

  /** Enqueues the touches, validated, in one round trip per batch. */
  async schedule(touches: ScheduledTouch[], now = Date.now()): Promise<void> {
    if (touches.length === 0) return;
    const spec = JOBS['touch.send'];
    await this.byPartition(
      touches,
      (t) => t.enrollmentId,
      (queue, part) =>
        queue.addBulk(
          part.map((t) => ({
            name: 'touch.send',
            data: TouchSendSchema.parse({
              e: t.enrollmentId,
              s: t.step,
              ...((t.attempt ?? 1) > 1 ? { a: t.attempt } : {}),
            }),
            opts: {
              ...spec.options,
              // Left out of the stored options (BullMQ would write its default `"attempts":0`):
              // they must fit Redis's compact hash encoding; the worker keeps the retries.
              attempts: undefined,
              jobId: jobIdOf(t),
              delay: Math.max(0, t.dueAt.getTime() - now),
            },
          })),
        ),
    );
  }

  /**
   * Moves delayed jobs to their touches' new due times (BullMQ's `changeDelay`, one
   * atomic step in Redis: the job is never absent, so the reconciler has nothing to
   * repair whatever happens meanwhile). A job already due is promoted. A job that is
   * not delayed is left: waiting or active (a sender has it; its claim in PostgreSQL
   * decides), or missing (the reconciler re-creates it from `next_touch_at`).
   * @returns the touches whose job was moved (a job already at its due time is not).
   */
  async retime<T extends ScheduledTouch>(touches: T[]): Promise<T[]> {
    if (touches.length === 0) return [];
    // Where each job is now: one pipelined round trip per partition (one slot each on a cluster).
    const scores = new Map<T, unknown>();
    await this.byPartition(
      touches,
      (t) => t.enrollmentId,
      async (queue, part) => {
        const read = this.connection.pipeline();
        for (const t of part) read.zscore(queue.toKey('delayed'), jobIdOf(t));
        const replies = (await read.exec()) ?? [];
        part.forEach((t, i) => {
          const [err, score] = replies[i] ?? [null, null];
          if (err) throw err;
          scores.set(t, score);
        });
      },
    );
    const moved: T[] = [];
    for (const t of touches) {
      const score = scores.get(t);
      if (score === null || score === undefined) continue;
      // BullMQ scores a delayed job with its due time times 0x1000 plus a counter.
      const at = Math.floor(Number(score) / 0x1000);
      const due = t.dueAt.getTime();
      // A job's time is its due time give or take the ms between the caller's clock
      // reading and BullMQ's (an enrolment's jobs come up to a second late): the same time.
      if (Math.abs(at - Math.max(due, Date.now())) <= RETIME_TOLERANCE_MS) continue;
      const job = await this.queueOf(t.enrollmentId).getJob(jobIdOf(t));
      if (!job) continue;
      try {
        const delay = due - Date.now();
        if (delay <= 0) await job.promote();
        else await job.changeDelay(delay);
        moved.push(t);
      } catch (err) {
        // BullMQ's own answer: the job left the delayed set meanwhile (a sender took it).
        if (!isBullmqAnswer(err)) throw err;
      }
    }
    return moved;
  }

  /** Runs `fn` once per partition with the items that go there (one round trip each, in parallel). */
  private async byPartition<T, R>(
    items: T[],
    enrollmentOf: (item: T) => string,
    fn: (queue: Queue<TouchSend>, items: T[]) => Promise<R>,
  ): Promise<R[]> {
    if (this.partitions.length === 1) return [await fn(this.queue, items)];
    const groups = new Map<Queue<TouchSend>, T[]>();
    for (const item of items) {
      const q = this.queueOf(enrollmentOf(item));
      const group = groups.get(q);
      if (group) group.push(item);
      else groups.set(q, [item]);
    }
    return Promise.all([...groups].map(([q, group]) => fn(q, group)));
  }

  /**
   * Removes pending jobs. A job already taken by a sender stays (BullMQ cannot
   * remove a locked job); the sender's claim in PostgreSQL fences it instead.
   * Every removal is tried, even when some fail.
   * @throws TouchJobRemovalError naming the touches whose jobs Redis failed to remove
   * (connection lost, timeout, a script error): they may still run, fenced by the claim.
   */
  async cancel(keys: TouchJobKey[]): Promise<void> {
    if (keys.length === 0) return;
    const failed = await this.removals.submit(keys);
    if (failed.length > 0) throw new TouchJobRemovalError(failed, keys.length);
  }

  /**
   * The removals asked for at about the same time (the replies one batched stop
   * applied, which all end as it commits) go out together: one pipeline of BullMQ's
   * own `removeJob` script per partition, one round trip instead of one per reply.
   */
  private readonly removals = new MicroBatcher((asks: TouchJobKey[][]) => this.removeTogether(asks), 1_000);

  /** @returns for each ask, the jobs Redis failed to remove (BullMQ's answers are not failures). */
  private async removeTogether(asks: TouchJobKey[][]): Promise<RemovalFailure[][]> {
    const failed: RemovalFailure[][] = asks.map(() => []);
    const jobs = asks.flatMap((keys, n) => keys.map((key) => ({ n, key, jobId: jobIdOf(key) })));
    await this.byPartition(
      jobs,
      (j) => j.key.enrollmentId,
      async (queue, part) => {
        try {
          const pipeline = (await queue.backend.client).pipeline();
          const backend = queue.backend as unknown as RemovingBackend;
          // BullMQ answers 1 whether or not it had the job and 0 for a locked one (its
          // negative codes are answers too), so there is no count to give; only an
          // error is a failure.
          for (const j of part) backend.execCommand(pipeline, 'removeJob', backend.removeArgs(j.jobId, true));
          const replies = (await pipeline.exec()) ?? [];
          part.forEach((j, i) => {
            const err = replies[i] ? replies[i][0] : new Error('no reply from Redis');
            if (err) failed[j.n]!.push({ jobId: j.jobId, reason: err });
          });
        } catch (err) {
          for (const j of part) failed[j.n]!.push({ jobId: j.jobId, reason: err });
        }
      },
    );
    return failed;
  }

  /**
   * Removes pending jobs unless a sender holds them: the keys whose job is active
   * (locked by a worker, so being sent right now) are returned and their jobs stay.
   * A missing job counts as removed. Redis failing rejects.
   */
  async removeUnlessActive(keys: TouchJobKey[]): Promise<Set<string>> {
    const active = new Set<string>();
    await Promise.all(
      keys.map(async (k) => {
        const key = touchKey(k.enrollmentId, k.step, k.attempt);
        // BullMQ answers 0 for a locked job and 1 otherwise (removed, or there was none).
        const removed = await this.queueOf(k.enrollmentId)
          .remove(touchJobId(key))
          .catch((err: unknown) => {
            if (isBullmqAnswer(err)) return 1;
            throw err;
          });
        if (removed === 0) active.add(key);
      }),
    );
    return active;
  }

  /**
   * Which of these touches (by key) have a job really scheduled: waiting, delayed, active or
   * prioritized. A job hash alone is not enough: after a partial loss (a flush of
   * the delayed set, a failover) a hash can remain that no worker will ever pick
   * up, and a failed job (retries spent) is kept for Bull Board but will not run
   * again. Those stale entries are removed here and reported missing, so the
   * reconciler adds them anew.
   */
  async existing(touchKeys: string[]): Promise<Set<string>> {
    if (touchKeys.length === 0) return new Set();
    const found = await this.byPartition(touchKeys, enrollmentOfKey, (queue, keys) =>
      this.existingIn(queue, keys.map(touchJobId)),
    );
    return new Set(found.flat().map(touchKeyOfJobId));
  }

  /** `existing` within one partition: its keys share a slot, so one pipeline serves them on a cluster too. */
  private async existingIn(queue: Queue<TouchSend>, jobIds: string[]): Promise<string[]> {
    // Most pending touches are delayed: one ZSCORE each settles them in one round trip.
    const delayedKey = queue.toKey('delayed');
    const first = this.connection.pipeline();
    for (const id of jobIds) {
      first.zscore(delayedKey, id);
      first.exists(queue.toKey(id));
    }
    const replies = (await first.exec()) ?? [];
    const present: string[] = [];
    const toInspect: string[] = [];
    jobIds.forEach((id, i) => {
      if (replies[2 * i]?.[1] !== null && replies[2 * i]?.[1] !== undefined) present.push(id);
      else if (replies[2 * i + 1]?.[1] === 1) toInspect.push(id);
    });
    for (const id of toInspect) {
      const state = await queue.getJobState(id);
      if (
        state === 'active' ||
        state === 'waiting' ||
        state === 'delayed' ||
        state === 'prioritized' ||
        state === 'waiting-children'
      ) {
        present.push(id);
      } else {
        await this.dropStale(queue, id);
      }
    }
    return present;
  }

  /** Deletes a job that will never run (failed, completed, or orphaned by a partial loss). */
  private async dropStale(queue: Queue<TouchSend>, id: string): Promise<void> {
    // A refusal of BullMQ's own goes on to the delete below; Redis failing is the caller's.
    const removed = await queue.remove(id).catch((err: unknown) => {
      if (isBullmqAnswer(err)) return 0;
      throw err;
    });
    // remove() refuses a job it cannot find in any state; delete the orphan hash itself.
    if (removed !== 1) await this.connection.del(queue.toKey(id), `${queue.toKey(id)}:logs`);
  }

  /** The job of one touch key, for inspection (Bull Board shows the same id). */
  job(touchKey: string) {
    return this.queueOf(enrollmentOfKey(touchKey)).getJob(touchJobId(touchKey));
  }

  /** The BullMQ state of one touch key's job (`unknown` when it has none). */
  jobState(touchKey: string) {
    return this.queueOf(enrollmentOfKey(touchKey)).getJobState(touchJobId(touchKey));
  }

  /** When the job of one touch key is due, if it is delayed. */
  async delayedUntil(touchKey: string): Promise<number | null> {
    const queue = this.queueOf(enrollmentOfKey(touchKey));
    const score = await this.connection.zscore(queue.toKey('delayed'), touchJobId(touchKey));
    // BullMQ scores a delayed job with its due time times 0x1000 plus a counter.
    return score === null ? null : Math.floor(Number(score) / 0x1000);
  }

  async close(): Promise<void> {
    await Promise.all(this.partitions.map((q) => q.close()));
  }
}

/** How far a delayed job's time may be from its due time and still be at it (BullMQ reads its own clock). */
const RETIME_TOLERANCE_MS = 1_000;

/** The enrollment of a touch key `{uuid}-{step}[-{attempt}]`. */
const enrollmentOfKey = (touchKey: string): string => touchKey.slice(0, 36);

/**
 * Whether a rejection is one of BullMQ's own answers about the job (its scripts'
 * negative codes: the job belongs to a job scheduler, is missing, ...), which are
 * expected, rather than Redis or the connection failing, which must surface.
 */
function isBullmqAnswer(err: unknown): boolean {
  return typeof (err as { code?: unknown } | null)?.code === 'number';
}

/**
 * Thrown by {@link TouchQueue.cancel} when Redis failed to remove some jobs: names
 * their touch keys and job ids, so the caller's log says which touches may still
 * come due (the claim in PostgreSQL fences them).
 */
export class TouchJobRemovalError extends Error {
  override readonly name = 'TouchJobRemovalError';
  readonly code = 'touch_job_removal_failed';
  /** The touch keys whose jobs may still be in Redis. */
  readonly touchKeys: string[];
  /** Their BullMQ job ids, as Bull Board shows them. */
  readonly jobIds: string[];

  constructor(failed: { jobId: string; reason: unknown }[], asked: number) {
    const touchKeys = failed.map((f) => touchKeyOfJobId(f.jobId));
    const first = failed[0]?.reason;
    const shown = touchKeys.slice(0, 5).join(', ') + (touchKeys.length > 5 ? ', ...' : '');
    super(
      `Removing ${failed.length} of ${asked} touch jobs from Redis failed (${shown}): ${(first as Error)?.message ?? first}`,
      { cause: first },
    );
    this.touchKeys = touchKeys;
    this.jobIds = failed.map((f) => f.jobId);
  }
}

import { MicroBatcher } from '@touchbase/core';
import type { Claim, ClaimInput, SendContext, SentInput, TouchRepository } from '@touchbase/db';
import type { ScheduledTouch, TouchQueue } from '@touchbase/queues';
import type { Logger, Metrics } from '@touchbase/telemetry';

/**
 * The sender's round trips, coalesced across the touches in flight: touches taken
 * together are loaded, claimed and recorded with one statement (one commit) each,
 * and their next jobs added in one call. Every touch still gets its own answer,
 * exactly as alone; a batch that fails fails each of its touches, which retry.
 *
 * This is what lets one sender process keep up with thousands of touches a second:
 * per touch it was three statements, three commits and a Redis call.
 */
export class TouchBatches {
  private readonly loads: MicroBatcher<string, SendContext | null>;
  private readonly claims: MicroBatcher<ClaimInput, Claim>;
  private readonly records: MicroBatcher<SentInput, number | null>;
  private readonly schedules: MicroBatcher<ScheduledTouch, undefined>;

  constructor(
    touches: TouchRepository,
    queue: Pick<TouchQueue, 'schedule' | 'cancel'>,
    metrics?: Pick<Metrics, 'senderBatchSize'>,
    maxSize = 100,
    /** Batches of one kind running at once; the touches that arrive meanwhile wait for the next (group commit). */
    maxInFlight = 2,
    /**
     * Told when taking back stray jobs failed. Without it that failure rejects the
     * touches' `schedule` (their jobs retry, fenced by the claim) rather than vanish.
     */
    logger?: Pick<Logger, 'warn'>,
  ) {
    const sized = (kind: string) => (n: number) => metrics?.senderBatchSize.observe({ kind }, n);
    this.loads = new MicroBatcher(
      async (ids) => {
        const found = await touches.loadManyForSend(ids);
        return ids.map((id) => found.get(id) ?? null);
      },
      maxSize,
      maxInFlight,
      sized('load'),
    );
    this.claims = new MicroBatcher(
      (inputs) => touches.claimMany(inputs),
      maxSize,
      maxInFlight,
      sized('claim'),
      isDeadlock,
    );
    this.records = new MicroBatcher(
      (inputs) => touches.recordSentAttempts(inputs),
      maxSize,
      maxInFlight,
      sized('record'),
      isDeadlock,
    );
    this.schedules = new MicroBatcher(
      async (touchesDue) => {
        await queue.schedule(touchesDue);
        // A reply that committed between our record and this add removed the job
        // before it existed: read the enrollments once more and take back strays.
        // Best effort: a stray that stays is fenced by the claim when it comes due.
        try {
          const strays = await touches.noLongerCurrent(touchesDue);
          if (strays.length > 0) await queue.cancel(strays);
        } catch (err) {
          if (!logger) throw err;
          logger.warn(
            {
              enrollmentIds: touchesDue.map((t) => t.enrollmentId),
              touchKeys: (err as { touchKeys?: string[] }).touchKeys,
              err: (err as Error).message,
            },
            'Stray job removal failed; the claim fences them',
          );
        }
        return touchesDue.map(() => undefined);
      },
      maxSize,
      maxInFlight,
      sized('schedule'),
    );
  }

  load(enrollmentId: string): Promise<SendContext | null> {
    return this.loads.submit(enrollmentId);
  }

  claim(input: ClaimInput): Promise<Claim> {
    return this.claims.submit(input);
  }

  /** Records a sent touch; the attempt now pending at the enrollment's next node, or null when it did not advance. */
  recordSent(input: SentInput): Promise<number | null> {
    return this.records.submit(input);
  }

  schedule(touch: ScheduledTouch): Promise<undefined> {
    return this.schedules.submit(touch);
  }
}

/**
 * A batch that PostgreSQL aborted as a deadlock (it locked enrollments that an
 * ingest transaction was locking in another order) is run again one touch at a
 * time: each then waits for the other transaction instead of failing.
 */
const isDeadlock = (err: unknown) => (err as { code?: string }).code === '40P01';

import type pg from 'pg';
import { type SendContext, SendContextRepository, type SendMailbox } from './send-context.repository.js';
import { type Claim, type ClaimInput, TouchClaimRepository } from './touch-claim.repository.js';
import { type SentInput, TouchProgressRepository } from './touch-progress.repository.js';

export type { SendContext, SendMailbox } from './send-context.repository.js';
export type { Claim, ClaimInput } from './touch-claim.repository.js';
export type { SentInput } from './touch-progress.repository.js';

/** One attempt of one touch, for an enrollment's timeline. */
export type TouchRow = {
  step: number;
  attempt: number;
  status: string;
  idempotencyKey: string;
  providerMessageId: string | null;
  variant: number | null;
  error: string | null;
  createdAt: Date;
  sentAt: Date | null;
};

/**
 * Touch rows and the enrollment updates that go with them; the sender's hot path.
 * One object for the sender and the API, made of three parts that each own their
 * statements: {@link SendContextRepository} (the read before a touch),
 * {@link TouchClaimRepository} (the fence and the touch row) and
 * {@link TouchProgressRepository} (what becomes of the touch and its enrollment).
 * Its own statements are the touch reads for the timeline and the stats.
 */
export class TouchRepository {
  private readonly context: SendContextRepository;
  private readonly claims: TouchClaimRepository;
  private readonly progress: TouchProgressRepository;

  constructor(private readonly pool: pg.Pool) {
    this.context = new SendContextRepository(pool);
    this.claims = new TouchClaimRepository(pool);
    this.progress = new TouchProgressRepository(pool);
  }

  /** {@inheritDoc SendContextRepository.loadForSend} */
  loadForSend(enrollmentId: string): Promise<SendContext | null> {
    return this.context.loadForSend(enrollmentId);
  }

  /** {@inheritDoc SendContextRepository.loadManyForSend} */
  loadManyForSend(enrollmentIds: string[]): Promise<Map<string, SendContext>> {
    return this.context.loadManyForSend(enrollmentIds);
  }

  /** {@inheritDoc SendContextRepository.poolCandidates} */
  poolCandidates(poolId: string, prospectId: string): Promise<SendMailbox[]> {
    return this.context.poolCandidates(poolId, prospectId);
  }

  /** {@inheritDoc TouchClaimRepository.claim} */
  claim(
    enrollmentId: string,
    step: number,
    idempotencyKey: string,
    email: string,
    variant = 0,
    attempt = 1,
  ): Promise<Claim> {
    return this.claims.claim(enrollmentId, step, idempotencyKey, email, variant, attempt);
  }

  /** {@inheritDoc TouchClaimRepository.claimMany} */
  claimMany(inputs: ClaimInput[]): Promise<Claim[]> {
    return this.claims.claimMany(inputs);
  }

  /** {@inheritDoc TouchClaimRepository.statusOf} */
  statusOf(enrollmentId: string, step: number, attempt = 1): Promise<string | null> {
    return this.claims.statusOf(enrollmentId, step, attempt);
  }

  /** {@inheritDoc TouchProgressRepository.recordSentAttempts} */
  recordSentAttempts(inputs: SentInput[]): Promise<(number | null)[]> {
    return this.progress.recordSentAttempts(inputs);
  }

  /** {@inheritDoc TouchProgressRepository.recordSent} */
  recordSent(input: SentInput): Promise<boolean> {
    return this.progress.recordSent(input);
  }

  /** {@inheritDoc TouchProgressRepository.recordSentMany} */
  recordSentMany(inputs: SentInput[]): Promise<boolean[]> {
    return this.progress.recordSentMany(inputs);
  }

  /** {@inheritDoc TouchProgressRepository.noLongerCurrent} */
  noLongerCurrent(
    touches: { enrollmentId: string; step: number; attempt?: number }[],
  ): Promise<{ enrollmentId: string; step: number; attempt: number }[]> {
    return this.progress.noLongerCurrent(touches);
  }

  /** {@inheritDoc TouchProgressRepository.settleInDoubt} */
  settleInDoubt(
    enrollmentId: string,
    step: number,
    attempt: number,
    outcome: { status: 'sent'; messageId: string } | { status: 'unknown' },
  ): Promise<boolean> {
    return this.progress.settleInDoubt(enrollmentId, step, attempt, outcome);
  }

  /** {@inheritDoc TouchProgressRepository.cancel} */
  cancel(enrollmentId: string, step: number, reason: string, attempt = 1): Promise<void> {
    return this.progress.cancel(enrollmentId, step, reason, attempt);
  }

  /** {@inheritDoc TouchProgressRepository.release} */
  release(enrollmentId: string, step: number, attempt = 1): Promise<void> {
    return this.progress.release(enrollmentId, step, attempt);
  }

  /** {@inheritDoc TouchProgressRepository.fail} */
  fail(enrollmentId: string, step: number, reason: string, attempt = 1): Promise<void> {
    return this.progress.fail(enrollmentId, step, reason, attempt);
  }

  /** {@inheritDoc TouchProgressRepository.exhaust} */
  exhaust(enrollmentId: string, step: number): Promise<boolean> {
    return this.progress.exhaust(enrollmentId, step);
  }

  /** {@inheritDoc TouchProgressRepository.pause} */
  pause(enrollmentId: string, step: number, reason: string): Promise<boolean> {
    return this.progress.pause(enrollmentId, step, reason);
  }

  /** {@inheritDoc TouchProgressRepository.failNode} */
  failNode(input: Parameters<TouchProgressRepository['failNode']>[0]): Promise<number | null> {
    return this.progress.failNode(input);
  }

  /** {@inheritDoc TouchProgressRepository.assignMailbox} */
  assignMailbox(
    enrollmentId: string,
    mailboxId: string,
    step = 1,
    emailNodes: number[] | null = null,
  ): Promise<boolean> {
    return this.progress.assignMailbox(enrollmentId, mailboxId, step, emailNodes);
  }

  /**
   * Touches sent per step and A/B variant (0 = the step's own copy), for one sequence
   * or all. A step resent after a soft bounce counts once: this is how many
   * prospects the copy reached, not how many attempts it took.
   */
  async sentByStepAndVariant(
    sequenceId?: string,
  ): Promise<{ step: number; variant: number; sent: number }[]> {
    const { rows } = await this.pool.query<{ step: number; variant: number; sent: number }>(
      `SELECT t.step, COALESCE(t.variant, 0) AS variant, count(DISTINCT t.enrollment_id)::int AS sent
       FROM touch t JOIN enrollment e ON e.id = t.enrollment_id
       WHERE t.status = 'sent' AND ($1::uuid IS NULL OR e.sequence_id = $1)
       GROUP BY t.step, COALESCE(t.variant, 0) ORDER BY t.step, variant`,
      [sequenceId ?? null],
    );
    return rows;
  }

  /** Touches per enrollment, for the timeline. */
  async forEnrollment(enrollmentId: string): Promise<TouchRow[]> {
    const { rows } = await this.pool.query<TouchRow>(
      `SELECT step, attempt, status, idempotency_key AS "idempotencyKey", provider_message_id AS "providerMessageId",
              variant, error, created_at AS "createdAt", sent_at AS "sentAt"
       FROM touch WHERE enrollment_id = $1 ORDER BY step, attempt`,
      [enrollmentId],
    );
    return rows;
  }
}

import type { MigrationCandidate, MigrationMove, RanNode, SendingWindow } from '@touchbase/core';

/** A stored migration with its progress (items per state). */
export type SequenceMigrationRow = {
  id: string;
  sequenceId: string;
  fromVersionId: string;
  toVersionId: string;
  mapping: Record<string, string>;
  filter: Record<string, unknown>;
  plan: Record<string, unknown>;
  fingerprint: string;
  status: 'planned' | 'applying' | 'completed';
  reason: string;
  plannedBy: string;
  appliedBy: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  progress: {
    total: number;
    pending: number;
    moved: number;
    skipped: number;
    deferrals: number;
    /** Skipped enrollments by reason (stopped meanwhile, moved on to a node whose mapping would act again, ...). */
    skippedBy: Record<string, number>;
  };
};

/** A migration's plan as stored: the migration row and its items (one per move). */
export type NewSequenceMigration = {
  id: string;
  sequenceId: string;
  fromVersionId: string;
  toVersionId: string;
  mapping: Record<string, string>;
  filter: Record<string, unknown>;
  plan: Record<string, unknown>;
  fingerprint: string;
  reason: string;
  plannedBy: string;
  moves: MigrationMove[];
};

/** One enrollment of a batch, locked: its state now, its timing inputs and its last touch. */
export type MigrationBatchRow = {
  enrollmentId: string;
  plannedFrom: number;
  plannedTo: number;
  status: string;
  versionId: string;
  node: number;
  attempt: number;
  nextTouchAt: Date | null;
  /** A touch of it is claimed and not settled (`sending`): it moves after it settles. */
  inFlight: boolean;
  /** The nodes its path ran (touch rows, its pending touch aside), each as (version it ran in, number there). */
  ran: RanNode[];
  /** Per node number, the highest attempt of its touch rows: a moved touch's key must be free. */
  attempts: Record<number, number>;
  lastRunAt: Date | null;
  /** The node the last touch ran (its version and number there), null for none. */
  lastRun: RanNode | null;
  prospectTimezone: string | null;
  /** The prospect's attributes: its country picks the do-not-contact rule, as the sender's timing does. */
  prospectAttributes: Record<string, unknown> | null;
  mailboxTimezone: string;
  mailbox: { windowDays: number[]; windowStart: string; windowEnd: string; holidays: string[] };
  sequenceWindow: SendingWindow | null;
};

/** What a batch decided for one enrollment. */
export type MigrationBatchDecision =
  | {
      enrollmentId: string;
      kind: 'move';
      toVersionId: string;
      toNode: number;
      /** 1 on a new node; kept on the same node number (a resend after a soft bounce keeps its key). */
      attempt: number;
      nextTouchAt: Date | null;
      /** The raw due time before the window (kept for a re-fit), null when the due time was kept as it was. */
      nextTouchUnfittedAt: Date | null;
    }
  | { enrollmentId: string; kind: 'skip'; reason: string }
  | { enrollmentId: string; kind: 'defer' };

/** Where migrations are kept (@touchbase/db's `SequenceMigrationRepository`). */
export interface MigrationStore {
  candidates(
    versionId: string,
    statuses: readonly string[],
    nodes: readonly number[] | null,
  ): Promise<MigrationCandidate[]>;
  createPlan(m: NewSequenceMigration): Promise<void>;
  get(id: string, sequenceId?: string): Promise<SequenceMigrationRow | null>;
  startApplying(id: string, appliedBy: string): Promise<boolean>;
  applying(): Promise<string[]>;
  completeIfDone(id: string): Promise<boolean>;
  runBatch(
    migrationId: string,
    size: number,
    decide: (rows: MigrationBatchRow[]) => Promise<MigrationBatchDecision[]>,
    audit: { actor: string; reason: string },
  ): Promise<MigrationBatchDecision[]>;
}

import type { DoNotContactTable } from '@touchbase/core';
import type { Repositories } from '@touchbase/db';
import type { LinkedInSender, ProviderRegistry, Throttle } from '@touchbase/providers';
import type { AlertQueue, TouchQueue } from '@touchbase/queues';
import type { Logger, Metrics } from '@touchbase/telemetry';
import type { TouchBatches } from '../processors/touch-batches.js';

export type SendTouchDeps = {
  repos: Pick<
    Repositories,
    'touches' | 'sequences' | 'mailboxes' | 'events' | 'contactPolicies' | 'linkedinAccounts'
  >;
  touchQueue: TouchQueue;
  providers: ProviderRegistry;
  logger: Logger;
  metrics: Metrics;
  clock: () => Date;
  timeScale: number;
  jitterMs?: number;
  /**
   * The per-mailbox token buckets, shared by every replica through Redis. Absent
   * only where caps are deliberately off (the benchmark's bare baseline).
   */
  throttle?: Throttle;
  /** The one-click unsubscribe link of an enrollment, for List-Unsubscribe. */
  unsubscribeUrl?: (enrollmentId: string) => string;
  /** How long a touch of a paused mailbox or domain waits before it looks again, in real ms. */
  holdMs?: number;
  /** Where a mailbox pause's alert goes for delivery (Slack, webhook, log) by domain-health's alert worker. */
  alertQueue?: Pick<AlertQueue, 'enqueue'>;
  /**
   * Whether to ask the provider, just before each send, what it knows of the
   * prospect (adapters that offer it); default true. Off, only our own fence holds.
   */
  recheck?: boolean;
  /** Bound on that question, real ms (default 2 s); past it the touch goes on. */
  recheckTimeoutMs?: number;
  /** Whether a hard bounce the provider reported queues a CRM update (a CRM is configured). */
  notifyCrm?: boolean;
  /**
   * Whether a reply the provider reported is applied with each sequence's reply actions
   * (INGEST_REPLY_ACTIONS, as ingest applies a webhook's): off, it ends every sequence.
   */
  replyActions?: boolean;
  /**
   * The LinkedIn senders by provider name (a LinkedIn account's `provider`:
   * `unipile`, `http`, `sandbox`). Without one for an account, its nodes are held.
   */
  linkedIn?: { senders: ReadonlyMap<string, LinkedInSender> };
  /** At most this many touches in flight share one load, claim and record statement (default 100). */
  batchSize?: number;
  /** Do-not-contact hours and days per recipient country (COMPLIANCE_DO_NOT_CONTACT), on top of every window. */
  doNotContact?: DoNotContactTable;
};

/** One touch to send: the job's enrollment, node (its `step` number) and attempt. */
export type TouchToSend = { enrollmentId: string; step: number; attempt: number };

/** What became of one `touch.send` job; the processor's return value (kept in tests and Bull Board). */
export type SendOutcome =
  | 'sent'
  | 'resent_in_doubt'
  | 'unknown'
  | 'fenced'
  | 'suppressed'
  | 'settled'
  | 'exhausted'
  | 'paused_missing_variable'
  | 'held'
  | 'failed'
  | 'recheck_stopped'
  | 'gone';

/** The sender's dependencies with what one processor shares between its jobs: the batches and the hold time. */
export type SenderContext = SendTouchDeps & { batches: TouchBatches; holdMs: number };

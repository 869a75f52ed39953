import type { DoNotContactTable } from '@touchbase/core';
import type { Logger } from '@touchbase/telemetry';
import type { EventStore } from './apply-event.ports.js';

/** A touch's job, by its key (`TouchQueue` of @touchbase/queues). */
type TouchJobKey = { enrollmentId: string; step: number; attempt?: number };

/** What applying an event needs: the store, the touch jobs, and how to apply. */
export type ApplyEventDeps = {
  events: EventStore;
  /** The touch jobs (@touchbase/queues' `TouchQueue`). */
  touchQueue: {
    cancel(keys: TouchJobKey[]): Promise<void>;
    schedule(touches: (TouchJobKey & { dueAt: Date })[]): Promise<void>;
  };
  logger: Logger;
  clock?: () => Date;
  /** TIME_SCALE: out-of-office pauses and resends are compressed like every wait (sandbox only). */
  timeScale?: number;
  /** COMPLIANCE_DO_NOT_CONTACT: the recipient country's hours, kept by the touches an event places (an edge's next node, a resend). */
  doNotContact?: DoNotContactTable | undefined;
  /** Whether hard bounces queue a CRM update (a CRM is configured). */
  notifyCrm?: boolean;
  /** Called after a commit that queued a CRM update, to deliver it now rather than at the next sweep. */
  onCrmQueued?: () => void;
  /** How long to wait, before acknowledging a stop, for touches already being handed to the provider. */
  fenceWaitMs?: number;
  /** Back-off before the first resend of a soft-bounced touch, in real ms before TIME_SCALE (default one day). */
  softBounceRetryMs?: number;
  /** Whether replies act on the person's colleagues (company-level stop, INGEST_COMPANY_STOP); off unless turned on. */
  companyStops?: boolean;
  /** Whether each sequence's reply actions apply (INGEST_REPLY_ACTIONS); off unless turned on. */
  replyActions?: boolean;
  /** The alert queue (@touchbase/queues' `AlertQueue`): a positive reply's notification is delivered through it. */
  alertQueue?: { enqueue(alertIds: string[]): Promise<void> };
  /** The reactivation jobs (@touchbase/queues' `ReactivationQueue`); without it the reconciler adds them. */
  reactivationQueue?: {
    schedule(items: { id: string; dueAt: Date }[], nowMs?: number): Promise<void>;
    cancel(ids: string[]): Promise<void>;
  };
};

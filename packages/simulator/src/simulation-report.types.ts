import type { ContactHoldReason } from '@touchbase/core';
import type { DelayFigures } from './delay-figures.js';
import type { LinkedInCounts, LinkedInReport } from './linkedin-report.js';
import type { Refusals } from './prospects.js';

/** Sends of one UTC day. */
export type DayRow = {
  date: string;
  total: number;
  byMailbox: Record<string, number>;
  byChannel: Record<string, number>;
  /** LinkedIn actions per kind (invitations, messages, profile visits), when the sequence has any. */
  byLinkedInAction?: LinkedInCounts;
  /** LinkedIn actions per account, when the sequence has any. */
  byLinkedInAccount?: Record<string, number>;
};

/** One node's projected funnel (as `/v1/stats` `byNode` counts it: reached, done, failed, replied after it). */
export type FunnelRow = {
  node: string;
  action: string;
  channel: string;
  /** Enrollments whose touch at this node was made (done or failed). */
  reached: number;
  sent: number;
  /** LinkedIn actions that failed for good here (the walk went on by the failure edge). */
  failed: number;
  replied: number;
  bounced: number;
  outOfOffice: number;
  opened: number;
  clicked: number;
  accepted: number;
  /** Events after this node's touch that took one of its edges (opened, clicked, accepted). */
  edgesTaken: number;
  /** Enrollments whose touch at this node had not gone out by the horizon. */
  notYetSent: number;
};

/** One sending domain under the bounce guard. */
export type DomainRow = {
  domain: string;
  sends: number;
  bounces: number;
  bounceRate: number;
  /** The UTC day the guard would first warn (its warning level), null if never. */
  warnsOn: string | null;
  /** The UTC day the rolling bounce rate would pass the threshold (the guard pauses the domain), null if never. */
  crossesOn: string | null;
  crossesOnDay: number | null;
};

/** A run reduced to figures (the base run, or a what-if). */
export type RunSummary = {
  sends: number;
  /** When the last touch goes out (ISO), null when none did. */
  lastTouchAt: string | null;
  /** Days from the start to the last touch, one decimal. */
  lastTouchDay: number | null;
  /** Every enrollment ended within the horizon. */
  finished: boolean;
  /** Enrollments still waiting for a touch at the horizon. */
  unfinished: number;
};

/** The answer of a dry run. */
export type SimulationReport = {
  input: {
    seed: number;
    start: string;
    horizonDays: number;
    prospects: number;
    steps: number;
    mailboxes: { id: string; domain: string; perDay: number; perHour: number; perMinute: number }[];
    assignment: string;
  };
  summary: RunSummary & {
    enrolled: number;
    /** People of the input that enrolling refuses (listed twice, live here, or held elsewhere by exclusivity). */
    refused: Refusals;
    replied: number;
    bounced: number;
    exhausted: number;
  };
  days: DayRow[];
  /** The sum of the mailboxes' daily caps (the caps line of the picture). */
  dailyCap: number;
  /** Sends over the daily caps of the days that had any send: how much of the caps the run used. */
  capUse: number;
  mailboxes: { id: string; sends: number; busiestDay: number; perDay: number }[];
  /**
   * Delays by cause; `byCaps` is the mailboxes' caps (e-mails), a LinkedIn account's are under `linkedin`;
   * `byContactPolicy` the sequence's contact policies, with the holds by policy.
   */
  delays: {
    touches: number;
    byWindow: DelayFigures;
    byCaps: DelayFigures;
    byContactPolicy: DelayFigures & { holds: Record<ContactHoldReason, number> };
  };
  /** The LinkedIn accounts under their caps, when the sequence has LinkedIn actions. */
  linkedin?: LinkedInReport;
  funnel: FunnelRow[];
  domains: DomainRow[];
  binding: {
    constraint: 'caps' | 'linkedin_caps' | 'contact_policy' | 'windows' | 'waits' | 'bounce_guard';
    message: string;
    whatIf: {
      extraMailboxes: number;
      lastTouchAt: string | null;
      finished: boolean;
      daysSooner: number | null;
    }[];
    /** Re-runs with more LinkedIn accounts (when the sequence has LinkedIn actions and their caps bind). */
    linkedinWhatIf?: {
      extraAccounts: number;
      lastTouchAt: string | null;
      finished: boolean;
      daysSooner: number | null;
    }[];
  };
};

/** Re-runs' summaries: with more mailboxes, and with more LinkedIn accounts. */
export type WhatIfRuns = {
  mailboxes: { extraMailboxes: number; run: RunSummary }[];
  linkedin: { extraAccounts: number; run: RunSummary }[];
};

import type { HealthCounts, SendingWindow } from '@touchbase/core';
import type pg from 'pg';

/**
 * Counts over a span of days, as the rollup keeps them: core's `HealthCounts`, the
 * figures its domain-health rules judge (bounces are hard bounces).
 */
export type DomainCounts = HealthCounts;

/** One domain's state and its counts over the window, as a tick reads them. */
export type DomainWindow = {
  id: string;
  domain: string;
  status: 'active' | 'paused';
  pauseKind: string | null;
  healthLevel: 'ok' | 'approaching' | 'over';
  healthySince: Date | null;
  /** Since when its completion rate is below the floor, or null. */
  completionLowSince: Date | null;
  /** Counts since the domain was last resumed (or the whole window): what the guard judges. */
  counted: DomainCounts;
  /** Days the counted figures span (fewer than the window shortly after a resume). */
  countedDays: number;
  /** Counts over the whole window whatever the resumes: what the account-wide guard adds up. */
  window: DomainCounts;
};

/** An alert to record with a change of state, in the same transaction. */
export type NewAlert = { kind: string; domainId: string | null; message: string; data: object };

/** A held enrollment on its way back: its mailbox's sending window decides when it starts. */
export type HeldEnrollment = {
  id: string;
  mailboxId: string;
  /** The mailbox's zone; the prospect's own, when it has one, is `prospectTimezone`. */
  timezone: string;
  prospectTimezone: string | null;
  /** The prospect's attributes: its `country` picks the do-not-contact rule. */
  prospectAttributes: Record<string, unknown> | null;
  windowDays: number[];
  windowStart: string;
  windowEnd: string;
  holidays: string[];
  /** The sequence's own window, which overrides the mailbox's. */
  sequenceWindow: SendingWindow | null;
};

/** A client or the pool: a statement that may run inside the caller's transaction. */
export type Db = pg.Pool | pg.PoolClient;

/** The rollup's counters, in the order of its columns. */
export const COUNT_KEYS = ['sends', 'bounces', 'complaints', 'replies', 'ended', 'completed'] as const;
export type CountKey = (typeof COUNT_KEYS)[number];
export const ZERO: DomainCounts = { sends: 0, bounces: 0, complaints: 0, replies: 0, ended: 0, completed: 0 };

export const DOMAIN_COLUMNS = `d.id, d.domain, d.status::text AS status, d.reason, d.status_since AS "statusSince",
  d.paused_by AS "pausedBy", d.pause_kind AS "pauseKind", d.hold_touches AS "holdTouches",
  d.health_level AS "healthLevel", d.healthy_since AS "healthySince", d.figures, d.checked_at AS "checkedAt",
  d.counted_from::text AS "countedFrom"`;

/** A sending domain as {@link DOMAIN_COLUMNS} reads it, with its number of mailboxes. */
export type SendingDomainRow = {
  id: string;
  domain: string;
  status: 'active' | 'paused';
  reason: string | null;
  statusSince: Date | null;
  pausedBy: string | null;
  pauseKind: string | null;
  holdTouches: boolean;
  healthLevel: 'ok' | 'approaching' | 'over';
  healthySince: Date | null;
  /** The figures of the last tick. */
  figures: Record<string, unknown> | null;
  checkedAt: Date | null;
  /** The day a resume started counting afresh. */
  countedFrom: string | null;
  mailboxes: number;
};

/** One UTC day of the rollup. */
export type DomainDayRow = DomainCounts & { day: string };

/** One domain with the enrollments held until it resumes and the rollup days of the window. */
export type SendingDomainDetail = SendingDomainRow & { heldEnrollments: number; days: DomainDayRow[] };

/** The account-wide guard's state. */
export type AccountHealth = {
  level: 'ok' | 'approaching' | 'over';
  figures: Record<string, number>;
  settings: Record<string, unknown>;
  checkedAt: Date | null;
};

export const DAY = 86_400_000;
export const dayOf = (d: Date) => d.toISOString().slice(0, 10);

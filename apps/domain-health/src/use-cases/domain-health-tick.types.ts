import type { DoNotContactTable, HealthBand, HealthFigures, HealthSettings } from '@touchbase/core';
import type { DomainHealthRepository, Repositories } from '@touchbase/db';
import type { AlertQueue, TouchQueue } from '@touchbase/queues';
import type { Logger, Metrics } from '@touchbase/telemetry';

/** What a tick needs: repositories, queues for the after-commit steps, telemetry, settings and the clock. */
export type DomainHealthDeps = {
  repos: Pick<Repositories, 'sendingDomains' | 'domainHealth' | 'alerts'>;
  /** Schedules the enrollments an automatic resume released. */
  touchQueue: TouchQueue;
  alertQueue: AlertQueue;
  /** The configured alert channels, for the failing-deliveries gauge. */
  channelNames: string[];
  logger: Logger;
  metrics: Metrics;
  settings: HealthSettings;
  /** Whether a pause holds the touches of running sequences too. */
  holdInFlight: boolean;
  /** Run the guard over every domain together as well. */
  accountGuard: boolean;
  /** Cooling-off before a pause by the guard ends by itself; 0 never. */
  autoResumeAfterMs: number;
  timeScale: number;
  /** COMPLIANCE_DO_NOT_CONTACT: a resumed domain's held first touches obey the recipient country's hours. */
  doNotContact?: DoNotContactTable;
  clock: () => Date;
};

/** One domain's figures after a tick. */
export type DomainFigures = HealthFigures & {
  domainId: string;
  domain: string;
  status: string;
  level: HealthBand;
};

/** What a tick did; the job's return value (kept for the manual run's answer and Bull Board). */
export type TickResult = {
  checked: number;
  /** Rollup increments folded into the per-day rows. */
  folded: number;
  paused: string[];
  resumed: string[];
  approached: string[];
  account: { level: HealthBand; sends: number; bounces: number; bounceRate: number; complaintRate: number };
  alerts: number;
  releasedEnrollments: number;
  durationMs: number;
};

/** The guard's actor in the audit log and on the domains it pauses. */
export const GUARD_ACTOR = 'domain-health';

/** What one tick shares with the steps that judge each domain and the account, inside its transaction. */
export type TickContext = {
  deps: DomainHealthDeps;
  now: Date;
  /** The thresholds every alert carries. */
  thresholds: Record<string, number>;
  result: TickResult;
  /** Records an alert raised in the transaction, to enqueue after the commit. */
  raised(alertId: string, kind: string): void;
};

/** The transaction a tick runs in (under the guard's advisory lock). */
export type GuardClient = Parameters<Parameters<DomainHealthRepository['underGuardLock']>[0]>[0];

import type { DoNotContactTable } from '@touchbase/core';
import type { ReadRepositories, Repositories } from '@touchbase/db';
import type { AlertQueue, DomainHealthQueue, TouchQueue } from '@touchbase/queues';
import type { Logger } from '@touchbase/telemetry';
import type { MigrateEnrollmentsDeps } from '@touchbase/use-cases';
import type { EnrollDeps } from './use-cases/enroll-prospects.js';

/**
 * What every route plugin of the API is given. Apart from app.ts, which registers
 * the routes, so that a route importing it makes no import cycle.
 */
export type ApiDeps = {
  /** The primary: every write, and every read of a route that changes something. */
  repos: Repositories;
  /**
   * Lists, stats, funnels and waiting reasons: the replica when DATABASE_REPLICA_URL
   * is set (the runtime decides), else the same primary. It may lag by the replica's
   * replay delay, so a route that writes never reads here.
   */
  reads: ReadRepositories;
  touchQueue: TouchQueue;
  /** Manual runs of the domain guard, and their results. */
  domainHealthQueue: DomainHealthQueue;
  /** Deliveries of the alerts an operator's pause or resume raises. */
  alertQueue: AlertQueue;
  enroll: EnrollDeps;
  /** Do-not-contact hours and days per recipient country (the waiting reasons say when they hold a touch). */
  doNotContact?: DoNotContactTable;
  /** Planning and applying version migrations (`/v1/sequences/:id/migrations`). */
  migrate: MigrateEnrollmentsDeps;
  providerNames: string[];
  /** For the use cases a route runs (a request's own logs go to `req.log`). */
  logger: Logger;
};

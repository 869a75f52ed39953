import type { DoNotContactTable, SequenceGraph } from '@touchbase/core';
import type { TouchQueue } from '@touchbase/queues';
import type { Logger } from '@touchbase/telemetry';
import type { MigrationStore } from './migrate-enrollments.ports.js';

/** A stored version as the use case reads it. */
type VersionRow = { id: string; version: number; graph: SequenceGraph };

/** What planning and applying a version migration need. */
export type MigrateEnrollmentsDeps = {
  repos: {
    sequences: {
      get(id: string): Promise<{ versions: { id: string; version: number }[] }>;
      version(id: string): Promise<VersionRow>;
    };
    sequenceMigrations: MigrationStore;
    audit: {
      write(entry: {
        actor: string;
        action: string;
        entityType: string;
        entityId: string;
        data?: object;
      }): Promise<void>;
    };
  };
  touchQueue: Pick<TouchQueue, 'schedule' | 'removeUnlessActive'>;
  logger: Logger;
  clock?: () => Date;
  /** TIME_SCALE: the new due times are compressed like every wait (sandbox only). */
  timeScale: number;
  /** SCHEDULER_JITTER_MS and COMPLIANCE_DO_NOT_CONTACT: the new due times are fitted as the sender fits them. */
  jitterMs?: number;
  doNotContact?: DoNotContactTable;
  /** Enrollments per batch (one transaction each); default 200. */
  batchSize?: number;
  /** How long to wait before trying again enrollments whose touch was in flight; default 250 ms. */
  deferWaitMs?: number;
};

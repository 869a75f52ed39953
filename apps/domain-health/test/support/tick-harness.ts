import type { HealthSettings } from '@touchbase/core';
import { createDatabase, createRepositories } from '@touchbase/db';
import { AlertQueue, createRedis, TouchQueue } from '@touchbase/queues';
import { createLogger, Metrics } from '@touchbase/telemetry';
import { createTestDatabase, createTestRedisPrefix } from '@touchbase/testing';
import { type DomainHealthDeps, domainHealthTick } from '../../src/use-cases/domain-health-tick.js';
import { seedSends } from './seed-sends.js';

const settings: HealthSettings = {
  bounceThreshold: 0.03,
  bounceWarnRatio: 0.8,
  minSends: 50,
  complaintAlert: 0.001,
  complaintPause: 0.003,
  complaintMinSends: 1000,
  windowDays: 7,
};
/** A silent logger for the tick and the workers. */
export const logger = createLogger({ name: 'test', level: 'silent' });

/** A database, Redis prefix and the tick's dependencies of one describe block. */
export async function openHarness(label: string) {
  const tdb = await createTestDatabase(label);
  const db = createDatabase(tdb.url);
  const repos = createRepositories(db);
  const prefix = await createTestRedisPrefix(label);
  const producer = createRedis(prefix.url, 'producer');
  const touchQueue = new TouchQueue(producer, prefix.prefix, logger);
  const alertQueue = new AlertQueue(producer, prefix.prefix, logger);
  const metrics = new Metrics({ defaultMetrics: false });
  const sequence = await repos.sequences.create({
    name: 'health',
    steps: [{ channel: 'email', subject: 'a', body: 'b', wait: '1d' }],
  });
  let n = 0;
  return {
    db,
    repos,
    prefix,
    producer,
    touchQueue,
    alertQueue,
    metrics,
    sequence,
    tick: (over: Partial<DomainHealthDeps> = {}) =>
      domainHealthTick({
        repos,
        touchQueue,
        alertQueue,
        channelNames: ['log'],
        logger,
        metrics,
        settings,
        holdInFlight: true,
        accountGuard: false,
        autoResumeAfterMs: 0,
        timeScale: 1,
        clock: () => new Date(),
        ...over,
      }),
    /** A mailbox on a domain of its own. */
    domain: async (name: string) => {
      const mailbox = await repos.mailboxes.create({
        provider: 'sandbox',
        address: `sdr@${name}`,
        windowDays: [],
      });
      return { mailboxId: mailbox.id, domainId: mailbox.domainId };
    },
    seed: (mailboxId: string, counts: { sends: number; bounces?: number; complaints?: number; at?: Date }) =>
      seedSends(db.pool, {
        tag: `${label}${n++}`,
        mailboxId,
        sequenceId: sequence.id,
        sequenceVersionId: sequence.version.id,
        ...counts,
      }),
    domainRow: async (id: string) =>
      (
        await db.pool.query(
          `SELECT status::text AS status, reason, pause_kind AS "pauseKind", paused_by AS "pausedBy",
                  health_level AS "healthLevel", figures FROM sending_domain WHERE id = $1`,
          [id],
        )
      ).rows[0],
    alertsOf: async (domainId: string | null) =>
      (
        await db.pool.query(
          `SELECT kind, message, data FROM alert WHERE domain_id IS NOT DISTINCT FROM $1 ORDER BY created_at`,
          [domainId],
        )
      ).rows,
    async close() {
      await alertQueue.close();
      await touchQueue.close();
      producer.disconnect();
      await prefix.cleanup();
      await db.close();
      await tdb.drop();
    },
  };
}
/** What `openHarness` opens. */
export type Harness = Awaited<ReturnType<typeof openHarness>>;

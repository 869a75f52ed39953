/**
 * A version migration's applier in a process of its own, so a test can SIGKILL it
 * midway: `migration-applier.child.ts <sequenceId> <planId>` applies the plan (or
 * resumes it when it is already applying) and runs it to the end, in small batches.
 * Reads DATABASE_URL, REDIS_URL, REDIS_PREFIX and TIME_SCALE like the services.
 */
import { createDatabase, createRepositories } from '@touchbase/db';
import { createRedis, TouchQueue } from '@touchbase/queues';
import { createLogger } from '@touchbase/telemetry';
import { applyVersionMigration, runMigration } from '@touchbase/use-cases';

const [sequenceId, planId] = process.argv.slice(2);
const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
if (!sequenceId || !planId) throw new Error('usage: migration-applier.child.ts <sequenceId> <planId>');

const logger = createLogger({ name: 'migration-applier', level: 'warn' });
const db = createDatabase(env('DATABASE_URL'));
const redis = createRedis(env('REDIS_URL'), 'producer');
const touchQueue = new TouchQueue(redis, env('REDIS_PREFIX'), logger);
const repos = createRepositories(db);
const deps = {
  repos,
  touchQueue,
  logger,
  timeScale: Number(env('TIME_SCALE')),
  batchSize: Number(process.env.MIGRATION_BATCH_SIZE ?? 10),
  deferWaitMs: 100,
};
await applyVersionMigration(deps, { sequenceId, planId, actor: 'migration-applier' });
await runMigration(deps, planId);
await touchQueue.close();
redis.disconnect();
await db.close();

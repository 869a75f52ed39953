import { createWorker, JOBS, QUEUE } from '@touchbase/queues';
import { Queue, type Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { type DomainHealthDeps, domainHealthTick } from './processors/domain-health.processor.js';

/**
 * Builds domain-health: a BullMQ job scheduler ticks every `everyMs`; the fixed
 * scheduler id makes it one run per tick across all replicas.
 */
export async function buildDomainHealth(
  deps: DomainHealthDeps & { connection: Redis; producer: Redis; prefix: string; everyMs: number },
): Promise<{ worker: Worker; queue: Queue }> {
  const queue = new Queue(QUEUE.domainHealth, { connection: deps.producer, prefix: deps.prefix });
  await queue.upsertJobScheduler(
    'domain-health',
    { every: deps.everyMs },
    { name: 'domain-health.tick', data: {}, opts: JOBS['domain-health.tick'].options },
  );
  const worker = createWorker('domain-health.tick', async () => (await domainHealthTick(deps)).length, {
    connection: deps.connection,
    prefix: deps.prefix,
    concurrency: 1,
  });
  worker.on('error', (err) => deps.logger.error({ err: err.message }, 'Domain health worker error'));
  return { worker, queue };
}

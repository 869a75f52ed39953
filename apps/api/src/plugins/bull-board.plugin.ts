import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { Queue } from 'bullmq';
import type { FastifyPluginAsync } from 'fastify';

/**
 * Bull Board at `/admin/queues`. It has no authentication of its own: it is
 * registered inside the guarded scope, with the admin scope (it can retry, promote
 * and delete jobs, past every rule of the sender).
 */
export const bullBoardPlugin: FastifyPluginAsync<{ queues: Queue[] }> = async (app, opts) => {
  const serverAdapter = new FastifyAdapter();
  // The partitions of `touches` (TOUCH_QUEUE_PARTITIONS) share a name: each is shown as its own.
  const named = new Map<string, number>();
  for (const q of opts.queues) named.set(q.name, (named.get(q.name) ?? 0) + 1);
  const seen = new Map<string, number>();
  const adapters = opts.queues.map((q) => {
    if (named.get(q.name) === 1) return new BullMQAdapter(q);
    const i = seen.get(q.name) ?? 0;
    seen.set(q.name, i + 1);
    return new BullMQAdapter(q, { prefix: `p${i}-`, displayName: `${q.name} (partition ${i})` });
  });
  createBullBoard({ queues: adapters, serverAdapter });
  serverAdapter.setBasePath('/admin/queues');
  await app.register(serverAdapter.registerPlugin(), { prefix: '/admin/queues' });
};

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
  createBullBoard({ queues: opts.queues.map((q) => new BullMQAdapter(q)), serverAdapter });
  serverAdapter.setBasePath('/admin/queues');
  await app.register(serverAdapter.registerPlugin(), { prefix: '/admin/queues' });
};

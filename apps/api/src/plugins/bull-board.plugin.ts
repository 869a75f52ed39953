import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';

/** Bull Board at `/admin/queues`, behind the same token as the API. */
export async function registerBullBoard(app: FastifyInstance, queues: Queue[]): Promise<void> {
  const serverAdapter = new FastifyAdapter();
  createBullBoard({ queues: queues.map((q) => new BullMQAdapter(q)), serverAdapter });
  serverAdapter.setBasePath('/admin/queues');
  await app.register(serverAdapter.registerPlugin(), { prefix: '/admin/queues' });
}

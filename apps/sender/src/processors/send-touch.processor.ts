import type { TouchSend } from '@touchbase/queues';
import type { Job } from 'bullmq';
import type { SendOutcome, SendTouchDeps } from '../use-cases/send-touch.types.js';
import { sendTouch } from '../use-cases/send-touch.usecase.js';
import { TouchBatches } from './touch-batches.js';

export type { SendOutcome, SendTouchDeps } from '../use-cases/send-touch.types.js';

/**
 * The `touch.send` processor: reads the job's enrollment, step and attempt and
 * calls the send-touch use case. The touches in flight of one processor share
 * their load, claim and record statements (`TouchBatches`).
 */
export function createSendTouchProcessor(deps: SendTouchDeps) {
  const holdMs = deps.holdMs ?? 60_000 / Math.max(1, deps.timeScale / 60);
  const batches = new TouchBatches(deps.repos.touches, deps.touchQueue, deps.metrics, deps.batchSize);
  const sc = { ...deps, batches, holdMs };
  return function sendTouchJob(payload: TouchSend, job: Job): Promise<SendOutcome> {
    return sendTouch(sc, { enrollmentId: payload.e, step: payload.s, attempt: payload.a ?? 1 }, job);
  };
}

import { type RetimeResult, type RetimeScope, retimePendingTouches } from '@touchbase/use-cases';
import { z } from 'zod';
import type { ApiDeps } from '../api-deps.js';

/**
 * Re-times the pending touches of a mailbox or a sequence after a settings change (see
 * `retimePendingTouches`), then audits what it did on that mailbox or sequence
 * (`mailbox.touches_retimed`, `sequence.touches_retimed`), naming the change that caused it.
 */
export async function retimePending(
  deps: ApiDeps,
  scope: RetimeScope,
  audit: { actor: string; cause: 'window' | 'caps' },
): Promise<RetimeResult> {
  const retime = await retimePendingTouches(
    {
      pending: deps.repos.pendingTouches,
      jobs: deps.touchQueue,
      timeScale: deps.enroll.timeScale,
      ...(deps.enroll.jitterMs ? { jitterMs: deps.enroll.jitterMs } : {}),
      ...(deps.doNotContact ? { doNotContact: deps.doNotContact } : {}),
      logger: deps.logger,
    },
    scope,
  );
  const [entityType, entityId] =
    'mailboxId' in scope ? ['mailbox', scope.mailboxId] : ['sequence', scope.sequenceId];
  await deps.repos.audit.write({
    actor: audit.actor,
    action: `${entityType}.touches_retimed`,
    entityType,
    entityId,
    data: { cause: audit.cause, ...retime },
  });
  return retime;
}

/** The `retime` member of a settings change's answer. */
export const RetimeResultSchema = z
  .object({
    checked: z.number().int().describe('Pending touches looked at (active, not in flight)'),
    retimed: z.number().int().describe('Pending touches re-timed: their due time or their job moved'),
    dueMoved: z
      .number()
      .int()
      .describe('Due times moved, forward or back, re-fitted from the unfitted due time'),
    jobsMoved: z.number().int().describe('Delayed jobs moved to their due time'),
    notRefittable: z
      .number()
      .int()
      .describe(
        'Pending touches left as they are: their due time comes from a hold or a resume, not a window',
      ),
  })
  .describe('What the change did to the pending touches, now rather than at their next attempt');

import type { ProviderAdapter, SendRequest } from '@touchbase/providers';
import type { LogCalls } from '@touchbase/telemetry';
import { applyEvent } from '@touchbase/use-cases';
import { type RecheckStop, recheckEvent } from './prospect-recheck.js';
import type { SenderContext, SendOutcome } from './send-touch.types.js';

/**
 * The provider saw a reply, bounce or unsubscribe that has not reached us (or not
 * yet): the touch is not sent, and the answer is recorded as an event from
 * `{provider}-recheck` and applied exactly like a webhook, by the same use case
 * (every sequence of the prospect ends, bounces and unsubscribes suppress, pending
 * jobs go, touches other senders are handing over are waited for), so the
 * timeline says why. A reply follows each sequence's reply actions as ingest's do
 * (`replyActions`): when this enrollment's sequence goes on after it (core's
 * `replyDecisionOf`, its continue-on list), it was neither stopped nor moved, and
 * the touch goes on (null); the claim still fences it if anything ended it meanwhile.
 */
export async function stopOnProviderView(
  sc: SenderContext,
  provider: ProviderAdapter,
  seen: RecheckStop,
  request: SendRequest,
  attempt: number,
  log: LogCalls,
): Promise<SendOutcome | null> {
  const result = await applyEvent(
    {
      events: sc.repos.events,
      touchQueue: sc.touchQueue,
      logger: sc.logger,
      clock: sc.clock,
      timeScale: sc.timeScale,
      doNotContact: sc.doNotContact,
      notifyCrm: sc.notifyCrm ?? false,
      replyActions: sc.replyActions ?? false,
      ...(sc.alertQueue ? { alertQueue: sc.alertQueue } : {}),
    },
    recheckEvent(provider.name, seen, request, attempt, sc.clock()),
  );
  const { enrollmentId } = request.metadata;
  const goesOn =
    seen === 'replied' &&
    !result.stopped.some((s) => s.id === enrollmentId) &&
    !result.moved.some((m) => m.id === enrollmentId);
  if (goesOn) {
    log.info(
      { provider: provider.name, eventId: result.eventId, outcome: result.outcome },
      'The provider saw a reply the sequence goes on after; sending',
    );
    return null;
  }
  sc.metrics.touchesSkipped.inc({ reason: `recheck_${seen}` });
  log.info(
    { provider: provider.name, providerStatus: seen, eventId: result.eventId, outcome: result.outcome },
    'Touch not sent: the provider saw the prospect answer first',
  );
  return 'recheck_stopped';
}

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
 * timeline says why.
 */
export async function stopOnProviderView(
  sc: SenderContext,
  provider: ProviderAdapter,
  seen: RecheckStop,
  request: SendRequest,
  attempt: number,
  log: LogCalls,
): Promise<SendOutcome> {
  const result = await applyEvent(
    {
      events: sc.repos.events,
      touchQueue: sc.touchQueue,
      logger: sc.logger,
      clock: sc.clock,
      timeScale: sc.timeScale,
      notifyCrm: sc.notifyCrm ?? false,
    },
    recheckEvent(provider.name, seen, request, attempt, sc.clock()),
  );
  sc.metrics.touchesSkipped.inc({ reason: `recheck_${seen}` });
  log.info(
    { provider: provider.name, providerStatus: seen, eventId: result.eventId, outcome: result.outcome },
    'Touch not sent: the provider saw the prospect answer first',
  );
  return 'recheck_stopped';
}

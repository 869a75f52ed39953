import { type CanonicalEvent, providerReplyStops } from '@touchbase/core';
import type { ProspectStatus, ProviderAdapter, SendRequest } from '@touchbase/providers';
import type { LogCalls } from '@touchbase/telemetry';

/** A provider's answer that stops the touch. */
export type RecheckStop = Extract<ProspectStatus, 'replied' | 'bounced' | 'unsubscribed'>;

/**
 * Asks the provider what it knows of the prospect, within `timeoutMs` whatever the
 * adapter does: a slow or failing provider answers `unknown` and the send goes on
 * (our own reply fence still holds). Providers without the lookup answer `unknown`.
 */
export async function askProvider(
  provider: ProviderAdapter,
  request: SendRequest,
  timeoutMs: number,
  log: LogCalls,
): Promise<ProspectStatus> {
  if (!provider.prospectStatus) return 'unknown';
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<ProspectStatus>((resolve) => {
    timer = setTimeout(() => resolve('unknown'), timeoutMs);
  });
  try {
    return await Promise.race([provider.prospectStatus(request, { timeoutMs }), bound]);
  } catch (err) {
    log.warn({ provider: provider.name, err: (err as Error).message }, 'Prospect re-check failed; sending');
    return 'unknown';
  } finally {
    clearTimeout(timer);
  }
}

/** Whether the provider's answer stops the touch. */
export function stopsTheTouch(status: ProspectStatus): status is RecheckStop {
  return status === 'replied' || status === 'bounced' || status === 'unsubscribed';
}

/**
 * Whether the provider's stopping answer stops this touch: a bounce or an unsubscribe
 * always; a reply unless we recorded it already and it took a `replied` edge (this
 * touch is on that edge's track) or the sequence goes on after its class (core's
 * `providerReplyStops`).
 */
export async function providerViewStops(
  sc: {
    repos: {
      sequences: { policies(id: string): Promise<unknown> };
      events: { lastReply(id: string): Promise<{ replyClass: string; tookRepliedEdge: boolean } | null> };
    };
  },
  sequenceId: string,
  prospectId: string,
  seen: RecheckStop,
): Promise<boolean> {
  if (seen !== 'replied') return true;
  const [policies, last] = await Promise.all([
    sc.repos.sequences.policies(sequenceId),
    sc.repos.events.lastReply(prospectId),
  ]);
  return providerReplyStops(policies, last?.replyClass ?? null, last?.tookRepliedEdge ?? false);
}

/**
 * The canonical event a stopping answer is recorded as, from source
 * `{provider}-recheck`, once per touch attempt (its idempotency key is the external
 * id), so the timeline shows why the sequence ended. A bounce the provider saw is
 * taken as hard: it stopped its own sends to the address.
 */
export function recheckEvent(
  providerName: string,
  status: RecheckStop,
  request: SendRequest,
  attempt: number,
  now: Date,
): CanonicalEvent {
  const { enrollmentId, step } = request.metadata;
  const common = {
    source: `${providerName}-recheck`,
    externalId: request.idempotencyKey,
    occurredAt: now,
    email: request.to,
    enrollmentId,
    channel: 'email' as const,
    data: { step, attempt, providerStatus: status },
  };
  if (status === 'replied') return { ...common, type: 'reply', inReply: true };
  if (status === 'bounced')
    return {
      ...common,
      type: 'bounce',
      bounce: { hard: true, reason: 'reported by the provider before a send' },
    };
  return { ...common, type: 'unsubscribe' };
}

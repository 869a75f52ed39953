import type { CanonicalEvent } from '@touchbase/core';
import { CrmLookupUnavailableError, type DealContactsResult } from '@touchbase/providers';
import type { Logger } from '@touchbase/telemetry';

/** Asks the CRM which contacts (their record ids) a deal has. */
export type DealContactsLookup = (dealId: string) => Promise<DealContactsResult>;

const DEAL_TYPES = new Set<CanonicalEvent['type']>(['crm.deal_won', 'crm.deal_lost']);

/**
 * HubSpot's deal webhooks name the deal, while sequences belong to contacts: a deal
 * won or lost becomes one event per contact on the deal, each naming its contact by
 * record id (as HubSpot's contact webhooks do) and recorded under
 * `{eventId}:contact:{contactId}`, so a redelivery records nothing new. With no CRM
 * to ask, a deal without contacts, or a CRM that refuses the question for good (a
 * token without the deals scope), the event stays as it came and changes nothing;
 * the last is logged. A CRM that is down or rate-limiting throws
 * {@link CrmLookupUnavailableError} before anything is recorded.
 */
export async function expandDealEvents(
  events: CanonicalEvent[],
  lookup: DealContactsLookup | undefined,
  logger: Logger,
): Promise<CanonicalEvent[]> {
  if (!lookup || !events.some(isHubspotDeal)) return events;
  // HubSpot sends up to 100 events a request and wants its answer within seconds: each
  // deal is asked about once, a few at a time.
  const dealIds = [...new Set(events.filter(isHubspotDeal).map((e) => e.crmId!))];
  const found = new Map<string, DealContactsResult>();
  for (let i = 0; i < dealIds.length; i += LOOKUPS_AT_ONCE) {
    const some = dealIds.slice(i, i + LOOKUPS_AT_ONCE);
    const answers = await Promise.all(some.map(async (id) => [id, await lookup(id)] as const));
    for (const [id, answer] of answers) found.set(id, answer);
  }
  const out: CanonicalEvent[] = [];
  for (const event of events) {
    if (!isHubspotDeal(event)) {
      out.push(event);
      continue;
    }
    const dealId = event.crmId!;
    const answer = found.get(dealId)!;
    if (answer.kind === 'retry') throw new CrmLookupUnavailableError(answer.error, answer.retryAfterMs);
    if (answer.kind === 'permanent') {
      logger.warn({ eventId: event.externalId, dealId, err: answer.error }, 'Deal contacts lookup refused');
      out.push(event);
      continue;
    }
    if (answer.contactIds.length === 0) {
      out.push(event);
      continue;
    }
    for (const contactId of new Set(answer.contactIds)) {
      out.push({
        ...event,
        externalId: `${event.externalId}:contact:${contactId}`,
        crmId: contactId,
        data: { ...event.data, dealId },
      });
    }
  }
  return out;
}

/** Deals asked about at once (the HubSpot adapter keeps 4 connections). */
const LOOKUPS_AT_ONCE = 4;

function isHubspotDeal(event: CanonicalEvent): boolean {
  return event.source === 'hubspot' && DEAL_TYPES.has(event.type) && event.crmId !== undefined;
}

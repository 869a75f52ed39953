import type { CanonicalEvent } from '@touchbase/core';
import { CrmLookupUnavailableError } from '@touchbase/providers';
import { createLogger } from '@touchbase/telemetry';
import { describe, expect, it } from 'vitest';
import { expandDealEvents } from '../src/use-cases/expand-deal-events.js';

const logger = createLogger({ name: 'test', level: 'silent' });
const deal = (over: Partial<CanonicalEvent> = {}): CanonicalEvent => ({
  source: 'hubspot',
  externalId: '9001',
  type: 'crm.deal_won',
  occurredAt: new Date('2026-11-22T10:00:00Z'),
  crmId: '777',
  channel: 'other',
  data: { subscriptionType: 'deal.propertyChange' },
  ...over,
});

describe('expandDealEvents', () => {
  it('makes a deal event one event per contact on the deal, each with its own external id', async () => {
    const out = await expandDealEvents(
      [deal()],
      async () => ({ kind: 'found', contactIds: ['1', '2', '1'] }),
      logger,
    );
    expect(out.map((e) => [e.externalId, e.crmId, e.data.dealId])).toEqual([
      ['9001:contact:1', '1', '777'],
      ['9001:contact:2', '2', '777'],
    ]);
  });

  it('asks about each deal once, however many of its events a delivery holds', async () => {
    const asked: string[] = [];
    const out = await expandDealEvents(
      [
        deal(),
        deal({ externalId: '9002', type: 'crm.deal_lost' }),
        deal({ externalId: '9003', crmId: '778' }),
      ],
      async (id) => {
        asked.push(id);
        return { kind: 'found', contactIds: [id === '777' ? '1' : '2'] };
      },
      logger,
    );
    expect(asked.sort()).toEqual(['777', '778']);
    expect(out.map((e) => e.externalId)).toEqual(['9001:contact:1', '9002:contact:1', '9003:contact:2']);
  });

  it('leaves other events, and every event when no CRM is configured, as they came', async () => {
    const reply = deal({ source: 'http', type: 'reply', crmId: undefined });
    const lookup = async () => {
      throw new Error('not asked');
    };
    expect(await expandDealEvents([reply, deal({ type: 'unsubscribe' })], lookup, logger)).toHaveLength(2);
    expect(await expandDealEvents([deal()], undefined, logger)).toEqual([deal()]);
  });

  it('keeps the deal event as it came when the deal has no contacts or the CRM refuses for good', async () => {
    expect(await expandDealEvents([deal()], async () => ({ kind: 'found', contactIds: [] }), logger)).toEqual(
      [deal()],
    );
    const refused = await expandDealEvents(
      [deal()],
      async () => ({ kind: 'permanent', error: 'hubspot answered 403 (deal contacts): missing scope' }),
      logger,
    );
    expect(refused).toEqual([deal()]);
  });

  it('throws, before anything is recorded, while the CRM is down or rate-limiting', async () => {
    const down = expandDealEvents(
      [deal()],
      async () => ({ kind: 'retry', error: 'hubspot answered 429', retryAfterMs: 10_000 }),
      logger,
    );
    await expect(down).rejects.toBeInstanceOf(CrmLookupUnavailableError);
    await expect(down).rejects.toMatchObject({ retryAfterMs: 10_000 });
  });
});

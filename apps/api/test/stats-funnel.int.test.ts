import { randomUUID } from 'node:crypto';
import { type CanonicalEvent, touchKey } from '@touchbase/core';
import { TouchQueue } from '@touchbase/queues';
import { createLogger } from '@touchbase/telemetry';
import { applyEvent } from '@touchbase/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiFixture, apiFixture } from './support/api-fixture.js';

const TOKEN = 'funnel-admin-token-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };

/**
 * A seeded campaign where every count is known: 10 prospects on two mailboxes (two
 * domains), step 1 in two A/B variants sent to 8, step 2 sent to 4; then deliveries,
 * opens, a click, two replies (one positive), a hard bounce, an unsubscribe and one
 * enrollment run out of steps, each applied as ingest applies it.
 */
describe('GET /v1/stats/funnel (real PostgreSQL)', () => {
  let f: ApiFixture;
  // The touch jobs an applied event cancels or schedules, on the fixture's Redis prefix.
  let touchQueue: TouchQueue;
  let seqId: string;
  let otherSeqId: string;
  const p: { id: string; prospectId: string; email: string; msg: Record<number, string> }[] = [];

  async function send(e: (typeof p)[number], step: number, variant: number) {
    const claim = await f.repos.touches.claim(e.id, step, touchKey(e.id, step), e.email, variant);
    expect(claim.kind).toBe('claimed');
    e.msg[step] = `msg-${randomUUID()}`;
    await f.repos.touches.recordSent({
      enrollmentId: e.id,
      step,
      messageId: e.msg[step]!,
      conversationId: `conv-${e.id}`,
      nextTouchAt: new Date(Date.now() + 86_400_000),
    });
  }
  let n = 0;
  async function event(partial: Partial<CanonicalEvent> & Pick<CanonicalEvent, 'type'>) {
    await applyEvent(
      {
        events: f.repos.events,
        touchQueue,
        logger: createLogger({ name: 't', level: 'silent' }),
      },
      {
        source: 'test',
        externalId: `ev-${++n}`,
        occurredAt: new Date(),
        channel: 'email',
        data: {},
        ...partial,
      },
    );
  }
  async function get(url: string) {
    const res = await f.app.inject({ url, headers: auth });
    expect(res.statusCode).toBe(200);
    return res.json() as Record<string, Record<string, unknown>[]>;
  }

  beforeAll(async () => {
    f = await apiFixture('api-funnel', { adminToken: TOKEN });
    touchQueue = new TouchQueue(f.redis, f.prefix, createLogger({ name: 'test', level: 'silent' }));
    const step = (s: string) => ({ channel: 'email' as const, subject: s, body: 'Hello', wait: '1d' });
    seqId = (
      await f.repos.sequences.create({
        name: 'Funnel',
        steps: [{ ...step('One'), variants: [{ subject: 'One B', body: 'Hello B' }] }, step('Two')],
      })
    ).id;
    otherSeqId = (await f.repos.sequences.create({ name: 'Other', steps: [step('Only')] })).id;
    const a = await f.repos.mailboxes.create({
      provider: 'sandbox',
      address: 'a@alpha.example',
      windowDays: [],
    });
    const b = await f.repos.mailboxes.create({
      provider: 'sandbox',
      address: 'b@beta.example',
      windowDays: [],
    });
    const people = await f.repos.prospects.upsertMany(
      Array.from({ length: 11 }, (_, i) => ({ email: `p${i + 1}@people.example` })),
    );
    for (const [i, person] of people.entries()) {
      const res = await f.app.inject({
        method: 'POST',
        url: '/v1/enrollments',
        headers: auth,
        payload: {
          sequenceId: i === 10 ? otherSeqId : seqId,
          mailboxId: i < 6 ? a.id : b.id,
          prospectIds: [person.id],
        },
      });
      const id = (res.json() as { enrolled: { id: string }[] }).enrolled[0]!.id;
      p.push({ id, prospectId: person.id, email: person.email, msg: {} });
    }
    // p[0..7] get step 1 (variant 1 for p1, p3, p5, p7), p[0..3] step 2; p[10] is in the other sequence.
    for (let i = 0; i < 8; i++) await send(p[i]!, 1, (i + 1) % 2);
    for (let i = 0; i < 4; i++) await send(p[i]!, 2, 0);
    await send(p[10]!, 1, 0);
    await f.repos.touches.exhaust(p[3]!.id, 3);

    for (let i = 0; i < 6; i++) await event({ type: 'delivered', messageId: p[i]!.msg[1]! });
    await event({ type: 'opened', messageId: p[0]!.msg[1]! });
    await event({ type: 'opened', messageId: p[1]!.msg[1]! });
    // Known only by the address: tied to the prospect's last step sent before it.
    await event({ type: 'opened', email: p[2]!.email });
    await event({ type: 'clicked', messageId: p[0]!.msg[1]! });
    await event({
      type: 'reply',
      messageId: p[1]!.msg[1]!,
      classification: 'interested',
      sentiment: 'positive',
    });
    // Known by our enrollment id only: its last step sent (2).
    await event({
      type: 'reply',
      enrollmentId: p[2]!.id,
      classification: 'not_interested',
      sentiment: 'negative',
    });
    await event({ type: 'bounce', messageId: p[4]!.msg[1]!, bounce: { hard: true, status: '5.1.1' } });
    await event({ type: 'unsubscribe', messageId: p[5]!.msg[1]! });
    await event({ type: 'delivered', messageId: p[10]!.msg[1]! });
  });
  afterAll(async () => {
    await touchQueue?.close();
    await f?.close();
  });

  it('counts the sequence, each step and each variant', async () => {
    const r = await get(`/v1/stats/funnel?sequenceId=${seqId}`);
    expect(r.sequences).toEqual([
      expect.objectContaining({
        sequenceId: seqId,
        enrolled: 10,
        sent: 8,
        delivered: 6,
        opened: 3,
        clicked: 1,
        replied: 2,
        positiveReplies: 1,
        bounced: 1,
        unsubscribed: 1,
        exhausted: 1,
        replyRate: 0.25,
        positiveReplyRate: 0.125,
        bounceRate: 0.125,
      }),
    ]);
    const counts = (rows: Record<string, unknown>[]) =>
      rows.map(
        ({
          step,
          variant,
          sent,
          delivered,
          opened,
          clicked,
          replied,
          positiveReplies,
          bounced,
          unsubscribed,
          exhausted,
        }) => ({
          step,
          ...(variant !== undefined ? { variant } : {}),
          counts: [
            sent,
            delivered,
            opened,
            clicked,
            replied,
            positiveReplies,
            bounced,
            unsubscribed,
            exhausted,
          ],
        }),
      );
    // [sent, delivered, opened, clicked, replied, positive, bounced, unsubscribed, exhausted]
    expect(counts(r.steps!)).toEqual([
      { step: 1, counts: [8, 6, 2, 1, 1, 1, 1, 1, 0] },
      { step: 2, counts: [4, 0, 1, 0, 1, 0, 0, 0, 1] },
    ]);
    expect(counts(r.variants!)).toEqual([
      { step: 1, variant: 0, counts: [4, 3, 1, 0, 1, 1, 0, 1, 0] },
      { step: 1, variant: 1, counts: [4, 3, 1, 1, 0, 0, 1, 0, 0] },
      { step: 2, variant: 0, counts: [4, 0, 1, 0, 1, 0, 0, 0, 1] },
    ]);
    expect(r.steps![1]).toMatchObject({ replyRate: 0.25, bounceRate: 0 });
  });

  it('counts per mailbox and per sending domain', async () => {
    const r = await get(`/v1/stats/funnel/mailboxes?sequenceId=${seqId}`);
    const pick = (row: Record<string, unknown>) => [
      row.enrolled,
      row.sent,
      row.delivered,
      row.replied,
      row.bounced,
    ];
    expect(r.mailboxes!.map((m) => [m.address, ...pick(m)])).toEqual([
      ['a@alpha.example', 6, 6, 6, 2, 1],
      ['b@beta.example', 4, 2, 0, 0, 0],
    ]);
    expect(r.domains!.map((d) => [d.domain, ...pick(d)])).toEqual([
      ['alpha.example', 6, 6, 6, 2, 1],
      ['beta.example', 4, 2, 0, 0, 0],
    ]);
    expect(r.domains![1]).toMatchObject({ replyRate: 0, bounceRate: 0 });
  });

  it('answers for one sequence under its own path, every sequence without a filter, and a time range', async () => {
    const one = await f.app.inject({ url: `/v1/sequences/${seqId}/funnel`, headers: auth });
    expect(one.statusCode).toBe(200);
    const body = one.json() as {
      total: { enrolled: number };
      steps: unknown[];
      mailboxes: unknown[];
      domains: unknown[];
    };
    expect(body.total.enrolled).toBe(10);
    expect([body.steps.length, body.mailboxes.length, body.domains.length]).toEqual([2, 2, 2]);
    expect(
      (await f.app.inject({ url: `/v1/sequences/${randomUUID()}/funnel`, headers: auth })).statusCode,
    ).toBe(404);

    const all = await get('/v1/stats/funnel');
    expect(all.sequences!.map((s) => [s.sequenceId, s.enrolled, s.delivered]).sort()).toEqual(
      [
        [seqId, 10, 6],
        [otherSeqId, 1, 1],
      ].sort(),
    );
    const later = new Date(Date.now() + 3_600_000).toISOString();
    expect((await get(`/v1/stats/funnel?from=${later}`)).sequences).toEqual([]);
    expect((await get(`/v1/stats/funnel?to=${later}&sequenceId=${seqId}`)).sequences![0]).toMatchObject({
      enrolled: 10,
    });
    expect((await f.app.inject({ url: '/v1/stats/funnel?from=yesterday', headers: auth })).statusCode).toBe(
      400,
    );
  });

  it('leaves opens and clicks unknown (null) where the provider reports none', async () => {
    const r = await get(`/v1/stats/funnel?sequenceId=${otherSeqId}`);
    expect(r.sequences![0]).toMatchObject({
      sent: 1,
      delivered: 1,
      opened: null,
      clicked: null,
      openRate: null,
    });
  });
});

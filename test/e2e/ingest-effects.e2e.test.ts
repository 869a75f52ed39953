import { randomUUID } from 'node:crypto';
import { emailHash } from '@touchbase/db';
import { waitFor } from '@touchbase/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import {
  createMailbox,
  createSequence,
  enroll,
  enrollment,
  eventCount,
  importProspects,
  postHttp,
  postHubspot,
  WEBHOOK_ENV,
} from './ingest-support.js';

/**
 * A local HubSpot: records contact updates (the first `failFirst` fail with 503), and
 * answers which contacts a deal has, one per page (so paging is followed); a deal in
 * `dealsDown` answers 503 that many times first.
 */
async function fakeHubspot(failFirst: number) {
  const calls: { url: string; auth: string | undefined; body: unknown; status: number }[] = [];
  const deals = new Map<string, string[]>();
  const dealsDown = new Map<string, number>();
  const app: FastifyInstance = Fastify({ logger: false });
  let failures = failFirst;
  app.patch('/crm/v3/objects/contacts/:id', async (req, reply) => {
    const status = failures-- > 0 ? 503 : 200;
    calls.push({ url: req.url, auth: req.headers.authorization, body: req.body, status });
    return reply.code(status).send(status === 200 ? { id: '1', properties: {} } : { message: 'try later' });
  });
  app.get<{ Params: { id: string }; Querystring: { after?: string } }>(
    '/crm/v4/objects/deals/:id/associations/contacts',
    async (req, reply) => {
      const down = dealsDown.get(req.params.id) ?? 0;
      const status = down > 0 ? 503 : deals.has(req.params.id) ? 200 : 404;
      dealsDown.set(req.params.id, down - 1);
      calls.push({ url: req.url, auth: req.headers.authorization, body: null, status });
      if (status !== 200) return reply.code(status).send({ message: 'no' });
      const contacts = deals.get(req.params.id)!;
      const at = Number(req.query.after ?? 0);
      return {
        results: contacts.slice(at, at + 1).map((id) => ({
          toObjectId: Number(id),
          associationTypes: [{ category: 'HUBSPOT_DEFINED', typeId: 3 }],
        })),
        ...(at + 1 < contacts.length ? { paging: { next: { after: String(at + 1) } } } : {}),
      };
    },
  );
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url, calls, deals, dealsDown, close: () => app.close() };
}

/**
 * The effects of each kind of event, applied in the transaction that records it,
 * against the whole system: hard and soft bounces (and the CRM told over HTTP),
 * complaints, out-of-office pauses that resume where they stopped, address
 * changes that resume in a new thread, and erasure.
 */
describe('ingest: effects of events', () => {
  let sys: TestSystem;
  let hubspot: Awaited<ReturnType<typeof fakeHubspot>>;
  let mailboxId: string;
  let sequenceId: string;

  beforeAll(async () => {
    hubspot = await fakeHubspot(1);
    sys = await startTestSystem('ingest_effects', {
      ...WEBHOOK_ENV,
      HUBSPOT_API_URL: hubspot.url,
      HUBSPOT_ACCESS_TOKEN: 'pat-test-0123456789',
      INGEST_CRM_RETRY_INTERVAL_MS: '100',
      SCHEDULER_RECONCILE_INTERVAL_MS: '1000',
    });
    mailboxId = await createMailbox(sys);
    sequenceId = await createSequence(sys, 4, '300d');
  });
  afterAll(async () => {
    await sys?.stop();
    await hubspot?.close();
  });

  async function live(email: string, hubspotId?: string) {
    const [prospectId] = await importProspects(sys, [{ email, ...(hubspotId ? { hubspotId } : {}) }]);
    const [e] = await enroll(sys, sequenceId, mailboxId, [prospectId!]);
    await waitFor('touch 1 sent', async () => (await enrollment(sys, e!.id)).currentStep === 2);
    const delivery = sys.sandbox.deliveries().find((d) => d.enrollmentId === e!.id && d.step === 1)!;
    return { prospectId: prospectId!, enrollmentId: e!.id, messageId: delivery.messageId };
  }
  const event = (over: object) => ({ occurred_at: new Date().toISOString(), ...over });
  const suppressed = async (value: string) =>
    (await sys.rt.db.pool.query('SELECT 1 FROM suppression WHERE value = $1', [value])).rowCount === 1;

  it('a hard bounce ends, suppresses, marks the address invalid and tells HubSpot over HTTP, retried', async () => {
    const p = await live('hard@effects.example');
    const res = await postHttp(
      sys,
      `b_${randomUUID()}`,
      event({
        type: 'bounce',
        message_id: p.messageId,
        bounce: { hard: true, status: '5.1.1', reason: 'userunknown' },
      }),
    );
    expect(res.body.outcome).toBe('applied');
    expect((await enrollment(sys, p.enrollmentId)).status).toBe('bounced');
    expect(await suppressed('hard@effects.example')).toBe(true);
    expect((await sys.api('GET', `/v1/prospects/${p.prospectId}`)).body.emailStatus).toBe('invalid');
    // The first call fails with 503; the notifier retries it.
    await waitFor('HubSpot updated', () => hubspot.calls.find((c) => c.status === 200));
    const ok = hubspot.calls.filter((c) => c.url.includes(encodeURIComponent('hard@effects.example')));
    expect(ok.map((c) => c.status)).toEqual([503, 200]);
    expect(ok[1]!.url).toContain('idProperty=email');
    expect(ok[1]!.auth).toBe('Bearer pat-test-0123456789');
    expect(ok[1]!.body).toEqual({ properties: { touchbase_email_status: 'hard_bounced' } });
    // The notifier marks the row done after HubSpot's answer reaches it: wait for that.
    const outbox = await waitFor('outbox row done', async () => {
      const rows = await sys.rt.repos.crmOutbox.list();
      return rows.every((n) => n.status === 'done') ? rows : null;
    });
    expect(outbox.map((n) => n.status)).toEqual(['done']);
  });

  it('soft bounces retry; the third in a row counts as hard', async () => {
    const p = await live('soft@effects.example');
    const soft = () =>
      postHttp(
        sys,
        `s_${randomUUID()}`,
        event({
          type: 'bounce',
          message_id: p.messageId,
          bounce: { hard: false, status: '4.2.2', reason: 'mailboxfull' },
        }),
      );
    expect((await soft()).body.outcome).toBe('soft_bounce');
    expect((await soft()).body.outcome).toBe('soft_bounce');
    expect((await enrollment(sys, p.enrollmentId)).status).toBe('active');
    expect(await suppressed('soft@effects.example')).toBe(false);
    expect((await soft()).body.outcome).toBe('applied');
    const e = await enrollment(sys, p.enrollmentId);
    expect(e.status).toBe('bounced');
    expect(e.stopReason).toBe('bounce:soft_x3');
    expect(await suppressed('soft@effects.example')).toBe(true);
  });

  it('a delivery between soft bounces restarts the count', async () => {
    const p = await live('soft-reset@effects.example');
    const soft = () =>
      postHttp(
        sys,
        `s_${randomUUID()}`,
        event({ type: 'bounce', message_id: p.messageId, bounce: { hard: false } }),
      );
    await soft();
    await soft();
    await postHttp(sys, `d_${randomUUID()}`, event({ type: 'delivered', message_id: p.messageId }));
    expect((await soft()).body.outcome).toBe('soft_bounce');
    expect((await enrollment(sys, p.enrollmentId)).status).toBe('active');
  });

  it('a complaint suppresses and ends', async () => {
    const p = await live('complaint@effects.example');
    await postHttp(
      sys,
      `c_${randomUUID()}`,
      event({ type: 'complaint', email: 'complaint@effects.example' }),
    );
    expect((await enrollment(sys, p.enrollmentId)).status).toBe('unsubscribed');
    expect(await suppressed('complaint@effects.example')).toBe(true);
  });

  it('an out-of-office pauses until its return date plus a business day, then resumes at the same step', async () => {
    const p = await live('ooo@effects.example');
    const back = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const before = Date.now();
    const res = await postHttp(
      sys,
      `o_${randomUUID()}`,
      event({ type: 'out_of_office', message_id: p.messageId, return_date: back }),
    );
    expect(res.body.outcome).toBe('paused');
    const after = Date.now();
    const paused = await enrollment(sys, p.enrollmentId);
    expect(paused.status).toBe('paused');
    expect(paused.currentStep).toBe(2);
    expect(await sys.rt.touchQueue.existing([`${p.enrollmentId}-2`])).toEqual(new Set());
    // TIME_SCALE 288000: return date + one business day is three to five days, one to two
    // seconds after the event was applied, some time between the request and its answer
    // (not after this read: on a loaded machine the read itself comes late).
    const resumeAt = new Date(paused.nextTouchAt!).getTime();
    expect(resumeAt).toBeGreaterThan(before + 500);
    expect(resumeAt).toBeLessThan(after + 2_500);
    await waitFor(
      'touch 2 sent after the pause',
      () => sys.sandbox.deliveries().find((d) => d.enrollmentId === p.enrollmentId && d.step === 2),
      { timeoutMs: 15_000 },
    );
    const touch2 = sys.sandbox.deliveries().find((d) => d.enrollmentId === p.enrollmentId && d.step === 2)!;
    expect(new Date(touch2.at).getTime()).toBeGreaterThanOrEqual(resumeAt);
    // The sandbox logs the delivery before the sender records it: wait for the record.
    const resumed = await waitFor('touch 2 recorded', async () => {
      const e = await enrollment(sys, p.enrollmentId);
      return e.currentStep === 3 ? e : null;
    });
    expect(resumed.status).toBe('active');
  });

  it('an address change updates the address and resumes a bounced sequence on it, in a new thread', async () => {
    const p = await live('old@effects.example');
    await postHttp(
      sys,
      `b_${randomUUID()}`,
      event({ type: 'bounce', message_id: p.messageId, bounce: { hard: true, status: '5.1.1' } }),
    );
    expect((await enrollment(sys, p.enrollmentId)).status).toBe('bounced');
    const res = await postHttp(
      sys,
      `ec_${randomUUID()}`,
      event({
        type: 'email_changed',
        email: 'old@effects.example',
        new_email: 'New@Effects.example',
      }),
    );
    expect(res.body.outcome).toBe('email_changed');
    expect((await sys.api('GET', `/v1/prospects/${p.prospectId}`)).body.email).toBe('new@effects.example');
    await waitFor('touch 2 sent to the new address', () =>
      sys.sandbox.deliveries().find((d) => d.enrollmentId === p.enrollmentId && d.step === 2),
    );
    const touch2 = sys.sandbox.deliveries().find((d) => d.enrollmentId === p.enrollmentId && d.step === 2)!;
    const touch1 = sys.sandbox.deliveries().find((d) => d.enrollmentId === p.enrollmentId && d.step === 1)!;
    expect(touch2.to).toBe('new@effects.example');
    expect(touch2.inReplyTo).toBeNull();
    expect(touch2.conversationId).not.toBe(touch1.conversationId);
    expect((await enrollment(sys, p.enrollmentId)).status).toBe('active');
  });

  it('an erasure request ends everything, deletes the person, keeps only a hash, and is audited', async () => {
    const p = await live('erase-me@effects.example');
    const res = await postHttp(
      sys,
      `er_${randomUUID()}`,
      event({ type: 'erasure_request', email: 'erase-me@effects.example' }),
    );
    expect(res.body.outcome).toBe('erased');
    expect((await sys.api('GET', `/v1/prospects/${p.prospectId}`)).status).toBe(404);
    expect((await sys.api('GET', `/v1/enrollments/${p.enrollmentId}`)).status).toBe(404);
    expect(await sys.rt.touchQueue.existing([`${p.enrollmentId}-2`])).toEqual(new Set());
    expect(await suppressed(emailHash('erase-me@effects.example'))).toBe(true);
    expect(await suppressed('erase-me@effects.example')).toBe(false);
    const audit = (await sys.api('GET', `/v1/audit?entityType=prospect&entityId=${p.prospectId}`)).body.items;
    expect(audit.map((a: { action: string }) => a.action)).toEqual(['prospect.erased']);
    const { rows } = await sys.rt.db.pool.query(
      `SELECT count(*)::int AS n FROM event WHERE payload::text LIKE '%erase-me@%'`,
    );
    expect(rows[0].n).toBe(0);
    // The same person imported again is refused at enrollment.
    const [again] = await importProspects(sys, [{ email: 'erase-me@effects.example' }]);
    const refused = await sys.api('POST', '/v1/enrollments', { sequenceId, mailboxId, prospectIds: [again] });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('suppressed');
  });
  /** A deal's stage changed in HubSpot, signed as HubSpot signs. */
  const dealStage = (eventId: number, dealId: number, stage: string) => {
    const body = JSON.stringify([
      {
        eventId,
        subscriptionType: 'deal.propertyChange',
        propertyName: 'dealstage',
        propertyValue: stage,
        occurredAt: Date.now(),
        objectId: dealId,
        portalId: 1,
      },
    ]);
    return postHubspot(sys, body);
  };

  it("a deal won in HubSpot ends the sequences of every contact on it (asked of HubSpot, all pages), no one else's", async () => {
    const a = await live('deal-a@effects.example', '3101');
    const b = await live('deal-b@effects.example', '3102');
    const other = await live('not-on-deal@effects.example', '3199');
    hubspot.deals.set('777', ['3101', '3102']);
    const res = await dealStage(9001, 777, 'closedwon');
    expect(res.status).toBe(200);
    expect(res.body.events.map((e: { outcome: string }) => e.outcome)).toEqual(['applied', 'applied']);
    for (const p of [a, b]) {
      const e = await enrollment(sys, p.enrollmentId);
      expect([e.status, e.stopReason]).toEqual(['cancelled', 'crm.deal_won']);
      expect(await sys.rt.touchQueue.existing([`${p.enrollmentId}-2`])).toEqual(new Set());
    }
    expect((await enrollment(sys, other.enrollmentId)).status).toBe('active');
    const asked = hubspot.calls.filter((c) => c.url.includes('/deals/777/'));
    expect(asked.map((c) => c.status)).toEqual([200, 200]);
    expect(asked[0]!.auth).toBe('Bearer pat-test-0123456789');
    // HubSpot redelivers: recorded once.
    const again = await dealStage(9001, 777, 'closedwon');
    expect(again.body.duplicate).toBe(true);
  });

  it('while HubSpot cannot say who is on a deal, its webhook gets 503 with Retry-After and nothing is recorded; the redelivery applies', async () => {
    const p = await live('deal-c@effects.example', '3103');
    hubspot.deals.set('888', ['3103']);
    hubspot.dealsDown.set('888', 1);
    const before = await eventCount(sys);
    const refused = await dealStage(9002, 888, 'closedlost');
    expect(refused.status).toBe(503);
    expect(refused.type).toContain('application/problem+json');
    expect(refused.body.code).toBe('crm_unavailable');
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(await eventCount(sys)).toBe(before);
    expect((await enrollment(sys, p.enrollmentId)).status).toBe('active');
    const res = await dealStage(9002, 888, 'closedlost');
    expect(res.status).toBe(200);
    const e = await enrollment(sys, p.enrollmentId);
    expect([e.status, e.stopReason]).toEqual(['cancelled', 'crm.deal_lost']);
  });
});

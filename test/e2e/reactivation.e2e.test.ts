import { randomBytes } from 'node:crypto';
import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { fakeHubspot } from './fake-hubspot.js';
import {
  createMailbox,
  createSequence,
  enroll,
  enrollment,
  importProspects,
  postHubspot,
  WEBHOOK_ENV,
} from './ingest-support.js';

/**
 * Reactivation on the sandbox, in compressed time (TIME_SCALE 288000: a day is
 * 300 ms): a deal lost in HubSpot re-enrolls its contact after the cooling-off (10
 * days, 3 s) in the reactivation sequence, which sends its own copy; a won deal
 * never does, not even one won after a lost one. The schedule is a row plus a
 * delayed job the reconciler re-creates when Redis loses it.
 */
describe('reactivation after a lost deal', () => {
  let sys: TestSystem;
  let hub: Awaited<ReturnType<typeof fakeHubspot>>;
  let mailboxId: string;
  let original: string;
  let reactivation: string;

  beforeAll(async () => {
    hub = await fakeHubspot();
    sys = await startTestSystem('reactivation', {
      ...WEBHOOK_ENV,
      HUBSPOT_API_URL: hub.url,
      HUBSPOT_ACCESS_TOKEN: 'pat-test-0123456789',
      SCHEDULER_RECONCILE_INTERVAL_MS: '1000',
    });
    mailboxId = await createMailbox(sys);
    original = await createSequence(sys, 3, '300d');
    const r = await sys.api('POST', '/v1/sequences', {
      name: `reactivate-${randomBytes(3).toString('hex')}`,
      steps: [
        {
          subject: 'Picking up where we left off',
          body: 'Worth another look, {{firstName|there}}?',
          wait: '300d',
        },
      ],
    });
    expect(r.status).toBe(201);
    reactivation = r.body.id;
    // The contact cooldown (policies.contact, 30 days by default, compressed like the
    // cooling-off: 9 s) holds the reactivation's first touch until 30 compressed days
    // after the original's touch, then it goes.
    await sys.rt.repos.sequences.setPolicies(original, {
      reactivation: { sequenceId: reactivation, coolingOffDays: 10, lifecycleStages: ['lead'] },
    });
  });
  afterAll(async () => {
    await sys?.stop();
    await hub?.close();
  });

  async function live(email: string, hubspotId: string) {
    const [prospectId] = await importProspects(sys, [{ email, hubspotId }]);
    const [e] = await enroll(sys, original, mailboxId, [prospectId!]);
    await waitFor('touch 1 sent', async () => (await enrollment(sys, e!.id)).currentStep === 2);
    return { prospectId: prospectId!, enrollmentId: e!.id };
  }
  let eventSeq = 70_000;
  const dealStage = (dealId: number, stage: 'closedlost' | 'closedwon') =>
    postHubspot(
      sys,
      JSON.stringify([
        {
          eventId: eventSeq++,
          subscriptionType: 'deal.propertyChange',
          propertyName: 'dealstage',
          propertyValue: stage,
          occurredAt: Date.now(),
          objectId: dealId,
          portalId: 1,
        },
      ]),
    );
  const reactivationsOf = async (prospectId: string) =>
    (
      await sys.rt.db.pool.query(
        `SELECT id, status, outcome, enrollment_id AS "enrollmentId", due_at AS "dueAt", created_at AS "createdAt"
         FROM reactivation WHERE prospect_id = $1`,
        [prospectId],
      )
    ).rows;
  const enrollmentsOf = async (prospectId: string) =>
    (
      await sys.rt.db.pool.query(
        `SELECT id, sequence_id AS "sequenceId", status FROM enrollment WHERE prospect_id = $1 ORDER BY created_at`,
        [prospectId],
      )
    ).rows;

  it('a closed-lost deal re-enrolls after the cooling-off with the reactivation copy, even when Redis lost the job', async () => {
    const lost = await live('lost@react.example', '4101');
    hub.deals.set('601', ['4101']);
    const res = await dealStage(601, 'closedlost');
    expect(res.status).toBe(200);
    expect((await enrollment(sys, lost.enrollmentId)).stopReason).toBe('crm.deal_lost');
    const [row] = await reactivationsOf(lost.prospectId);
    expect(row).toMatchObject({ status: 'pending' });
    // 10 days of cooling-off, compressed: about 3 s from the event.
    const wait = Date.parse(row.dueAt) - Date.parse(row.createdAt);
    expect(wait).toBeGreaterThan(2_500);
    expect(wait).toBeLessThanOrEqual(3_100);
    // Redis loses the delayed job; the row is the truth and the reconciler re-creates it.
    await sys.rt.reactivationQueue.cancel([row.id]);
    expect(await sys.rt.reactivationQueue.existing([row.id])).toEqual(new Set());
    await waitFor(
      'job re-created',
      async () => (await sys.rt.reactivationQueue.existing([row.id])).size === 1,
      {
        timeoutMs: 10_000,
      },
    );
    // Nothing before the cooling-off is over.
    expect((await enrollmentsOf(lost.prospectId)).map((e) => e.sequenceId)).toEqual([original]);

    await waitFor(
      'reactivation copy sent',
      () =>
        sys.sandbox
          .deliveries()
          .find((d) => d.to === 'lost@react.example' && d.subject.includes('Picking up')),
      { timeoutMs: 20_000 },
    );
    const sent = sys.sandbox.deliveries().find((d) => d.subject.includes('Picking up'))!;
    expect(Date.parse(sent.at)).toBeGreaterThanOrEqual(Date.parse(row.dueAt));
    expect(sent.body).toContain('Worth another look');
    const [, again] = await enrollmentsOf(lost.prospectId);
    expect(again).toMatchObject({ sequenceId: reactivation, status: 'active' });

    // The timeline shows the chain: original enrollment → lost deal → reactivation.
    const tl = (await sys.api('GET', `/v1/enrollments/${lost.enrollmentId}/timeline`)).body;
    expect(tl.events.map((e: { type: string }) => e.type)).toContain('crm.deal_lost');
    expect(tl.reactivations).toEqual([
      expect.objectContaining({ trigger: 'crm.deal_lost', status: 'enrolled', enrollmentId: again.id }),
    ]);
    expect(tl.audit.map((a: { action: string }) => a.action)).toEqual(
      expect.arrayContaining(['reactivation.scheduled', 'reactivation.enrolled']),
    );
    const next = (await sys.api('GET', `/v1/enrollments/${again.id}/timeline`)).body;
    expect(next.enrollment.reactivatedFromId).toBe(lost.enrollmentId);
    expect(next.reactivations.map((r: { id: string }) => r.id)).toEqual([row.id]);
  });

  it('a won deal never reactivates: not on its own, and not after a lost one', async () => {
    const won = await live('won@react.example', '4102');
    const lostThenWon = await live('lost-won@react.example', '4103');
    hub.deals.set('602', ['4102']);
    hub.deals.set('603', ['4103']);
    hub.deals.set('604', ['4103']);
    expect((await dealStage(602, 'closedwon')).status).toBe(200);
    expect((await dealStage(603, 'closedlost')).status).toBe(200);
    expect(await reactivationsOf(lostThenWon.prospectId)).toEqual([
      expect.objectContaining({ status: 'pending' }),
    ]);
    expect((await dealStage(604, 'closedwon')).status).toBe(200);
    expect(await reactivationsOf(lostThenWon.prospectId)).toEqual([
      expect.objectContaining({ status: 'skipped', outcome: 'won' }),
    ]);
    expect(await reactivationsOf(won.prospectId)).toEqual([]);
    // A control lost after them comes due later: once it is enrolled, theirs would have been.
    const control = await live('control@react.example', '4104');
    hub.deals.set('605', ['4104']);
    expect((await dealStage(605, 'closedlost')).status).toBe(200);
    await waitFor(
      'the control reactivated',
      async () => (await reactivationsOf(control.prospectId))[0]?.status === 'enrolled',
      { timeoutMs: 20_000 },
    );
    for (const p of [won, lostThenWon]) {
      expect((await enrollmentsOf(p.prospectId)).map((e) => e.sequenceId)).toEqual([original]);
    }
    const reactivated = sys.sandbox.deliveries().filter((d) => d.subject.includes('Picking up'));
    expect(reactivated.map((d) => d.to)).not.toContain('won@react.example');
    expect(reactivated.map((d) => d.to)).not.toContain('lost-won@react.example');
  });

  it('a contact whose lifecycle stage is set back to a chosen one is reactivated too; another stage does nothing', async () => {
    const cold = await live('cold@react.example', '4105');
    const other = await live('other-stage@react.example', '4106');
    const stage = (objectId: number, value: string) =>
      postHubspot(
        sys,
        JSON.stringify([
          {
            eventId: eventSeq++,
            subscriptionType: 'contact.propertyChange',
            propertyName: 'lifecyclestage',
            propertyValue: value,
            occurredAt: Date.now(),
            objectId,
            portalId: 1,
          },
        ]),
      );
    expect((await stage(4105, 'lead')).status).toBe(200);
    expect((await stage(4106, 'customer')).status).toBe(200);
    expect(await reactivationsOf(other.prospectId)).toEqual([]);
    // Live in the original sequence still: when it comes due, it is skipped as live.
    await waitFor(
      'the lifecycle reactivation settled',
      async () => (await reactivationsOf(cold.prospectId))[0]?.status === 'skipped',
      { timeoutMs: 20_000 },
    );
    expect(await reactivationsOf(cold.prospectId)).toEqual([
      expect.objectContaining({ status: 'skipped', outcome: 'live' }),
    ]);
    const trigger = await sys.rt.db.pool.query('SELECT trigger FROM reactivation WHERE prospect_id = $1', [
      cold.prospectId,
    ]);
    expect(trigger.rows[0].trigger).toBe('crm.lifecycle_stage');
  });

  it('a person suppressed during the cooling-off is not reactivated', async () => {
    const p = await live('gone-quiet@react.example', '4107');
    hub.deals.set('606', ['4107']);
    expect((await dealStage(606, 'closedlost')).status).toBe(200);
    const added = await sys.api('POST', '/v1/suppressions', {
      kind: 'email',
      value: 'gone-quiet@react.example',
    });
    expect(added.status).toBeLessThan(300);
    await waitFor(
      'the reactivation settled',
      async () => (await reactivationsOf(p.prospectId))[0]?.status === 'skipped',
      { timeoutMs: 20_000 },
    );
    expect(await reactivationsOf(p.prospectId)).toEqual([
      expect.objectContaining({ status: 'skipped', outcome: 'suppressed' }),
    ]);
    expect((await enrollmentsOf(p.prospectId)).map((e) => e.sequenceId)).toEqual([original]);
  });
});

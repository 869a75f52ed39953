import { randomBytes } from 'node:crypto';
import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, steps, type TestSystem } from '../support/test-system.js';
import { fakeHubspot } from './fake-hubspot.js';
import { createMailbox, createSequence, enroll, enrollment, importProspects } from './ingest-support.js';

/**
 * Reply classes drive what happens, per sequence, on the sandbox: the sandbox's
 * replies go through the classifier, and each sequence's `replyActions` decide.
 */
describe('reply actions per sequence', () => {
  let sys: TestSystem;
  let hub: Awaited<ReturnType<typeof fakeHubspot>>;
  let mailboxId: string;

  beforeAll(async () => {
    hub = await fakeHubspot();
    sys = await startTestSystem('reply_actions', {
      HUBSPOT_API_URL: hub.url,
      HUBSPOT_ACCESS_TOKEN: 'pat-test-0123456789',
      INGEST_CRM_RETRY_INTERVAL_MS: '100',
      ALERT_WEBHOOK_URL: `${hub.url}/alerts`,
      ALERT_WEBHOOK_SECRET: 'reply-actions-secret-0123456789',
      SCHEDULER_RECONCILE_INTERVAL_MS: '1000',
      // The sandbox knows of a reply from its delivery on, before its webhook is applied:
      // the pre-send re-check of touch 2 (600 ms after touch 1 below) once came first, found
      // no reply recorded to go on after, and ended the enrollment (CI-like load, 670 ms
      // from delivery to the webhook's record). Classes are what this file tests; the
      // re-check going on after a recorded reply is sender-recheck.e2e's.
      SENDER_PROVIDER_RECHECK: 'false',
    });
    mailboxId = await createMailbox(sys);
  });
  afterAll(async () => {
    await sys?.stop();
    await hub?.close();
  });

  /**
   * A 3-step sequence with these policies; touch 2 waits `wait` after touch 1 (long,
   * unless a test wants to see it), touch 3 always long after touch 2: a test that saw
   * touch 2 still finds the enrollment active, however late it looks.
   */
  async function sequenceWith(policies: unknown, wait = '300d'): Promise<string> {
    const seq = await sys.api('POST', '/v1/sequences', {
      name: `policies-${randomBytes(3).toString('hex')}`,
      steps: steps(3, '300d').map((s, i) => (i === 0 ? { ...s, wait } : s)),
    });
    expect(seq.status).toBe(201);
    await sys.rt.repos.sequences.setPolicies(seq.body.id, policies);
    return seq.body.id;
  }

  async function replyTo(
    sequenceId: string,
    email: string,
    text: string,
    outcome: 'reply' | 'out_of_office' = 'reply',
  ) {
    sys.sandbox.script(email, outcome, 1, text);
    const [prospectId] = await importProspects(sys, [{ email }]);
    const [e] = await enroll(sys, sequenceId, mailboxId, [prospectId!]);
    const answered = async () =>
      (
        await sys.rt.db.pool.query(`SELECT 1 FROM event WHERE prospect_id = $1 AND type = $2`, [
          prospectId,
          outcome,
        ])
      ).rowCount! >= 1;
    await waitFor('the answer applied', answered, { timeoutMs: 20_000 });
    return { prospectId: prospectId!, enrollmentId: e!.id };
  }

  it('interested: ends, marks the HubSpot contact and notifies with the first lines, masked', async () => {
    const seq = await sequenceWith({});
    const p = await replyTo(
      seq,
      'keen@replies.example',
      "Sounds interesting, I'd love to learn more. My number is +1 415 555 0100.\nBest, Kim",
    );
    expect((await enrollment(sys, p.enrollmentId)).status).toBe('replied');
    await waitFor('HubSpot marked', () =>
      hub.calls.find((c) => c.url.includes(encodeURIComponent('keen@replies.example'))),
    );
    const marked = hub.calls.find((c) => c.url.includes(encodeURIComponent('keen@replies.example')))!;
    expect(marked.body).toEqual({ properties: { touchbase_reply: 'interested' } });

    await waitFor('alert delivered', () => hub.alerts.find((a) => a.type === 'reply.received'));
    const alert = hub.alerts.find((a) => a.type === 'reply.received')!;
    expect(alert.data.excerpt).toBe(
      "Sounds interesting, I'd love to learn more. My number is [number].\nBest, Kim",
    );
    expect(alert.data.link).toContain(`/v1/enrollments/${p.enrollmentId}/timeline`);
    // The event log keeps no words of the reply.
    const logged = await sys.rt.db.pool.query(`SELECT payload FROM event WHERE prospect_id = $1`, [
      p.prospectId,
    ]);
    expect(JSON.stringify(logged.rows)).not.toContain('Sounds interesting');
  });

  it('wrong_person: ends and puts the named referral into triage', async () => {
    const seq = await sequenceWith({});
    const p = await replyTo(
      seq,
      'gone@replies.example',
      "I've left the company, please contact jane@replies-next.example instead.",
    );
    expect((await enrollment(sys, p.enrollmentId)).status).toBe('replied');
    const triage = await sys.api('GET', '/v1/triage?kind=referral');
    expect(triage.status).toBe(200);
    expect(triage.body.items.map((t: { email: string }) => t.email)).toContain('jane@replies-next.example');
    // No notification for this class by default.
    expect(hub.calls.find((c) => c.url.includes(encodeURIComponent('gone@replies.example')))).toBeUndefined();
  });

  it('not_interested with a cooldown: ends, and no sequence may enroll the person before it', async () => {
    const seq = await sequenceWith({ replyActions: { not_interested: { cooldownMonths: 6 } } });
    const p = await replyTo(seq, 'nope@replies.example', 'Not interested, thanks.');
    expect((await enrollment(sys, p.enrollmentId)).status).toBe('replied');
    const other = await createSequence(sys, 2, '2d');
    const again = await sys.api('POST', '/v1/enrollments', {
      sequenceId: other,
      mailboxId,
      prospectIds: [p.prospectId],
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('cooling_off');
  });

  it('stop_on_reply off: a chosen class goes on (touch 2 is sent), any other ends', async () => {
    const seq = await sequenceWith({ replyActions: { stopOnReply: false, continueOn: ['neutral'] } }, '2d');
    const goesOn = await replyTo(seq, 'meh@replies.example', "Thanks for the note, I'll read it later.");
    await waitFor(
      'touch 2 sent after the neutral reply',
      () => sys.sandbox.deliveries().find((d) => d.enrollmentId === goesOn.enrollmentId && d.step === 2),
      { timeoutMs: 20_000 },
    );
    expect((await enrollment(sys, goesOn.enrollmentId)).status).toBe('active');
    const ends = await replyTo(seq, 'nah@replies.example', 'Not interested, thanks.');
    expect((await enrollment(sys, ends.enrollmentId)).status).toBe('replied');
  });

  it('out_of_office: pauses by default, is ignored where the sequence says so', async () => {
    const paused = await replyTo(
      await sequenceWith({}),
      'away1@replies.example',
      'I am out of the office',
      'out_of_office',
    );
    expect((await enrollment(sys, paused.enrollmentId)).status).toBe('paused');
    const ignoring = await sequenceWith({ replyActions: { outOfOffice: 'ignore' } });
    const ignored = await replyTo(
      ignoring,
      'away2@replies.example',
      'I am out of the office',
      'out_of_office',
    );
    expect((await enrollment(sys, ignored.enrollmentId)).status).toBe('active');
  });

  it("erasing a person takes their reply's notification and the referral it named with them", async () => {
    const p = await replyTo(
      await sequenceWith({ replyActions: { wrong_person: { notify: true } } }),
      'erase-me@replies.example',
      "I've left the company, please contact jo@replies-next.example instead.",
    );
    const count = async (sql: string) => (await sys.rt.db.pool.query(sql, [p.prospectId])).rowCount;
    const alerts = `SELECT 1 FROM alert WHERE data->>'prospectId' = $1::text`;
    const referrals = `SELECT 1 FROM triage_item t JOIN event e ON e.id = t.event_id WHERE e.prospect_id = $1`;
    expect(await count(alerts)).toBe(1);
    expect(await count(referrals)).toBe(1);
    const erased = await sys.api('DELETE', `/v1/prospects/${p.prospectId}?reason=asked`);
    expect(erased.status).toBe(200);
    expect(await count(alerts)).toBe(0);
    const left = await sys.rt.db.pool.query(
      `SELECT 1 FROM triage_item WHERE email = 'jo@replies-next.example'`,
    );
    expect(left.rowCount).toBe(0);
  });
});

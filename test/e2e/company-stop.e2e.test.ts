import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { createMailbox, createSequence, enroll, enrollment } from './ingest-support.js';

/**
 * Accounts on the sandbox: a prospect's company comes from their address unless it
 * is free-mail, or from the domain given on import; a positive reply from one person
 * pauses their colleagues' sequences (the default policy), audited with the reply,
 * and leaves everyone else's alone.
 */
describe('accounts: company domain and company-level stop', () => {
  let sys: TestSystem;
  let mailboxId: string;
  let sequenceId: string;

  beforeAll(async () => {
    sys = await startTestSystem('company_stop', {
      SCHEDULER_RECONCILE_INTERVAL_MS: '1000',
      INGEST_COMPANY_STOP: 'true',
    });
    mailboxId = await createMailbox(sys);
    sequenceId = await createSequence(sys, 3, '300d');
  });
  afterAll(async () => {
    await sys?.stop();
  });

  async function importOne(p: { email: string; companyDomain?: string; company?: string }): Promise<string> {
    const r = await sys.api('POST', '/v1/prospects', { prospects: [p] });
    if (r.status !== 200) throw new Error(`prospects: ${JSON.stringify(r.body)}`);
    return r.body.prospects[0].id;
  }
  const companyOf = async (id: string) => (await sys.api('GET', `/v1/prospects/${id}`)).body.companyDomain;

  it('derives the company from the address unless free-mail, and takes one given on import', async () => {
    expect(await companyOf(await importOne({ email: 'erin@Initech.io', company: 'Initech' }))).toBe(
      'initech.io',
    );
    expect(await companyOf(await importOne({ email: 'frank@gmail.com' }))).toBeNull();
    expect(
      await companyOf(await importOne({ email: 'gina@yahoo.com', companyDomain: 'https://www.initech.io/' })),
    ).toBe('initech.io');
    const bad = await sys.api('POST', '/v1/prospects', {
      prospects: [{ email: 'x@example.org', companyDomain: 'not a domain' }],
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('companyDomain');
  });

  it('a reply from alice@acme.com pauses bob@acme.com (and dave, acme.com by import) but not carol@gmail.com', async () => {
    sys.sandbox.script(
      'alice@acme.com',
      'reply',
      1,
      "Sounds interesting, I'd love to learn more. Can we talk?",
    );
    const alice = await importOne({ email: 'alice@acme.com' });
    const bob = await importOne({ email: 'bob@acme.com' });
    const carol = await importOne({ email: 'carol@gmail.com' });
    const dave = await importOne({ email: 'dave@hotmail.com', companyDomain: 'acme.com' });
    // Colleagues first: they are at step 2, waiting, when alice's reply lands.
    const others = await enroll(sys, sequenceId, mailboxId, [bob, carol, dave]);
    for (const e of others) {
      await waitFor('touch 1 sent', async () => (await enrollment(sys, e.id)).currentStep === 2);
    }
    const [a] = await enroll(sys, sequenceId, mailboxId, [alice]);
    await waitFor('alice replied', async () => (await enrollment(sys, a!.id)).status === 'replied');
    await sys.sandbox.settled();

    const byProspect = new Map(others.map((e) => [e.prospectId, e.id]));
    const bobE = await enrollment(sys, byProspect.get(bob)!);
    const daveE = await enrollment(sys, byProspect.get(dave)!);
    const carolE = await enrollment(sys, byProspect.get(carol)!);
    expect(bobE).toMatchObject({ status: 'paused', stopReason: 'company_reply' });
    expect(daveE).toMatchObject({ status: 'paused', stopReason: 'company_reply' });
    expect(carolE).toMatchObject({ status: 'active', stopReason: null });
    // Paused for the default 14 days from the reply, compressed by TIME_SCALE (288000: 4.2 s).
    const left = Date.parse(bobE.nextTouchAt!) - Date.now();
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(4_200);

    const audit = await sys.rt.db.pool.query(
      `SELECT data FROM audit_log WHERE action = 'company.stopped' AND entity_id = $1`,
      [alice],
    );
    expect(audit.rows).toHaveLength(1);
    const data = audit.rows[0].data;
    expect(data.replyClass).toBe('interested');
    expect(data.eventId).toEqual(expect.any(String));
    expect(data.paused.map((p: { id: string }) => p.id).sort()).toEqual(
      [byProspect.get(bob), byProspect.get(dave)].sort(),
    );
    expect(data.ended).toEqual([]);
    // The paused colleagues' jobs are gone; carol's next touch is still scheduled.
    const jobs = await sys.rt.touchQueue.existing([...byProspect.values()].map((id) => `${id}-2`));
    expect([...jobs].sort()).toEqual([`${byProspect.get(carol)}-2`]);

    // The pause ends by itself: the reconciler makes bob active again at the step he
    // was at, and his touch 2 goes out only then.
    const bobId = byProspect.get(bob)!;
    const pauseEnds = Date.parse(bobE.nextTouchAt!);
    const touch2 = () => sys.sandbox.deliveries().find((d) => d.enrollmentId === bobId && d.step === 2);
    expect(touch2()).toBeUndefined();
    await waitFor('bob resumed and sent touch 2', async () => touch2() !== undefined, { timeoutMs: 30_000 });
    expect(Date.now()).toBeGreaterThanOrEqual(pauseEnds);
    expect((await enrollment(sys, bobId)).stopReason).toBeNull();
  });
});

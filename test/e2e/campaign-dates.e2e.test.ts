import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { createMailbox, createSequence, enrollment, importProspects } from './ingest-support.js';

/** Campaign dates (sequence policies) on the sandbox: nothing new after the end; first touches wait for the start. */
describe('policies: campaign start and end dates', () => {
  let sys: TestSystem;
  let mailboxId: string;

  beforeAll(async () => {
    sys = await startTestSystem('campaign_dates');
    mailboxId = await createMailbox(sys);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  it('after the end date an enrollment is refused with a problem naming the sequence', async () => {
    const sequenceId = await createSequence(sys, 2, '300d');
    await sys.rt.repos.sequences.setPolicies(sequenceId, {
      endsAt: new Date(Date.now() - 1_000).toISOString(),
    });
    const [prospectId] = await importProspects(sys, [{ email: 'late@dates.example' }]);
    const r = await sys.api('POST', '/v1/enrollments', { sequenceId, mailboxId, prospectIds: [prospectId] });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('invalid_state');
    expect(JSON.stringify(r.body)).toContain('sequenceId');
  });

  it('before the start date the first touch waits for it', async () => {
    const sequenceId = await createSequence(sys, 2, '300d');
    const startsAt = new Date(Date.now() + 2_000);
    await sys.rt.repos.sequences.setPolicies(sequenceId, { startsAt: startsAt.toISOString() });
    const [prospectId] = await importProspects(sys, [{ email: 'early@dates.example' }]);
    const r = await sys.api('POST', '/v1/enrollments', { sequenceId, mailboxId, prospectIds: [prospectId] });
    expect(r.status).toBe(201);
    const id = (r.body.enrolled ?? [r.body])[0].id as string;
    expect(Date.parse((await enrollment(sys, id)).nextTouchAt!)).toBeGreaterThanOrEqual(startsAt.getTime());
    await waitFor('touch 1 sent', async () => (await enrollment(sys, id)).currentStep === 2);
    expect(Date.now()).toBeGreaterThanOrEqual(startsAt.getTime());
  });
});

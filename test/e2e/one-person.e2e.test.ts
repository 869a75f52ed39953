import { randomUUID } from 'node:crypto';
import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import {
  createMailbox,
  createSequence,
  enroll,
  enrollment,
  postHttp,
  WEBHOOK_ENV,
} from './ingest-support.js';

/**
 * One person across channels, on the sandbox: a person imported twice (once as
 * JSON, once from a CSV file) with the same LinkedIn URL, spelled differently, and
 * two addresses is one prospect, enrolled once and contacted once per step, at the
 * first address; a reply from their other address reaches them.
 */
describe('one person: import merges identities', () => {
  let sys: TestSystem;
  let mailboxId: string;
  let sequenceId: string;

  beforeAll(async () => {
    sys = await startTestSystem('one_person', WEBHOOK_ENV);
    mailboxId = await createMailbox(sys);
    sequenceId = await createSequence(sys, 2, '1d');
  });
  afterAll(async () => {
    await sys?.stop();
  });

  async function csvImport(body: string) {
    const res = await fetch(`${sys.apiUrl}/v1/prospects/import`, {
      method: 'POST',
      headers: { 'content-type': 'text/csv' },
      body,
    });
    return { status: res.status, body: (await res.json()) as { prospects: { id: string }[] } };
  }

  it('a person imported twice with the same LinkedIn URL and two addresses is one prospect, contacted once', async () => {
    const first = await sys.api('POST', '/v1/prospects', {
      prospects: [
        {
          email: 'ada@work-one.example',
          firstName: 'Ada',
          linkedinUrl: 'https://www.linkedin.com/in/ada-one/',
        },
      ],
    });
    expect(first.status).toBe(200);
    const second = await csvImport(
      'email,first name,linkedin url,legal basis\nada.one@home-one.example,Ada,linkedin.com/in/Ada-One?trk=people,legitimate interests\n',
    );
    expect(second.status).toBe(200);
    const id = first.body.prospects[0].id as string;
    expect(second.body.prospects[0]?.id).toBe(id);
    const person = (await sys.api('GET', `/v1/prospects/${id}`)).body;
    expect(person.legalBasis).toBe('legitimate_interests');
    expect(person.identities.filter((i: { kind: string }) => i.kind === 'email')).toHaveLength(2);

    // Enrolling what each import answered: the second is the same person, refused as already enrolled.
    const [e] = await enroll(sys, sequenceId, mailboxId, [id]);
    const again = await sys.api('POST', '/v1/enrollments', {
      sequenceId,
      mailboxId,
      prospectIds: [second.body.prospects[0]?.id],
    });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('already_enrolled');

    await waitFor('sequence exhausted', async () => (await enrollment(sys, e!.id)).status === 'exhausted');
    await sys.sandbox.settled();
    const toAda = sys.sandbox
      .deliveries()
      .filter((d) => d.to === 'ada@work-one.example' || d.to === 'ada.one@home-one.example');
    expect(toAda.map((d) => [d.to, d.step])).toEqual([
      ['ada@work-one.example', 1],
      ['ada@work-one.example', 2],
    ]);
  });

  it('a reply from the other address ends the person’s sequence', async () => {
    const r = await sys.api('POST', '/v1/prospects', {
      prospects: [
        { email: 'bo@work-two.example', linkedinUrl: 'https://www.linkedin.com/in/bo-two/' },
        { email: 'bo@home-two.example', linkedinUrl: 'https://uk.linkedin.com/in/BO-TWO' },
      ],
    });
    const [a, b] = r.body.prospects as { id: string }[];
    expect(a!.id).toBe(b!.id);
    const slow = await createSequence(sys, 3, '300d');
    const [e] = await enroll(sys, slow, mailboxId, [a!.id]);
    await waitFor('touch 1 sent', async () => (await enrollment(sys, e!.id)).currentStep === 2);
    const res = await postHttp(sys, `r_${randomUUID()}`, {
      type: 'reply',
      occurred_at: new Date().toISOString(),
      email: 'bo@home-two.example',
      text: 'Not interested, thanks.',
    });
    expect(res.status).toBe(200);
    expect((await enrollment(sys, e!.id)).status).toBe('replied');
  });
});

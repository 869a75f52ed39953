import { FIELD_EXAMPLE_GRAPH, waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { createMailbox, enroll, importProspects, postHttp, WEBHOOK_ENV } from './ingest-support.js';

const url = (name: string) => `https://www.linkedin.com/in/${name}-graph/`;

/**
 * The two-channel sequence of the field, end to end on the sandbox over real HTTP:
 * invitations through the LinkedIn sender port to the sandbox's LinkedIn, its
 * acceptances and answers back as signed webhooks into ingest, e-mail through the
 * sandbox provider. A day lasts 300 ms (TIME_SCALE), so 7 days are about 2 s.
 */
describe('graph sequence: connect, then message on acceptance, else e-mail (whole system)', () => {
  let sys: TestSystem;
  let sequenceId: string;
  const people = {
    accepts: { email: 'ada@graph.example', linkedinUrl: url('ada'), script: { accept: true, reply: true } },
    ignores: { email: 'bob@graph.example', linkedinUrl: url('bob'), script: { accept: false } },
    missing: {
      email: 'cy@graph.example',
      linkedinUrl: url('cy'),
      script: { fail: 'profile_not_found' as const },
    },
    silent: { email: 'dee@graph.example', linkedinUrl: url('dee'), script: { accept: true, reply: false } },
    mailer: { email: 'eve@graph.example', linkedinUrl: url('eve'), script: { accept: false } },
  };
  type Who = keyof typeof people;
  const enrollmentOf = new Map<Who, string>();

  beforeAll(async () => {
    sys = await startTestSystem('graph_field', { ...WEBHOOK_ENV });
    const mailboxId = await createMailbox(sys);
    const pool = await sys.api('POST', '/v1/mailbox-pools', { name: 'two-channel', mailboxIds: [mailboxId] });
    expect(pool.status).toBe(201);
    const account = await sys.api('POST', '/v1/linkedin-accounts', {
      provider: 'sandbox',
      providerAccountId: 'acc_sdr',
      name: 'SDR',
      windowDays: [],
      poolIds: [pool.body.id],
    });
    expect(account.status).toBe(201);
    const seq = await sys.api('POST', '/v1/sequences', {
      name: 'Field example',
      graph: FIELD_EXAMPLE_GRAPH,
      mailboxPoolId: pool.body.id,
    });
    expect(seq.status).toBe(201);
    sequenceId = seq.body.id;
    for (const p of Object.values(people)) sys.sandbox.linkedin.script(p.linkedinUrl, p.script);
    const names = Object.keys(people) as Who[];
    const ids = await importProspects(
      sys,
      names.map((n) => ({ email: people[n].email, linkedinUrl: people[n].linkedinUrl })),
    );
    const enrolled = await enroll(sys, sequenceId, mailboxId, ids);
    for (const e of enrolled) enrollmentOf.set(names[ids.indexOf(e.prospectId)]!, e.id);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  const status = async (who: Who) =>
    (
      await sys.rt.db.pool.query<{ status: string }>('SELECT status::text FROM enrollment WHERE id = $1', [
        enrollmentOf.get(who),
      ])
    ).rows[0]!.status;
  const linkedInActions = (who: Who) =>
    sys.sandbox.linkedin.actions().filter((a) => a.profileUrl === people[who].linkedinUrl);
  const mails = (who: Who) => sys.sandbox.deliveries().filter((d) => d.to === people[who].email);
  const waitStatus = (who: Who, want: string) =>
    waitFor(`${who} ${want}`, async () => ((await status(who)) === want ? true : null), {
      timeoutMs: 20_000,
    });

  // First: once its e-mail's 3 days have run out the sequence is over (a day is 300 ms).
  it('a reply by e-mail ends the other track too', async () => {
    const e = enrollmentOf.get('mailer')!;
    await waitFor('the e-mail of the mailer', async () => (mails('mailer').length > 0 ? true : null), {
      timeoutMs: 20_000,
    });
    const res = await postHttp(sys, `graph-reply-${e}`, {
      type: 'reply',
      occurred_at: new Date().toISOString(),
      enrollment_id: e,
      email: people.mailer.email,
      text: 'Not interested, thanks.',
    });
    expect(res.status).toBe(200);
    expect(await status('mailer')).toBe('replied');
  });

  it('accepted: the message goes on LinkedIn, the LinkedIn reply ends the sequence, no e-mail ever', async () => {
    await waitStatus('accepts', 'replied');
    expect(linkedInActions('accepts').map((a) => a.kind)).toEqual(['invitation', 'message']);
    expect(linkedInActions('accepts')[1]!.text).toBe('Thanks for connecting, P0');
    // Well past the 7 days of the not_accepted edge: the e-mail track never starts.
    await new Promise((r) => setTimeout(r, 3_000));
    expect(mails('accepts')).toEqual([]);
    expect(await status('accepts')).toBe('replied');
  });

  it('not accepted within 7 days: the e-mail goes out instead, then the sequence runs out', async () => {
    await waitStatus('ignores', 'exhausted');
    expect(linkedInActions('ignores').map((a) => a.kind)).toEqual(['invitation']);
    expect(mails('ignores').map((m) => m.subject)).toEqual(['Hello Acme']);
    await waitStatus('silent', 'exhausted');
    expect(linkedInActions('silent').map((a) => a.kind)).toEqual(['invitation', 'message']);
    expect(mails('silent')).toEqual([]);
  });

  it('a profile that cannot be reached skips to the e-mail at once, the reason recorded and shown', async () => {
    await waitFor(
      'the e-mail of the unreachable profile',
      async () => (mails('missing').length > 0 ? true : null),
      {
        timeoutMs: 20_000,
      },
    );
    expect(linkedInActions('missing')).toEqual([]);
    const e = enrollmentOf.get('missing')!;
    const { rows } = await sys.rt.db.pool.query<{ step: number; status: string; error: string | null }>(
      'SELECT step, status::text, error FROM touch WHERE enrollment_id = $1 ORDER BY created_at',
      [e],
    );
    expect(rows[0]).toEqual({ step: 1, status: 'failed', error: 'linkedin_profile_not_found' });
    const why = await sys.api('GET', `/v1/enrollments/${e}/waiting`);
    expect(why.status).toBe(200);
    expect(JSON.stringify(why.body)).toContain('linkedin_profile_not_found');
  });

  it('the timeline shows each node, the edge taken and why', async () => {
    const t = await sys.api('GET', `/v1/enrollments/${enrollmentOf.get('accepts')}/timeline`);
    expect(t.status).toBe(200);
    expect(t.body.touches.map((x: { node: string }) => x.node)).toEqual(['connect', 'dm']);
    expect(t.body.audit).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          action: 'enrollment.edge_taken',
          data: expect.objectContaining({
            trigger: 'connection_accepted',
            from: 'connect',
            to: 'dm',
            instead: 'mail',
          }),
        }),
      ]),
    );
    const other = await sys.api('GET', `/v1/enrollments/${enrollmentOf.get('ignores')}/timeline`);
    expect(other.body.touches.map((x: { node: string; edge: unknown }) => [x.node, x.edge])).toEqual([
      ['connect', null],
      ['mail', { from: 'connect', trigger: 'not_accepted', wait: '7d' }],
    ]);
  });

  it('the funnel per node counts who reached each node, what failed, and who replied after it', async () => {
    const stats = await sys.api('GET', `/v1/stats?sequenceId=${sequenceId}`);
    expect(stats.status).toBe(200);
    const row = (node: string) => stats.body.byNode.find((r: { node: string }) => r.node === node);
    expect(row('connect')).toMatchObject({
      version: 1,
      step: 1,
      action: 'linkedin_connect',
      reached: 5,
      sent: 4,
      failed: 1,
    });
    expect(row('dm')).toMatchObject({ action: 'linkedin_message', reached: 2, sent: 2, repliedAfter: 1 });
    expect(row('mail')).toMatchObject({ action: 'email', reached: 3, sent: 3, repliedAfter: 1 });
  });
});

import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem } from '../support/test-system.js';

describe('templates in the sender: missing variables and A/B variants', () => {
  let sys: TestSystem;
  let mailboxId: string;
  beforeAll(async () => {
    sys = await startTestSystem('sender_templates', {}, { pacingMs: 0 });
    const mailbox = await sys.api('POST', '/v1/mailboxes', {
      provider: 'sandbox',
      address: 'tmpl@sender.example',
      perMinute: 1000,
      perHour: 10_000,
      perDay: 100_000,
      windowDays: [],
    });
    mailboxId = mailbox.body.id;
  });
  afterAll(async () => {
    await sys?.stop();
  });

  it('a variable the prospect lacks, without fallback, pauses the enrollment naming it, and nothing reaches the provider', async () => {
    const seq = await sys.api('POST', '/v1/sequences', {
      name: 'needs pain point',
      steps: [
        { subject: 'Hi {{firstName}}', body: 'About {{painPoint}} at {{company|your team}}', wait: '1d' },
      ],
    });
    const prospects = await sys.api('POST', '/v1/prospects', {
      prospects: [
        { email: 'lacks@prospect.example', firstName: 'Lin' },
        { email: 'has@prospect.example', firstName: 'Hal', attributes: { painPoint: 'churn' } },
      ],
    });
    const [lacks, has] = prospects.body.prospects as { id: string }[];
    const res = await sys.api('POST', '/v1/enrollments', {
      sequenceId: seq.body.id,
      mailboxId,
      prospectIds: [lacks!.id, has!.id],
    });
    const byProspect = new Map(
      (res.body.enrolled as { id: string; prospectId: string }[]).map((e) => [e.prospectId, e.id]),
    );

    const paused = await waitFor('the enrollment to pause', async () => {
      const e = await sys.api('GET', `/v1/enrollments/${byProspect.get(lacks!.id)}`);
      return e.body.status === 'paused' ? e.body : null;
    });
    expect(paused.stopReason).toBe('missing_variable:painPoint');
    await waitFor('the other prospect to be sent to', () =>
      sys.sandbox.deliveries().some((d) => d.to === 'has@prospect.example'),
    );
    expect(sys.sandbox.deliveries().filter((d) => d.to === 'lacks@prospect.example')).toEqual([]);
    expect(sys.sandbox.deliveries().find((d) => d.to === 'has@prospect.example')?.body).toBe(
      'About churn at your team',
    );
    const timeline = await sys.api('GET', `/v1/enrollments/${byProspect.get(lacks!.id)}/timeline`);
    expect(timeline.body.touches).toEqual([]);
    expect(sys.sandbox.deliveries().some((d) => d.subject.includes('{{') || d.body.includes('{{'))).toBe(
      false,
    );
  });

  it('A/B variants: each prospect keeps its variant and /v1/stats counts sends per step and variant', async () => {
    const seq = await sys.api('POST', '/v1/sequences', {
      name: 'ab',
      steps: [
        {
          subject: 'A: hello {{firstName}}',
          body: 'Variant A',
          wait: '0s',
          variants: [{ subject: 'B: hey {{firstName}}', body: 'Variant B' }],
        },
        { subject: 'unused', body: 'Follow-up for {{firstName}}', wait: '0s' },
      ],
    });
    const emails = Array.from({ length: 30 }, (_, i) => `ab${i}@prospect.example`);
    const prospects = await sys.api('POST', '/v1/prospects', {
      prospects: emails.map((email, i) => ({ email, firstName: `P${i}` })),
    });
    await sys.api('POST', '/v1/enrollments', {
      sequenceId: seq.body.id,
      mailboxId,
      prospectIds: prospects.body.prospects.map((p: { id: string }) => p.id),
    });
    const stats = await waitFor('every enrollment to be exhausted', async () => {
      const s = (await sys.api('GET', `/v1/stats?sequenceId=${seq.body.id}`)).body;
      return s.byStatus.exhausted === 30 ? s : null;
    });
    const deliveries = sys.sandbox.deliveries().filter((d) => emails.includes(d.to));
    const step1 = deliveries.filter((d) => d.step === 1);
    const bCount = step1.filter((d) => d.body === 'Variant B').length;
    expect(bCount).toBeGreaterThan(0);
    expect(bCount).toBeLessThan(30);
    expect(stats.sentByStepAndVariant).toEqual([
      { step: 1, variant: 0, sent: 30 - bCount },
      { step: 1, variant: 1, sent: bCount },
      { step: 2, variant: 0, sent: 30 },
    ]);
    // The follow-up replies to the subject the prospect saw, whichever variant it was.
    for (const d of deliveries.filter((x) => x.step === 2)) {
      const first = step1.find((x) => x.to === d.to)!;
      expect(d.subject).toBe(`Re: ${first.subject}`);
    }
  });
});

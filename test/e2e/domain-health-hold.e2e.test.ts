import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { steps, type TestSystem } from '../support/test-system.js';
import { type HealthSystem, startHealthSystem } from './domain-health-support.js';

describe('domain health: a manual pause holds running sequences or lets them run (whole system)', () => {
  let sys: TestSystem;
  let receiver: HealthSystem['receiver'];

  beforeAll(async () => {
    ({ sys, receiver } = await startHealthSystem('domainhealth_hold'));
  });
  afterAll(async () => {
    await sys?.stop();
    await receiver?.close();
  });

  it('a pause holds the touches of running sequences until the resume, or lets them run when asked to', async () => {
    const threeSteps = await sys.api('POST', '/v1/sequences', { name: 'running', steps: steps(3, '3d') });
    const start = async (domain: string) => {
      const mb = await sys.api('POST', '/v1/mailboxes', {
        provider: 'sandbox',
        address: `sdr@${domain}`,
        windowDays: [],
      });
      const p = await sys.api('POST', '/v1/prospects', { prospects: [{ email: `running@${domain}` }] });
      const e = await sys.api('POST', '/v1/enrollments', {
        sequenceId: threeSteps.body.id,
        mailboxId: mb.body.id,
        prospectIds: [p.body.prospects[0].id],
      });
      expect(e.status).toBe(201);
      return { domainId: mb.body.domainId as string, enrollmentId: e.body.enrolled[0].id as string };
    };
    const sent = (enrollmentId: string) =>
      sys.sandbox.deliveries().filter((d) => d.enrollmentId === enrollmentId);
    const heldCount = async () => {
      const text = await fetch(`${sys.apiUrl}/metrics`).then((r) => r.text());
      return Number(/touchbase_sender_touches_skipped_total\{reason="held"\} (\d+)/.exec(text)?.[1] ?? 0);
    };

    // Held: the sender sees the pause and puts the touch back; it goes out after the resume.
    const held = await start('inflight.example');
    const before = await heldCount();
    const pause = await sys.api('POST', `/v1/domains/${held.domainId}/pause`, {
      by: 'bob@ops',
      reason: 'checking the DNS records',
    });
    expect(pause.body).toMatchObject({ status: 'paused', pauseKind: 'manual', holdTouches: true });
    await waitFor('a touch of the paused domain to be held', async () => (await heldCount()) > before);
    expect(sent(held.enrollmentId).length).toBeLessThan(3);
    expect((await sys.api('GET', `/v1/enrollments/${held.enrollmentId}`)).body.status).toBe('active');
    await sys.api('POST', `/v1/domains/${held.domainId}/resume`, { by: 'bob@ops', reason: 'records fixed' });
    await waitFor('the held sequence to finish after the resume', async () => {
      const e = await sys.api('GET', `/v1/enrollments/${held.enrollmentId}`);
      return e.body.status === 'exhausted';
    });
    expect(sent(held.enrollmentId).map((d) => d.step)).toEqual([1, 2, 3]);

    // Not held: new enrollments stop, the running sequence goes on while the domain stays paused.
    const running = await start('keepsgoing.example');
    await sys.api('POST', `/v1/domains/${running.domainId}/pause`, {
      by: 'bob@ops',
      reason: 'no new enrollments for now',
      holdTouches: false,
    });
    await waitFor('the running sequence to finish on the paused domain', async () => {
      const e = await sys.api('GET', `/v1/enrollments/${running.enrollmentId}`);
      return e.body.status === 'exhausted';
    });
    expect(sent(running.enrollmentId).map((d) => d.step)).toEqual([1, 2, 3]);
    expect((await sys.api('GET', `/v1/domains/${running.domainId}`)).body.status).toBe('paused');
  });
});

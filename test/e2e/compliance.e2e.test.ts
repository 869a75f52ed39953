import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { middayZone } from '../support/midday-zone.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { startReceiver } from './domain-health-support.js';
import { createMailbox, createSequence, enroll, enrollment, importProspects } from './ingest-support.js';

/**
 * Do-not-contact hours per recipient country (COMPLIANCE_DO_NOT_CONTACT) on the
 * sandbox, in real time (TIME_SCALE 1: a compressed day has no hours): a rule for DE
 * with no contact before a minute or so from now holds the first touch to a German
 * prospect from enrollment on (placed at the end of the hours, and "why isn't it
 * sending?" says the country holds it), while a prospect of another country is sent
 * at once; once the hours end, the touch goes.
 */
describe('do-not-contact hours hold the first touch from enrollment on', () => {
  let sys: TestSystem;
  const now = Date.now();
  const mz = middayZone(now);
  // Between 45 and 105 s from now, local: before it, no contact in DE.
  const notBefore = mz.time(45_000);
  const opens = mz.at(0, notBefore);

  beforeAll(async () => {
    sys = await startTestSystem('compliance_dnc', {
      TIME_SCALE: '1',
      COMPLIANCE_DO_NOT_CONTACT: JSON.stringify({ DE: { notBefore } }),
    });
  });
  afterAll(async () => {
    await sys?.stop();
  });

  it('nothing goes to DE before the hours end, the waiting route says why, and it goes after', async () => {
    const mailboxId = await createMailbox(sys); // no sending window: only the country's hours
    const sequenceId = await createSequence(sys, 2, '1d');
    const p = await sys.api('POST', '/v1/prospects', {
      prospects: [
        { email: 'dora@dnc-de.example', timezone: mz.zone, attributes: { country: 'DE' } },
        { email: 'sam@dnc-us.example', timezone: mz.zone, attributes: { country: 'US' } },
      ],
    });
    expect(p.status).toBeLessThan(300);
    const [de, us] = p.body.prospects.map((x: { id: string }) => x.id) as string[];
    const rows = await enroll(sys, sequenceId, mailboxId, [de!, us!]);
    const byProspect = new Map(rows.map((r) => [r.prospectId, r.id]));
    const eDe = byProspect.get(de!)!;
    const eUs = byProspect.get(us!)!;

    // Another country: sent at once.
    await waitFor('the US prospect touched', async () => (await enrollment(sys, eUs)).currentStep === 2);

    // DE: placed at the end of the hours at enrollment, with its own time kept.
    const row = await enrollment(sys, eDe);
    expect(row.currentStep).toBe(1);
    expect(Date.parse(row.nextTouchAt!)).toBe(opens);
    const waiting = (await sys.api('GET', `/v1/enrollments/${eDe}/waiting`)).body.waiting;
    expect(waiting).toEqual({
      reason: 'do_not_contact_hours',
      until: new Date(opens).toISOString(),
      detail: 'no contact at this time in DE',
    });
    const list = await sys.api(
      'GET',
      `/v1/enrollments?waiting=do_not_contact_hours&sequenceId=${sequenceId}`,
    );
    expect(list.body.items.map((e: { id: string }) => e.id)).toEqual([eDe]);
    expect(sys.sandbox.deliveries().filter((d) => d.to === 'dora@dnc-de.example')).toEqual([]);

    // A change of the mailbox's window re-times pending touches from their raw time:
    // the re-fit keeps the country's hours (the raw time has passed, the window is open).
    const changed = await sys.api('PUT', `/v1/mailboxes/${mailboxId}/sending-window`, {
      windowDays: [],
      holidays: ['2099-01-01'],
    });
    expect(changed.status).toBe(200);
    expect(changed.body.retime.checked).toBeGreaterThanOrEqual(1);
    expect(Date.parse((await enrollment(sys, eDe)).nextTouchAt!)).toBe(opens);

    // The hours end: the touch goes, never before.
    const sent = await waitFor(
      'the DE prospect touched after the hours',
      () => sys.sandbox.deliveries().find((d) => d.to === 'dora@dnc-de.example'),
      { timeoutMs: 150_000 },
    );
    expect(Date.parse(sent.at)).toBeGreaterThanOrEqual(opens);
    await waitFor('DE advanced', async () => (await enrollment(sys, eDe)).currentStep === 2);
  }, 180_000);
});

/**
 * The completion-rate floor (DOMAIN_HEALTH_COMPLETION_FLOOR) on the sandbox, in
 * compressed time, through the real paths: sequences that run through every step and
 * sequences cancelled early end on one sending domain; below the floor a run of the
 * guard raises one `domain.completion_low` alert, delivered with the reason in words.
 * As documented (docs/architecture.md, apps/domain-health/README.md), it alerts and
 * does not pause: the domain stays active and a new enrollment on it is sent.
 */
describe('the completion-rate floor alerts, in words, and does not pause', () => {
  let sys: TestSystem;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    receiver = await startReceiver();
    sys = await startTestSystem('compliance_floor', {
      ALERT_SLACK_WEBHOOK_URL: `${receiver.url}/slack`,
      DOMAIN_HEALTH_COMPLETION_FLOOR: '0.5',
      DOMAIN_HEALTH_COMPLETION_MIN_ENDED: '6',
    });
    // The job scheduler's first tick passes over the empty database.
    await waitFor(
      'the first scheduled tick',
      async () => (await sys.api('GET', '/v1/domains/health')).body.account.checkedAt,
    );
  });
  afterAll(async () => {
    await sys?.stop();
    await receiver?.close();
  });

  it('2 of 6 ran through every step: one alert with the reason, the domain keeps sending', async () => {
    const mailboxId = await createMailbox(sys);
    const domainId = (await sys.api('GET', `/v1/mailboxes/${mailboxId}`)).body.domainId as string;
    const short = await createSequence(sys, 2, '1d'); // 300 ms a day
    const long = await createSequence(sys, 3, '300d');

    const done = await enroll(
      sys,
      short,
      mailboxId,
      await importProspects(sys, [{ email: 'a@floor-a.example' }, { email: 'b@floor-b.example' }]),
    );
    const early = await enroll(
      sys,
      long,
      mailboxId,
      await importProspects(
        sys,
        Array.from({ length: 4 }, (_, i) => ({ email: `c${i}@floor-c${i}.example` })),
      ),
    );
    await waitFor('the short ones ran through every step', async () =>
      (await Promise.all(done.map((e) => enrollment(sys, e.id)))).every((r) => r.status === 'exhausted'),
    );
    await waitFor('the long ones touched once', async () =>
      (await Promise.all(early.map((e) => enrollment(sys, e.id)))).every((r) => r.currentStep === 2),
    );
    for (const e of early) {
      const r = await sys.api('POST', `/v1/enrollments/${e.id}/cancel`, { reason: 'list was off' });
      expect(r.status).toBe(200);
    }

    const run = await sys.api('POST', '/v1/domains/health/run');
    expect(run.status).toBe(200);
    expect(run.body.state, JSON.stringify(run.body)).toBe('completed');

    const alerts = (await sys.api('GET', `/v1/alerts?domainId=${domainId}`)).body.items.filter(
      (a: { kind: string }) => a.kind === 'domain.completion_low',
    );
    expect(alerts).toHaveLength(1);
    expect(alerts[0].message).toContain('2 of 6 sequences that ended');
    expect(alerts[0].message).toContain('33.3%');
    expect(alerts[0].message).toContain('floor 50%');
    const slack = await waitFor('the alert delivered to Slack', () =>
      receiver.received.find((r) => r.path === '/slack' && r.body.text.includes('completion rate below')),
    );
    expect(slack.body.text).toContain('2 of 6 sequences that ended');

    // Alerts only: the domain stays active, and a new enrollment on it is sent.
    const domain = await sys.api('GET', `/v1/domains/${domainId}`);
    expect(domain.body.status).toBe('active');
    const [later] = await enroll(
      sys,
      long,
      mailboxId,
      await importProspects(sys, [{ email: 'd@floor-d.example' }]),
    );
    await waitFor('sent after the alert', async () => (await enrollment(sys, later!.id)).currentStep === 2);

    // A second run raises no second alert while the rate stays low.
    expect((await sys.api('POST', '/v1/domains/health/run')).body.state).toBe('completed');
    const again = (await sys.api('GET', `/v1/alerts?domainId=${domainId}`)).body.items.filter(
      (a: { kind: string }) => a.kind === 'domain.completion_low',
    );
    expect(again).toHaveLength(1);
  });
});

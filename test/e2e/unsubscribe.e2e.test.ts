import { signUnsubscribeToken, verifyUnsubscribeToken } from '@touchbase/providers';
import { freePort, waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import {
  allowSharedPeople,
  createMailbox,
  createSequence,
  enroll,
  enrollment,
  importProspects,
} from './ingest-support.js';

const SECRET = 'unsubscribe-secret-of-the-e2e-test';

/**
 * One-click unsubscribe (RFC 8058) against the whole system: the link is the one
 * the sandbox provider received in the touch, as a prospect's mail client would
 * see it in List-Unsubscribe.
 */
describe('one-click unsubscribe under /u/{token} (whole system)', () => {
  let sys: TestSystem;
  let base: string;
  let mailboxId: string;
  let sequences: string[];

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    sys = await startTestSystem('unsubscribe', {
      INGEST_PORT: String(port),
      INGEST_PUBLIC_URL: base,
      UNSUBSCRIBE_SECRET: SECRET,
    });
    mailboxId = await createMailbox(sys);
    // Long waits: after the first touch each enrollment stays active with a pending job.
    sequences = [await createSequence(sys, 3, '300d'), await createSequence(sys, 3, '300d')];
    // One person in both at once: the two opt out of exclusivity and the cooldown.
    for (const sequenceId of sequences) await allowSharedPeople(sys, sequenceId);
  });
  afterAll(async () => {
    await sys?.stop();
  });

  /** A prospect in both sequences, each past its first touch; returns the links it received. */
  async function live(email: string) {
    const [prospectId] = await importProspects(sys, [{ email }]);
    const enrollmentIds: string[] = [];
    for (const sequenceId of sequences) {
      const [e] = await enroll(sys, sequenceId, mailboxId, [prospectId!]);
      enrollmentIds.push(e!.id);
    }
    const deliveries = await waitFor('both first touches', () => {
      const d = enrollmentIds.map((id) => sys.sandbox.deliveries().find((x) => x.enrollmentId === id));
      return d.every(Boolean) ? d.map((x) => x!) : null;
    });
    await waitFor('both enrollments at step 2', async () => {
      for (const id of enrollmentIds) if ((await enrollment(sys, id)).currentStep !== 2) return false;
      return true;
    });
    return { prospectId: prospectId!, enrollmentIds, links: deliveries.map((d) => d.unsubscribeUrl!) };
  }

  const pending = async (enrollmentIds: string[]) =>
    (await sys.rt.touchQueue.existing(enrollmentIds.map((id) => `${id}-2`))).size;
  const statuses = async (enrollmentIds: string[]) =>
    Promise.all(enrollmentIds.map(async (id) => (await enrollment(sys, id)).status));
  const suppressed = async (email: string) =>
    (await sys.api('GET', '/v1/suppressions')).body.items.some((s: { value: string }) => s.value === email);
  const oneClickEvents = async () => sys.rt.repos.events.countBySource('one-click');
  const post = (url: string, body: string, accept = '*/*') =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept },
      body,
    });

  it('every touch carries the signed link of its enrollment, built from INGEST_PUBLIC_URL', async () => {
    const p = await live('links@prospect.example');
    p.links.forEach((link, i) => {
      expect(link.startsWith(`${base}/u/`)).toBe(true);
      expect(verifyUnsubscribeToken(link.slice(`${base}/u/`.length), SECRET)).toBe(p.enrollmentIds[i]);
    });
  });

  it('GET shows a confirmation page with a button and changes nothing (mail scanners prefetch links)', async () => {
    const p = await live('prefetch@prospect.example');
    for (let i = 0; i < 3; i++) {
      const res = await fetch(p.links[0]!, { headers: { accept: 'text/html' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      const html = await res.text();
      expect(html).toContain(`<form method="post" action="${new URL(p.links[0]!).pathname}">`);
      expect(html).toContain('<button type="submit">Unsubscribe</button>');
    }
    expect((await fetch(p.links[0]!, { method: 'HEAD' })).status).toBe(200);
    expect(await statuses(p.enrollmentIds)).toEqual(['active', 'active']);
    expect(await pending(p.enrollmentIds)).toBe(2);
    expect(await suppressed('prefetch@prospect.example')).toBe(false);
    expect(await oneClickEvents()).toEqual([]);
  });

  it('a tampered or forged token gets 404 and nothing is recorded or changed', async () => {
    const p = await live('tamper@prospect.example');
    const link = p.links[0]!;
    const token = link.slice(`${base}/u/`.length);
    const [id64, mac] = token.split('.') as [string, string];
    const flipped = `${id64}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
    const otherEnrollment = Buffer.from(p.enrollmentIds[1]!).toString('base64url');
    const attempts = [
      `${base}/u/${flipped}`,
      `${base}/u/${otherEnrollment}.${mac}`,
      `${base}/u/${signUnsubscribeToken(p.enrollmentIds[0]!, 'someone-elses-secret-key')}`,
      `${base}/u/${token}.x`,
      `${base}/u/not-a-token`,
    ];
    for (const url of attempts) {
      const res = await post(url, 'List-Unsubscribe=One-Click');
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(((await res.json()) as { code: string }).code).toBe('invalid_unsubscribe_token');
      const page = await fetch(url, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(404);
      expect(await page.text()).toContain('This unsubscribe link is not valid');
    }
    expect(await oneClickEvents()).toEqual([]);
    expect(await statuses(p.enrollmentIds)).toEqual(['active', 'active']);
    expect(await pending(p.enrollmentIds)).toBe(2);
    expect(await suppressed('tamper@prospect.example')).toBe(false);
    const metrics = await fetch(`${sys.apiUrl}/metrics`).then((r) => r.text());
    expect(metrics).toContain(
      'touchbase_ingest_events_total{source="one-click",type="unsubscribe",outcome="rejected_bad_token"} 5',
    );
  });

  it('the RFC 8058 one-click POST ends every live enrollment, suppresses, removes the jobs and is audited, once', async () => {
    const p = await live('oneclick@prospect.example');
    const bystander = await live('bystander@prospect.example');

    const res = await post(p.links[0]!, 'List-Unsubscribe=One-Click');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ unsubscribed: true, duplicate: false, outcome: 'applied' });

    // Acknowledged means done: both sequences (the link named only one), the address, the jobs.
    const ended = await Promise.all(p.enrollmentIds.map((id) => enrollment(sys, id)));
    expect(ended.map((e) => [e.status, e.stopReason])).toEqual([
      ['unsubscribed', 'unsubscribe'],
      ['unsubscribed', 'unsubscribe'],
    ]);
    expect(await suppressed('oneclick@prospect.example')).toBe(true);
    expect(await pending(p.enrollmentIds)).toBe(0);
    const events = (await sys.api('GET', `/v1/events?prospectId=${p.prospectId}`)).body.items;
    expect(events.filter((e: { source: string }) => e.source === 'one-click')).toEqual([
      expect.objectContaining({ type: 'unsubscribe', outcome: 'applied', enrollmentId: p.enrollmentIds[0] }),
    ]);
    const recorded = await sys.rt.db.pool.query(
      `SELECT payload->'data'->>'via' AS via, payload::text AS raw FROM event WHERE source = 'one-click'`,
    );
    expect(recorded.rows.map((r) => r.via)).toEqual(['one-click']);
    // The log keeps a hash of the link, not the link itself.
    expect(recorded.rows[0].raw).not.toContain(new URL(p.links[0]!).pathname.slice(3));
    const audit = (await sys.api('GET', `/v1/audit?entityType=prospect&entityId=${p.prospectId}`)).body.items;
    expect(audit).toEqual([
      expect.objectContaining({
        actor: 'ingest:one-click',
        action: 'prospect.unsubscribed',
        data: expect.objectContaining({
          enrollmentId: p.enrollmentIds[0],
          enrollmentsEnded: expect.arrayContaining(p.enrollmentIds),
          suppressed: true,
        }),
      }),
    ]);
    expect(JSON.stringify(audit)).not.toContain('oneclick@');

    // A second click (the page's button after the mail provider's POST) is the same event.
    const again = await post(p.links[0]!, 'confirm=page', 'text/html');
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('You are unsubscribed');
    // RFC 8058 also allows the field as multipart/form-data.
    const form = new FormData();
    form.set('List-Unsubscribe', 'One-Click');
    const machine = await fetch(p.links[0]!, { method: 'POST', body: form });
    expect(machine.headers.get('content-type')).toContain('application/json');
    expect(await machine.json()).toMatchObject({ unsubscribed: true, duplicate: true });
    expect(await oneClickEvents()).toEqual([{ externalId: expect.any(String), n: 1, outcome: 'applied' }]);
    expect(
      (await sys.api('GET', `/v1/audit?entityType=prospect&entityId=${p.prospectId}`)).body.items,
    ).toHaveLength(1);

    // Nobody else is touched, and no further touch reaches the prospect.
    expect(await statuses(bystander.enrollmentIds)).toEqual(['active', 'active']);
    expect(await pending(bystander.enrollmentIds)).toBe(2);
    expect(sys.sandbox.deliveries().filter((d) => p.enrollmentIds.includes(d.enrollmentId))).toHaveLength(2);
    const enrolledAgain = await sys.api('POST', '/v1/enrollments', {
      sequenceId: await createSequence(sys, 1, '1d'),
      mailboxId,
      prospectIds: [p.prospectId],
    });
    expect([enrolledAgain.status, enrolledAgain.body.code]).toEqual([409, 'suppressed']);
  });

  it("the confirmation page's button unsubscribes too", async () => {
    const p = await live('button@prospect.example');
    const page = await (await fetch(p.links[1]!, { headers: { accept: 'text/html' } })).text();
    const action = /<form method="post" action="([^"]+)">/.exec(page)?.[1] ?? '';
    const res = await post(new URL(action, base).toString(), 'confirm=page', 'text/html');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('You are unsubscribed');
    expect(await statuses(p.enrollmentIds)).toEqual(['unsubscribed', 'unsubscribed']);
    expect(await suppressed('button@prospect.example')).toBe(true);
  });
});

import { signTrackingToken } from '@touchbase/core';
import { freePort, waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import { createMailbox, createSequence, enroll, importProspects } from './ingest-support.js';

const SECRET = 'tracking-secret-of-the-e2e-test';

/**
 * Open and click tracking served by ingest over real HTTP: the tokens of a real
 * touch, recorded once per (touch, kind) through the one record/apply use case.
 */
describe('open and click tracking under /t (whole system)', () => {
  let sys: TestSystem;
  let base: string;
  let touchId: string;
  let enrollmentId: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    sys = await startTestSystem('tracking', {
      INGEST_PORT: String(port),
      INGEST_PUBLIC_URL: base,
      TRACKING_SECRET: SECRET,
    });
    const mailboxId = await createMailbox(sys);
    const sequenceId = await createSequence(sys, 2, '300d');
    const [prospectId] = await importProspects(sys, [{ email: 'reader@prospect.example' }]);
    const [e] = await enroll(sys, sequenceId, mailboxId, [prospectId!]);
    enrollmentId = e!.id;
    touchId = await waitFor('the first touch', async () => {
      const { rows } = await sys.rt.db.pool.query<{ id: string }>(
        `SELECT id FROM touch WHERE enrollment_id = $1 AND status = 'sent'`,
        [enrollmentId],
      );
      return rows[0]?.id ?? null;
    });
  });
  afterAll(async () => {
    await sys?.stop();
  });

  const events = async (type: string) =>
    (
      await sys.rt.db.pool.query<{ external_id: string; payload: unknown }>(
        'SELECT external_id, payload FROM event WHERE source = $1 AND type = $2',
        ['tracking', type],
      )
    ).rows;
  const open = () => signTrackingToken({ touchId, enrollmentId, kind: 'open' }, SECRET);
  const click = (url: string) => signTrackingToken({ touchId, enrollmentId, kind: 'click', url }, SECRET);

  it('the pixel is a 1x1 GIF, never cached, and repeated opens are recorded once', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${base}/t/o/${open()}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/gif');
      expect(res.headers.get('cache-control')).toContain('no-store');
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.subarray(0, 6).toString('latin1')).toBe('GIF89a');
      expect(bytes.readUInt16LE(6)).toBe(1);
      expect(bytes.readUInt16LE(8)).toBe(1);
    }
    const opened = await events('opened');
    expect(opened.map((e) => e.external_id)).toEqual([`open:${touchId}`]);
  });

  it('a click redirects to the URL its token signs, recorded once for the touch whatever the link', async () => {
    const target = 'https://example.com/pricing?plan=team&ref=mail#top';
    for (const url of [target, target, 'https://example.com/other']) {
      const res = await fetch(`${base}/t/c/${click(url)}`, { redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(url);
    }
    const clicked = await events('clicked');
    expect(clicked.map((e) => e.external_id)).toEqual([`click:${touchId}`]);
  });

  it('a tampered, foreign or swapped token is a bare 404 and records nothing; no open redirect', async () => {
    const before = (await events('clicked')).length + (await events('opened')).length;
    const good = click('https://example.com/');
    const tampered = `${good.slice(0, -2)}${good.endsWith('AA') ? 'BB' : 'AA'}`;
    const foreign = signTrackingToken(
      { touchId, enrollmentId, kind: 'click', url: 'https://evil.example/' },
      'x'.repeat(32),
    );
    const bodies = new Set<string>();
    for (const path of [
      `/t/c/${tampered}`,
      `/t/c/${foreign}`,
      `/t/c/${open()}`,
      `/t/o/${good}`,
      `/t/c/${good}?url=https://evil.example/`.replace(good, 'not-a-token'),
      '/t/o/',
    ]) {
      const res = await fetch(`${base}${path}`, { redirect: 'manual' });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('location')).toBeNull();
      bodies.add(JSON.stringify({ ...((await res.json()) as object), instance: undefined }));
    }
    // Every refusal reads the same: nothing tells a forger how close it came.
    expect(bodies.size).toBeLessThanOrEqual(2);
    const after = (await events('clicked')).length + (await events('opened')).length;
    expect(after).toBe(before);
  });

  it('opens and clicks appear on the enrollment timeline as events of its prospect', async () => {
    const r = await sys.api('GET', `/v1/enrollments/${enrollmentId}/timeline`);
    expect(r.status).toBe(200);
    const types = JSON.stringify(r.body);
    expect(types).toContain('opened');
    expect(types).toContain('clicked');
  });
});

import { CanonicalEventSchema } from '@touchbase/core';
import { recordAndApplyEvent } from '@touchbase/use-cases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, openHarness } from './support/tick-harness.js';

const HOUR = 3_600_000;

describe('the domain-health tick over the rollup (real PostgreSQL and Redis)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await openHarness('dhtick');
  });
  afterAll(async () => {
    await h?.close();
  });

  it('the triggers keep the rollup on the real paths: a touch sent, a bounce ingested, an enrollment ended', async () => {
    const { mailboxId, domainId } = await h.domain('paths.example');
    const [prospect] = await h.repos.prospects.upsertMany([{ email: 'p1@prospect.example' }]);
    const { enrolled } = await h.repos.enrollments.enroll({
      sequenceId: h.sequence.id,
      sequenceVersionId: h.sequence.version.id,
      mailboxId,
      prospectIds: [prospect!.id],
      firstTouchAt: () => new Date(),
    });
    const enrollmentId = enrolled[0]!.id;
    expect(await h.repos.touches.claim(enrollmentId, 1, `${enrollmentId}-1`, 'p1@prospect.example')).toEqual({
      kind: 'claimed',
    });
    await h.repos.touches.recordSent({
      enrollmentId,
      step: 1,
      messageId: 'msg-paths-1',
      conversationId: 'c1',
      nextTouchAt: new Date(),
    });
    const event = (type: string, externalId: string, extra: object) =>
      CanonicalEventSchema.parse({ source: 'test', externalId, type, occurredAt: new Date(), ...extra });
    // A soft bounce does not count; the hard bounce found by our message id does, and ends the enrollment.
    await recordAndApplyEvent(
      h.repos.events,
      event('bounce', 'soft-1', { messageId: 'msg-paths-1', bounce: { hard: false, status: '4.2.2' } }),
    );
    await recordAndApplyEvent(
      h.repos.events,
      event('bounce', 'hard-1', { messageId: 'msg-paths-1', bounce: { hard: true, status: '5.1.1' } }),
    );

    const result = await h.tick();
    expect(result.folded).toBeGreaterThanOrEqual(3);
    const { rows } = await h.db.pool.query(
      'SELECT sends, bounces, complaints, replies, ended, completed FROM domain_daily_stat WHERE domain_id = $1',
      [domainId],
    );
    expect(rows).toEqual([{ sends: 1, bounces: 1, complaints: 0, replies: 0, ended: 1, completed: 0 }]);
    expect((await h.db.pool.query('SELECT count(*)::int AS n FROM domain_stat_delta')).rows[0].n).toBe(0);
    // One send is far below the minimum sample: a 100% bounce rate pauses nothing.
    expect((await h.domainRow(domainId)).status).toBe('active');
  });

  it('a bounce or a reply counts once per enrollment, however many times it is recorded', async () => {
    const { mailboxId, domainId } = await h.domain('once.example');
    const prospects = await h.repos.prospects.upsertMany([
      { email: 'gone@prospect.example' },
      { email: 'talks@prospect.example' },
    ]);
    const { enrolled } = await h.repos.enrollments.enroll({
      sequenceId: h.sequence.id,
      sequenceVersionId: h.sequence.version.id,
      mailboxId,
      prospectIds: prospects.map((p) => p.id),
      firstTouchAt: () => new Date(),
    });
    const [gone, talks] = enrolled.map((e) => e.id) as [string, string];
    for (const [id, email] of [
      [gone, 'gone@prospect.example'],
      [talks, 'talks@prospect.example'],
    ] as const) {
      await h.repos.touches.claim(id, 1, `${id}-1`, email);
      await h.repos.touches.recordSent({
        enrollmentId: id,
        step: 1,
        messageId: `msg-${id}`,
        conversationId: 'c',
        nextTouchAt: new Date(),
      });
    }
    const event = (source: string, type: string, enrollmentId: string, extra: object = {}) =>
      CanonicalEventSchema.parse({
        source,
        externalId: `${source}-${type}-${enrollmentId}`,
        type,
        occurredAt: new Date(),
        enrollmentId,
        ...extra,
      });
    // The sender's re-check saw the bounce first; the provider's webhook follows.
    await recordAndApplyEvent(
      h.repos.events,
      event('sandbox-recheck', 'bounce', gone, { bounce: { hard: true } }),
    );
    await recordAndApplyEvent(h.repos.events, event('sandbox', 'bounce', gone, { bounce: { hard: true } }));
    // Two replies from one prospect (the second from another provider delivery).
    await recordAndApplyEvent(h.repos.events, event('sandbox', 'reply', talks));
    await recordAndApplyEvent(h.repos.events, event('sandbox-inbound', 'reply', talks));
    await h.tick();
    const { rows } = await h.db.pool.query(
      'SELECT sends, bounces, replies FROM domain_daily_stat WHERE domain_id = $1',
      [domainId],
    );
    expect(rows).toEqual([{ sends: 2, bounces: 1, replies: 1 }]);
  });

  it('warns once at 80% of the threshold, however many ticks follow', async () => {
    const { mailboxId, domainId } = await h.domain('warn.example');
    await h.seed(mailboxId, { sends: 1000, bounces: 25 });
    const first = await h.tick();
    expect(first.approached).toContain('warn.example');
    await h.tick();
    await h.tick();
    const alerts = await h.alertsOf(domainId);
    expect(alerts.map((a) => a.kind)).toEqual(['domain.threshold_approached']);
    expect(alerts[0].message).toContain('25 of 1,000 sends bounced, 2.5% over 7 days');
    expect(alerts[0].data.thresholds.bounceThreshold).toBe(0.03);
    expect((await h.domainRow(domainId)).status).toBe('active');
  });

  it('pauses on spam complaints above 0.3%, with the reason on the record and in the audit log', async () => {
    const { mailboxId, domainId } = await h.domain('complaints.example');
    await h.seed(mailboxId, { sends: 2000, complaints: 7 });
    const result = await h.tick();
    expect(result.paused).toEqual(['complaints.example']);
    const row = await h.domainRow(domainId);
    expect(row).toMatchObject({ status: 'paused', pauseKind: 'complaint', pausedBy: 'domain-health' });
    expect(row.reason).toBe(
      'paused because 7 of 2,000 sends drew a spam complaint, 0.35% over 7 days, above 0.3%',
    );
    const audit = await h.repos.audit.list({ entityType: 'sending_domain', entityId: domainId }, 10);
    expect(audit.map((a: { action: string }) => a.action)).toEqual(['domain.paused']);
    expect(audit[0].data.figures).toMatchObject({ sends: 2000, complaints: 7 });
    await h.tick();
    expect((await h.alertsOf(domainId)).map((a) => a.kind)).toEqual(['domain.paused']);
  });

  it('a resume counts afresh: the bounces that caused the pause do not pause it again', async () => {
    const { mailboxId, domainId } = await h.domain('fresh.example');
    await h.seed(mailboxId, { sends: 1000, bounces: 31 });
    expect((await h.tick()).paused).toEqual(['fresh.example']);
    const resumed = await h.repos.sendingDomains.resume({
      domainId,
      actor: 'alice',
      reason: 'list cleaned',
      automatic: false,
      firstTouchAt: () => new Date(),
      alert: null,
    });
    expect(resumed).toEqual({ released: [], alertId: null });
    expect((await h.tick()).paused).toEqual([]);
    expect((await h.domainRow(domainId)).figures).toMatchObject({ sends: 0, bounces: 0 });
    // New sends are judged on their own: 3 of 60 (5%) pauses again.
    await h.seed(mailboxId, { sends: 60, bounces: 3 });
    expect((await h.tick()).paused).toEqual(['fresh.example']);
  });

  it('resumes a domain it paused once the rate stayed under the threshold for the cooling-off, and releases its held enrollments', async () => {
    const { mailboxId, domainId } = await h.domain('cool.example');
    const manual = await h.domain('manual.example');
    await h.seed(mailboxId, { sends: 100, bounces: 10 });
    expect((await h.tick()).paused).toEqual(['cool.example']);
    await h.repos.sendingDomains.pause({
      domainId: manual.domainId,
      actor: 'bob',
      kind: 'manual',
      reason: 'paused by bob: warming up',
      holdTouches: true,
      alert: { kind: 'domain.paused', message: 'paused by bob: warming up', data: {} },
    });
    const [prospect] = await h.repos.prospects.upsertMany([{ email: 'held@prospect.example' }]);
    const enroll = () =>
      h.repos.enrollments.enroll({
        sequenceId: h.sequence.id,
        sequenceVersionId: h.sequence.version.id,
        mailboxId,
        prospectIds: [prospect!.id],
        firstTouchAt: () => new Date(),
        whenDomainPaused: 'hold',
      });
    const { held, enrolled } = await enroll();
    expect(enrolled).toEqual([]);
    expect(held).toHaveLength(1);
    expect((await h.repos.enrollments.get(held[0]!.id)).status).toBe('queued');

    // Clean sends bring the rate under the threshold (10 of 1100): the cooling-off starts.
    await h.seed(mailboxId, { sends: 1000 });
    await h.seed(manual.mailboxId, { sends: 1000 });
    const start = Date.now();
    const cooling = { autoResumeAfterMs: 6 * HOUR };
    expect((await h.tick({ ...cooling, clock: () => new Date(start) })).resumed).toEqual([]);
    expect((await h.tick({ ...cooling, clock: () => new Date(start + 5 * HOUR) })).resumed).toEqual([]);
    const done = await h.tick({ ...cooling, clock: () => new Date(start + 6 * HOUR) });
    expect(done.resumed).toEqual(['cool.example']);
    expect(done.releasedEnrollments).toBe(1);
    expect((await h.domainRow(domainId)).status).toBe('active');
    expect((await h.domainRow(manual.domainId)).status).toBe('paused');
    expect((await h.repos.enrollments.get(held[0]!.id)).status).toBe('active');
    expect([...(await h.touchQueue.existing([`${held[0]!.id}-1`]))]).toEqual([`${held[0]!.id}-1`]);
    const audit = await h.repos.audit.list({ entityType: 'sending_domain', entityId: domainId }, 10);
    expect(audit.map((a: { action: string; actor: string }) => `${a.actor} ${a.action}`)).toEqual([
      'domain-health domain.paused',
      'domain-health domain.resumed',
    ]);
    expect((await h.alertsOf(domainId)).map((a) => a.kind)).toEqual(['domain.paused', 'domain.resumed']);
  });
});

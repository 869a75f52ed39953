import { randomUUID } from 'node:crypto';
import { emailHash } from '@touchbase/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestSystem } from '../support/test-system.js';
import {
  enrollment,
  eventCount,
  post,
  postHttp,
  postHubspot,
  startWebhookSystem,
  WEBHOOK_ENV,
  type WebhookSystem,
} from './ingest-support.js';

/**
 * The signed webhook endpoints against the whole system: Standard Webhooks and
 * HubSpot signatures over the raw body, stale and replayed deliveries, malformed
 * bodies, size limits, and each body normalised to a canonical event, recorded once
 * and applied.
 */
describe('ingest: signed webhook endpoints per provider', () => {
  let sys: TestSystem;
  let live: WebhookSystem['live'];
  let pending: WebhookSystem['pending'];

  beforeAll(async () => {
    ({ sys, live, pending } = await startWebhookSystem('ingest_webhooks_signed'));
  });
  afterAll(async () => {
    await sys?.stop();
  });

  describe('http provider (Standard Webhooks)', () => {
    it('a signed reply ends the sequence, removes the pending job, and keeps why it got its class', async () => {
      const p = await live('http-reply@prospect.example');
      expect(await pending(p.enrollmentId, 2)).toBe(1);
      const res = await postHttp(sys, `msg_${randomUUID()}`, {
        type: 'reply',
        occurred_at: new Date().toISOString(),
        message_id: p.messageId,
        text: 'No thanks, we are not interested.',
      });
      expect(res.status).toBe(200);
      expect(res.body.outcome).toBe('applied');
      expect((await enrollment(sys, p.enrollmentId)).status).toBe('replied');
      expect(await pending(p.enrollmentId, 2)).toBe(0);
      const events = (await sys.api('GET', `/v1/events?prospectId=${p.prospectId}`)).body.items;
      const reply = events.find((e: { type: string }) => e.type === 'reply');
      expect(reply.classification).toBe('not_interested');
      expect(reply.why.length).toBeGreaterThan(0);
    });

    it('a bad signature, a stale timestamp and missing headers get 401 problem+json; nothing is recorded', async () => {
      const before = await eventCount(sys);
      const payload = { type: 'reply', occurred_at: new Date().toISOString(), email: 'x@prospect.example' };
      const wrong = await postHttp(sys, 'msg_wrong', payload, {
        secret: 'whsec_d3Jvbmctc2VjcmV0LXdyb25nLXNlY3JldA==',
      });
      expect(wrong.status).toBe(401);
      expect(wrong.type).toContain('application/problem+json');
      expect(wrong.body.code).toBe('bad_signature');
      const stale = await postHttp(sys, 'msg_stale', payload, { nowMs: Date.now() - 6 * 60_000 });
      expect(stale.status).toBe(401);
      expect(stale.body.code).toBe('stale_timestamp');
      const bare = await post(sys, '/webhooks/http', JSON.stringify(payload));
      expect(bare.status).toBe(401);
      expect(bare.body.code).toBe('missing_headers');
      expect(await eventCount(sys)).toBe(before);
    });

    it('a replayed id is recorded once and changes nothing the second time, whatever its body says', async () => {
      const p = await live('http-replay@prospect.example');
      const id = `msg_${randomUUID()}`;
      const opened = await postHttp(sys, id, {
        type: 'opened',
        occurred_at: new Date().toISOString(),
        message_id: p.messageId,
      });
      expect(opened.body.duplicate).toBe(false);
      const before = await eventCount(sys);
      const replay = await postHttp(sys, id, {
        type: 'unsubscribe',
        occurred_at: new Date().toISOString(),
        message_id: p.messageId,
      });
      expect(replay.status).toBe(200);
      expect(replay.body.duplicate).toBe(true);
      expect(await eventCount(sys)).toBe(before);
      expect((await enrollment(sys, p.enrollmentId)).status).toBe('active');
    });

    it('malformed JSON, a bad field and a body naming nobody get 400 problem+json naming the field', async () => {
      const before = await eventCount(sys);
      const { standardWebhookHeaders } = await import('@touchbase/providers');
      const raw = '{"type": "reply",';
      const notJson = await post(
        sys,
        '/webhooks/http',
        raw,
        standardWebhookHeaders(WEBHOOK_ENV.HTTP_PROVIDER_WEBHOOK_SECRET, 'm1', raw),
      );
      expect(notJson.status).toBe(400);
      expect(notJson.type).toContain('application/problem+json');
      expect(notJson.body.code).toBe('malformed_json');
      const badType = await postHttp(sys, 'm2', {
        type: 'telepathy',
        occurred_at: new Date().toISOString(),
        email: 'a@b.example',
      });
      expect(badType.status).toBe(400);
      expect(badType.body.errors.map((e: { field: string }) => e.field)).toContain('body.type');
      const nobody = await postHttp(sys, 'm3', { type: 'reply', occurred_at: new Date().toISOString() });
      expect(nobody.status).toBe(400);
      expect(nobody.body.errors.map((e: { field: string }) => e.field)).toContain('body.email');
      expect(await eventCount(sys)).toBe(before);
    });

    it('a body over the limit gets 413 problem+json; nothing is recorded', async () => {
      const before = await eventCount(sys);
      const res = await postHttp(sys, 'm-big', {
        type: 'reply',
        occurred_at: new Date().toISOString(),
        email: 'big@prospect.example',
        text: 'x'.repeat(70_000),
      });
      expect(res.status).toBe(413);
      expect(res.type).toContain('application/problem+json');
      expect(await eventCount(sys)).toBe(before);
    });

    it("an event naming a message and a prospect we do not know changes nothing; a stranger's reply goes to triage", async () => {
      const p = await live('http-unknown@prospect.example');
      const ghost = await postHttp(sys, `msg_${randomUUID()}`, {
        type: 'unsubscribe',
        occurred_at: new Date().toISOString(),
        message_id: '<never-sent@nowhere>',
      });
      expect(ghost.status).toBe(200);
      expect(ghost.body.outcome).toBe('unknown_prospect');
      const stranger = await postHttp(sys, `msg_${randomUUID()}`, {
        type: 'reply',
        occurred_at: new Date().toISOString(),
        email: 'Stranger@Elsewhere.example',
        text: 'Who are you? Please tell me more about pricing.',
      });
      expect(stranger.body.outcome).toBe('unknown_prospect');
      expect(stranger.body.events[0].triaged).toBe(true);
      expect((await enrollment(sys, p.enrollmentId)).status).toBe('active');
      const triage = (await sys.api('GET', '/v1/triage')).body.items;
      const item = triage.find((t: { email: string }) => t.email === 'stranger@elsewhere.example');
      expect(item.kind).toBe('unknown_sender');
      expect(item.why.length).toBeGreaterThan(0);
    });
  });

  describe('hubspot (X-HubSpot-Signature-v3)', () => {
    const hubspot = (body: string, opts: { ts?: number; secret?: string } = {}) =>
      postHubspot(sys, body, opts);

    it('a GDPR deletion of a contact imported with its HubSpot id erases the prospect and keeps only a hash; stale or unsigned gets 401', async () => {
      const p = await live('hs-erase@prospect.example', undefined, '90210');
      const body = JSON.stringify([
        {
          eventId: 7001,
          subscriptionType: 'contact.privacyDeletion',
          occurredAt: Date.now(),
          objectId: 90210,
          portalId: 1,
        },
      ]);
      expect((await hubspot(body, { ts: Date.now() - 10 * 60_000 })).status).toBe(401);
      expect((await hubspot(body, { secret: 'some-other-secret-value' })).status).toBe(401);
      expect((await post(sys, '/webhooks/hubspot', body)).status).toBe(401);
      const res = await hubspot(body);
      expect(res.status).toBe(200);
      expect(res.body.outcome).toBe('erased');
      expect((await sys.api('GET', `/v1/prospects/${p.prospectId}`)).status).toBe(404);
      const { rows } = await sys.rt.db.pool.query(
        `SELECT kind, value FROM suppression WHERE value LIKE '%hs-erase%' OR (kind = 'hash' AND value = $1)`,
        [emailHash('hs-erase@prospect.example')],
      );
      expect(rows).toEqual([{ kind: 'hash', value: emailHash('hs-erase@prospect.example') }]);
      const audit = (await sys.api('GET', `/v1/audit?entityType=prospect&entityId=${p.prospectId}`)).body
        .items;
      expect(audit.map((a: { action: string }) => a.action)).toContain('prospect.erased');
      const logged = await sys.rt.db.pool.query(
        `SELECT payload::text AS p FROM event WHERE source = 'hubspot'`,
      );
      expect(logged.rows.some((r: { p: string }) => r.p.includes('hs-erase@'))).toBe(false);
    });

    it('an opt-out in HubSpot of a contact imported by CSV with its HubSpot ID column ends its sequences', async () => {
      const csv = await fetch(`${sys.apiUrl}/v1/prospects/import`, {
        method: 'POST',
        headers: { 'content-type': 'text/csv' },
        body: 'Email,First Name,HubSpot ID\nhs-optout@prospect.example,Opal,4242\n',
      });
      expect(csv.status).toBe(200);
      const p = await live('hs-optout@prospect.example');
      const res = await hubspot(
        JSON.stringify([
          {
            eventId: 7002,
            subscriptionType: 'contact.propertyChange',
            propertyName: 'hs_email_optout',
            propertyValue: 'true',
            occurredAt: Date.now(),
            objectId: 4242,
            portalId: 1,
          },
        ]),
      );
      expect(res.status).toBe(200);
      expect(res.body.outcome).toBe('applied');
      expect((await enrollment(sys, p.enrollmentId)).status).toBe('unsubscribed');
      expect(await pending(p.enrollmentId, 2)).toBe(0);
    });
  });
});

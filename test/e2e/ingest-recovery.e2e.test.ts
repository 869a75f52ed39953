import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { standardWebhookHeaders } from '@touchbase/providers';
import { loadRuntimeConfig } from '@touchbase/runtime';
import { freePort, waitFor } from '@touchbase/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRecover } from '../../cli/src/commands/recover.command.js';
import { killHard, spawnService } from '../support/child-service.js';
import { startTestSystem, type TestSystem } from '../support/test-system.js';
import {
  createMailbox,
  createSequence,
  enroll,
  enrollment,
  importProspects,
  WEBHOOK_ENV,
} from './ingest-support.js';

const API_KEY = 'pull-key-0123456789';

/**
 * A generic HTTP provider: every event goes into its log with a sequence number,
 * is pushed once as a signed webhook (a failed push is not retried: the event is
 * only in the stream), and can be read back with `GET /events?after=SEQ`.
 */
async function fakeHttpProvider(secret: string) {
  const log: { seq: number; id: string; event: object }[] = [];
  const pushes: { id: string; ok: boolean }[] = [];
  let webhookUrl = '';
  const app: FastifyInstance = Fastify({ logger: false });
  app.get<{ Querystring: { after?: string; limit?: string } }>('/events', async (req, reply) => {
    if (req.headers.authorization !== `Bearer ${API_KEY}`)
      return reply.code(401).send({ error: 'unauthorized' });
    const after = Number(req.query.after ?? 0);
    const limit = Number(req.query.limit ?? 100);
    const rest = log.filter((e) => e.seq > after);
    return { events: rest.slice(0, limit), has_more: rest.length > limit };
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    log,
    pushes,
    setWebhookUrl(u: string) {
      webhookUrl = u;
    },
    async emit(event: object): Promise<boolean> {
      const id = `evt_${randomUUID()}`;
      log.push({ seq: log.length + 1, id, event });
      const body = JSON.stringify(event);
      let ok = false;
      try {
        const res = await fetch(webhookUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...standardWebhookHeaders(secret, id, body) },
          body,
        });
        ok = res.ok;
      } catch {
        ok = false;
      }
      pushes.push({ id, ok });
      return ok;
    },
    close: () => app.close(),
  };
}

/**
 * Recovery: ingest is taken down while the provider sends events; the webhooks
 * are lost. Once ingest is back, `touchbase recover --provider http` walks the
 * provider's stream from the persisted cursor and every event ends up applied
 * exactly once: those that came by webhook are not recorded twice.
 */
describe('recovery: events missed while ingest was down', () => {
  let sys: TestSystem;
  let provider: Awaited<ReturnType<typeof fakeHttpProvider>>;
  let ingest: ChildProcess | null = null;
  let ingestEnv: Record<string, string>;

  beforeAll(async () => {
    provider = await fakeHttpProvider(WEBHOOK_ENV.HTTP_PROVIDER_WEBHOOK_SECRET);
    sys = await startTestSystem('ingest_recovery', {
      ...WEBHOOK_ENV,
      HTTP_PROVIDER_URL: provider.url,
      HTTP_PROVIDER_TOKEN: API_KEY,
    });
    const port = await freePort();
    ingestEnv = { ...sys.env, INGEST_PORT: String(port) };
    provider.setWebhookUrl(`http://127.0.0.1:${port}/webhooks/http`);
  });
  afterAll(async () => {
    if (ingest) await killHard(ingest);
    await sys?.stop();
    await provider?.close();
  });

  async function startIngest() {
    ingest = spawnService('ingest', ingestEnv);
    await waitFor(
      'ingest up',
      async () => (await fetch(`http://127.0.0.1:${ingestEnv.INGEST_PORT}/healthz`)).ok,
      {
        timeoutMs: 30_000,
        intervalMs: 100,
      },
    );
  }

  it('takes ingest down, sends events, brings it back, recovers: every event applied exactly once', async () => {
    const mailboxId = await createMailbox(sys);
    const sequenceId = await createSequence(sys, 3, '300d');
    const emails = Array.from({ length: 30 }, (_, i) => `recover-${i}@stream.example`);
    const prospectIds = await importProspects(
      sys,
      emails.map((email) => ({ email })),
    );
    const enrolled = await enroll(sys, sequenceId, mailboxId, prospectIds);
    const byProspect = new Map(prospectIds.map((id, i) => [id, emails[i]!]));
    const reply = (e: { id: string; prospectId: string }) => ({
      type: 'reply',
      occurred_at: new Date().toISOString(),
      enrollment_id: e.id,
      email: byProspect.get(e.prospectId),
      text: 'No thanks.',
    });

    await startIngest();
    for (const e of enrolled.slice(0, 10)) expect(await provider.emit(reply(e))).toBe(true);

    await killHard(ingest!);
    ingest = null;
    for (const e of enrolled.slice(10, 20)) expect(await provider.emit(reply(e))).toBe(false);
    // An open for a known prospect and a reply from a stranger, lost as well.
    await provider.emit({
      type: 'opened',
      occurred_at: new Date().toISOString(),
      enrollment_id: enrolled[0]!.id,
    });
    await provider.emit({
      type: 'reply',
      occurred_at: new Date().toISOString(),
      email: 'who@stranger.example',
      text: 'Hi?',
    });
    for (const e of enrolled.slice(10, 20)) expect((await enrollment(sys, e.id)).status).toBe('active');

    await startIngest();
    for (const e of enrolled.slice(20, 30)) expect(await provider.emit(reply(e))).toBe(true);

    const lines: string[] = [];
    const config = loadRuntimeConfig(ingestEnv);
    expect(await runRecover(config, { provider: 'http', pageSize: 7 }, (l) => lines.push(l))).toBe(0);
    const report = JSON.parse(lines[0]!);
    expect(report).toMatchObject({
      provider: 'http',
      from: null,
      pulled: 32,
      recorded: 12,
      duplicates: 20,
      cursor: '32',
    });

    // Every event of the stream is in the log exactly once, and every reply applied.
    const recorded = await sys.rt.repos.events.countBySource('http');
    expect(recorded.map((r) => r.externalId).sort()).toEqual(provider.log.map((e) => e.id).sort());
    expect(recorded.every((r) => r.n === 1)).toBe(true);
    for (const e of enrolled) expect((await enrollment(sys, e.id)).status).toBe('replied');
    const { rows } = await sys.rt.db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM event WHERE source = 'http' AND type = 'reply' AND outcome = 'applied'`,
    );
    expect(rows[0]!.n).toBe(30);

    // A second recovery starts at the saved cursor and finds nothing new.
    lines.length = 0;
    expect(await runRecover(config, { provider: 'http' }, (l) => lines.push(l))).toBe(0);
    expect(JSON.parse(lines[0]!)).toMatchObject({ from: '32', pulled: 0, recorded: 0, cursor: '32' });
  });

  it('an unknown provider or a missing URL is refused with exit code 2', async () => {
    const lines: string[] = [];
    expect(
      await runRecover(loadRuntimeConfig(ingestEnv), { provider: 'smartlead' }, (l) => lines.push(l)),
    ).toBe(2);
    expect(lines[0]).toContain('no event stream');
  });
});

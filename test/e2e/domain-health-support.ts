import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { waitFor } from '@touchbase/testing';
import { expect } from 'vitest';
import { seedSends } from '../../apps/domain-health/test/support/seed-sends.js';
import { startTestSystem, steps, type TestSystem } from '../support/test-system.js';

/** The secret the signed generic alert webhook is verified with. */
export const SECRET = 'whsec_dG91Y2hiYXNlLW9wcy1hbGVydHMtc2VjcmV0';

// biome-ignore lint/suspicious/noExplicitAny: the bodies of two formats (Slack, Standard Webhooks), read by the assertions
type Received = { path: string; headers: IncomingHttpHeaders; raw: string; body: any; status: number };

/**
 * The ops side: a real HTTP server standing in for Slack's incoming webhook and
 * for a generic webhook endpoint. The generic one refuses the first delivery of a
 * `domain.paused` alert with a 503, to show the retry.
 */
export async function startReceiver() {
  const received: Received[] = [];
  const refusedOnce = new Set<string>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const body = JSON.parse(raw);
      let status = 200;
      if (req.url === '/hook' && body.type === 'domain.paused' && !refusedOnce.has(body.data.alertId)) {
        refusedOnce.add(body.data.alertId);
        status = 503;
      }
      received.push({ path: req.url ?? '', headers: req.headers, raw, body, status });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'try later');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { url, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** The whole system with alerts to the receiver, and four domains seeded with sends and bounces. */
export type HealthSystem = {
  sys: TestSystem;
  receiver: Awaited<ReturnType<typeof startReceiver>>;
  sequenceId: string;
  mailboxes: Record<string, { mailboxId: string; domainId: string }>;
};

/** Starts the receiver and the system, waits for the first scheduled tick and seeds the domains. */
export async function startHealthSystem(label: string): Promise<HealthSystem> {
  const mailboxes: HealthSystem['mailboxes'] = {};
  const receiver = await startReceiver();
  const sys = await startTestSystem(label, {
    ALERT_SLACK_WEBHOOK_URL: `${receiver.url}/slack`,
    ALERT_WEBHOOK_URL: `${receiver.url}/hook`,
    ALERT_WEBHOOK_SECRET: SECRET,
    PUBLIC_BASE_URL: 'http://touchbase.ops.example',
  });
  // The job scheduler runs a first tick at start; let it pass over the empty database
  // so that every later tick is one this test asks for.
  await waitFor(
    'the first scheduled tick',
    async () => (await sys.api('GET', '/v1/domains/health')).body.account.checkedAt,
  );
  const seq = await sys.api('POST', '/v1/sequences', { name: 'health', steps: steps(1) });
  expect(seq.status).toBe(201);
  const sequenceId = seq.body.id as string;
  const { rows } = await sys.rt.db.pool.query('SELECT id FROM sequence_version WHERE sequence_id = $1', [
    sequenceId,
  ]);
  const sequenceVersionId = rows[0].id as string;
  // Four domains, seeded through SQL (the rollup triggers fire as on the real paths):
  // 2.9% and 3.1% with plenty of sends, 20% on too few sends, and a large clean one
  // that keeps the account-wide rate low.
  const plan: [string, number, number][] = [
    ['stays.example', 1000, 29],
    ['pauses.example', 1000, 31],
    ['few.example', 10, 2],
    ['clean.example', 5000, 0],
  ];
  for (const [domain, sends, bounces] of plan) {
    const mb = await sys.api('POST', '/v1/mailboxes', {
      provider: 'sandbox',
      address: `sdr@${domain}`,
      windowDays: [],
    });
    expect(mb.status).toBe(201);
    mailboxes[domain] = { mailboxId: mb.body.id, domainId: mb.body.domainId };
    await seedSends(sys.rt.db.pool, {
      tag: domain.split('.')[0]!,
      mailboxId: mb.body.id,
      sequenceId,
      sequenceVersionId,
      sends,
      bounces,
    });
  }
  return { sys, receiver, sequenceId, mailboxes };
}

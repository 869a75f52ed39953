import { freePort, waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killHard, spawnService } from '../support/child-service.js';
import { seed, startTestSystem, type TestSystem } from '../support/test-system.js';

/**
 * The sender run alone has no HTTP server of its own; with METRICS_PORT it gets
 * one, so its metrics can be scraped and its readiness probed.
 */
describe('METRICS_PORT: /metrics, /healthz and /readyz of a worker-only service run alone', () => {
  let sys: TestSystem;
  beforeAll(async () => {
    sys = await startTestSystem('metrics_port', {}, { withoutSender: true });
  });
  afterAll(async () => {
    await sys?.stop();
  });

  it('the sender child process serves its own metrics, then stops them with the rest on SIGTERM', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const child = spawnService('sender', {
      ...sys.env,
      SANDBOX_URL: sys.sandbox.url,
      METRICS_PORT: String(port),
    });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      await waitFor('the sender to be ready', async () => (await fetch(`${url}/readyz`)).status === 200, {
        timeoutMs: 30_000,
        intervalMs: 100,
      });
      expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'ok' });
      expect(await (await fetch(`${url}/readyz`)).json()).toEqual({
        status: 'ready',
        checks: { postgres: 'ok', redis: 'ok' },
      });

      const ids = await seed(sys, { steps: 2, prospects: ['a@metrics.example', 'b@metrics.example'] });
      await sys.api('POST', '/v1/enrollments', {
        sequenceId: ids.sequenceId,
        mailboxId: ids.mailboxId,
        prospectIds: ids.prospectIds,
      });
      await waitFor('four touches delivered', () => sys.sandbox.deliveries().length === 4);
      const metrics = await waitFor('the sends counted in the child', async () => {
        const res = await fetch(`${url}/metrics`);
        const text = await res.text();
        return text.includes('touchbase_sender_touches_sent_total{provider="sandbox"} 4')
          ? { res, text }
          : null;
      });
      expect(metrics.res.headers.get('content-type')).toContain('text/plain');
      expect(metrics.text).toContain('# TYPE touchbase_sender_send_lag_seconds histogram');
      expect(metrics.text).toContain('touchbase_process_cpu_user_seconds_total');
      // The API of this process knows nothing of them: they live in the sender's process only.
      const apiMetrics = await fetch(`${sys.apiUrl}/metrics`).then((r) => r.text());
      expect(apiMetrics).not.toContain('touchbase_sender_touches_sent_total{provider="sandbox"}');

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    } finally {
      await killHard(child);
    }
  });
});

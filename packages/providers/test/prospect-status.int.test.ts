import { waitFor } from '@touchbase/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpProviderAdapter } from '../src/http/http.adapter.js';
import type { SendRequest } from '../src/provider-adapter.js';
import { SandboxAdapter } from '../src/sandbox/sandbox.adapter.js';
import { SandboxServer } from '../src/sandbox/sandbox-server.js';
import { type Recorded, RecordingServer, type Reply } from './support/recording-server.js';

const request = (to: string): SendRequest => ({
  idempotencyKey: 'e6a2c0a0-5f2e-4b6f-9d4b-2f7a3b1c9d00-2',
  from: 'sdr@sender.example',
  to,
  subject: 'Hello',
  body: 'Hi',
  metadata: { enrollmentId: 'e6a2c0a0-5f2e-4b6f-9d4b-2f7a3b1c9d00', step: 2, prospectId: 'p1' },
});

describe("the pre-send look at the provider's view of a prospect", () => {
  describe('http adapter: GET /prospects/{email}/status', () => {
    const statuses = new Map<string, Reply>([
      ['replied@prospect.example', { status: 200, body: { status: 'replied' } }],
      ['bounced@prospect.example', { status: 200, body: { status: 'bounced' } }],
      ['unsub@prospect.example', { status: 200, body: { status: 'unsubscribed' } }],
      ['active@prospect.example', { status: 200, body: { status: 'active' } }],
      ['odd@prospect.example', { status: 200, body: { status: 'something new' } }],
      ['down@prospect.example', { status: 503, body: { error: 'unavailable' } }],
      ['slow@prospect.example', 'hang'],
    ]);
    const server = new RecordingServer((req: Recorded): Reply => {
      if (req.headers.authorization !== 'Bearer hp-token') return { status: 401, body: {} };
      const email = decodeURIComponent(req.path.match(/^\/v2\/prospects\/([^/]+)\/status$/)?.[1] ?? '');
      return statuses.get(email) ?? { status: 404, body: { error: 'no such prospect' } };
    });
    let adapter: HttpProviderAdapter;
    beforeAll(async () => {
      await server.start();
      adapter = new HttpProviderAdapter({ baseUrl: `${server.url}/v2`, token: 'hp-token', timeoutMs: 5_000 });
    });
    afterAll(async () => {
      await adapter?.close();
      await server.close();
    });

    it('asks with GET, the bearer token and the address in the path, and maps the answer', async () => {
      expect(await adapter.prospectStatus(request('replied@prospect.example'), { timeoutMs: 500 })).toBe(
        'replied',
      );
      const asked = server.requests.at(-1)!;
      expect([asked.method, asked.path, asked.headers.authorization]).toEqual([
        'GET',
        `/v2/prospects/${encodeURIComponent('replied@prospect.example')}/status`,
        'Bearer hp-token',
      ]);
      expect(await adapter.prospectStatus(request('bounced@prospect.example'), { timeoutMs: 500 })).toBe(
        'bounced',
      );
      expect(await adapter.prospectStatus(request('unsub@prospect.example'), { timeoutMs: 500 })).toBe(
        'unsubscribed',
      );
      expect(await adapter.prospectStatus(request('active@prospect.example'), { timeoutMs: 500 })).toBe('ok');
      // A prospect the provider does not know: nothing against sending.
      expect(await adapter.prospectStatus(request('new@prospect.example'), { timeoutMs: 500 })).toBe('ok');
    });

    it('says unknown, without throwing, for an answer it does not know, a failure, and a timeout (within its bound)', async () => {
      expect(await adapter.prospectStatus(request('odd@prospect.example'), { timeoutMs: 500 })).toBe(
        'unknown',
      );
      expect(await adapter.prospectStatus(request('down@prospect.example'), { timeoutMs: 500 })).toBe(
        'unknown',
      );
      const started = Date.now();
      expect(await adapter.prospectStatus(request('slow@prospect.example'), { timeoutMs: 200 })).toBe(
        'unknown',
      );
      // The call's own bound, not the client's five seconds.
      expect(Date.now() - started).toBeLessThan(2_000);
    });
  });

  describe('sandbox: it remembers who replied or hard-bounced, whether or not its webhook got through', () => {
    const sandbox = new SandboxServer({ webhookSecret: 'whsec_dGVzdC1zZWNyZXQtZm9yLXNhbmRib3g=' });
    // Its webhooks are lost (a 404 is final for a provider): only the status endpoint can tell.
    const lost = new RecordingServer(() => ({ status: 404, body: {} }));
    let adapter: SandboxAdapter;
    beforeAll(async () => {
      const url = await sandbox.start();
      sandbox.setWebhookUrl(`${await lost.start()}/webhooks/sandbox`);
      adapter = new SandboxAdapter(url);
    });
    afterAll(async () => {
      await adapter?.close();
      await sandbox.close();
      await lost.close();
    });

    const send = (to: string, step: number, key: string) =>
      adapter.send({ ...request(to), idempotencyKey: key, metadata: { ...request(to).metadata, step } });

    it('answers replied, bounced or ok for an address, through its adapter', async () => {
      sandbox.script('answers@prospect.example', 'reply', 2);
      sandbox.script('dead@prospect.example', 'bounce');
      const ask = (to: string) => adapter.prospectStatus(request(to), { timeoutMs: 1_000 });
      await send('answers@prospect.example', 1, 'k-a-1');
      expect(await ask('answers@prospect.example')).toBe('ok');
      await send('answers@prospect.example', 2, 'k-a-2');
      // Known from the moment the sandbox answers (at once when scripted), webhook or not.
      await waitFor(
        'the reply to be known',
        async () => (await ask('answers@prospect.example')) === 'replied',
      );
      expect(await ask('Answers@Prospect.example')).toBe('replied');
      await send('dead@prospect.example', 1, 'k-d-1');
      await waitFor('the bounce to be known', async () => (await ask('dead@prospect.example')) === 'bounced');
      expect(await ask('nobody@prospect.example')).toBe('ok');
    });

    it('soft bounces repeat, `times` limits them, and they do not end the conversation', async () => {
      sandbox.script('full@prospect.example', 'soft_bounce', 1, undefined, 2);
      const answered: string[] = [];
      for (const key of ['k-f-1', 'k-f-1-2', 'k-f-1-3']) {
        await send('full@prospect.example', 1, key);
        answered.push(sandbox.prospectStatus('full@prospect.example'));
      }
      expect(answered).toEqual(['ok', 'ok', 'ok']);
      await sandbox.settled();
      const bounces = lost.requests
        .filter((r) => r.body?.email === 'full@prospect.example')
        .map((r) => [r.body.type, r.body.bounce?.hard, r.body.bounce?.status]);
      expect(bounces).toEqual([
        ['bounce', false, '4.2.2'],
        ['bounce', false, '4.2.2'],
      ]);
    });

    it('asks about the touches in flight together: one request, each answer to its own asker', async () => {
      const counted = new SandboxServer({ webhookSecret: 'whsec_dGVzdC1zZWNyZXQtZm9yLXNhbmRib3g=' });
      const paths: string[] = [];
      counted.app.addHook('onRequest', async (req) => {
        paths.push(`${req.method} ${req.url}`);
      });
      const url = await counted.start();
      const batched = new SandboxAdapter(url);
      try {
        counted.script('gone@prospect.example', 'bounce');
        await batched.send({ ...request('gone@prospect.example'), idempotencyKey: 'k-g-1' });
        await waitFor(
          'the bounce to be known',
          () => counted.prospectStatus('gone@prospect.example') === 'bounced',
        );
        paths.length = 0;
        const asked = ['ok1@prospect.example', 'gone@prospect.example', 'ok2@prospect.example'];
        const answers = await Promise.all(
          asked.map((to) => batched.prospectStatus(request(to), { timeoutMs: 1_000 })),
        );
        expect(answers).toEqual(['ok', 'bounced', 'ok']);
        expect(paths).toEqual(['POST /v1/prospects/status']);
        // A malformed look is refused, naming the field.
        const bad = await fetch(`${url}/v1/prospects/status`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ emails: [1, 2] }),
        });
        expect(bad.status).toBe(400);
        expect(await bad.json()).toMatchObject({ error: expect.stringMatching(/^emails:/) });
      } finally {
        await batched.close();
        await counted.close();
      }
    });

    it('a dead sandbox answers unknown within the bound', async () => {
      const dead = new SandboxAdapter('http://127.0.0.1:9');
      try {
        expect(await dead.prospectStatus(request('x@prospect.example'), { timeoutMs: 200 })).toBe('unknown');
      } finally {
        await dead.close();
      }
    });
  });
});

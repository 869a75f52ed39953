import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertDeliveryError } from '../src/alerts/ops-alert.js';
import { WebhookAlertChannel } from '../src/alerts/webhook-alert.channel.js';
import { classifyHttpStatus, HttpClient, HttpTransportError } from '../src/http/http-client.js';
import { parseRetryAfter } from '../src/http/retry-after.js';
import { HubspotCrmAdapter } from '../src/hubspot/hubspot-crm.adapter.js';
import { ProviderError } from '../src/provider-adapter.js';
import { HttpEventStream } from '../src/webhooks/http-pull.js';
import { RecordingServer, type Reply } from './support/recording-server.js';

/** An HTTP-date `seconds` from now, as a server writes it in Retry-After (whole seconds, GMT). */
const dateIn = (seconds: number) => new Date(Date.now() + seconds * 1000).toUTCString();

/**
 * The one HTTP client every provider call goes through, against a real server on
 * loopback: how each status is classified, how Retry-After is read in both its
 * forms, and what a missing answer is.
 */
describe('HttpClient', () => {
  const server = new RecordingServer(() => ({ status: 200, body: {} }));
  let client: HttpClient;
  beforeAll(async () => {
    await server.start();
    client = new HttpClient(`${server.url}/base?key=k`, { name: 'test api', timeoutMs: 300 });
  });
  afterAll(async () => {
    await client?.close();
    await server.close();
  });

  it('classifies 2xx ok; 408, 429 and 5xx retryable or rate limited; any other 4xx permanent', async () => {
    const cases: [number, string][] = [
      [200, 'ok'],
      [204, 'ok'],
      [400, 'permanent'],
      [401, 'permanent'],
      [404, 'permanent'],
      [409, 'permanent'],
      [408, 'retryable'],
      [429, 'rate_limited'],
      [500, 'retryable'],
      [502, 'retryable'],
      [503, 'retryable'],
    ];
    for (const [status, kind] of cases) {
      server.respond(() => ({ status, body: { status } }));
      const answer = await client.exchange({ method: 'GET', path: '/x' });
      expect([status, answer.kind]).toEqual([status, kind]);
      expect(classifyHttpStatus(status)).toBe(kind);
    }
  });

  it('reads Retry-After as delta-seconds and as an HTTP-date; absent or unreadable is undefined', async () => {
    const waits: (number | undefined)[] = [];
    for (const retryAfter of ['2', dateIn(30), 'Sun, 06 Nov 1994 08:49:37 GMT', 'soon', undefined]) {
      const reply: Reply = {
        status: 429,
        body: {},
        ...(retryAfter ? { headers: { 'retry-after': retryAfter } } : {}),
      };
      server.respond(() => reply);
      waits.push((await client.exchange({ method: 'GET', path: '/x' })).retryAfterMs);
    }
    const [seconds, date, past, unreadable, absent] = waits;
    expect(seconds).toBe(2000);
    // An HTTP-date has whole seconds: 30 s from now is 29 to 30 s away once read.
    expect(date).toBeGreaterThan(28_000);
    expect(date).toBeLessThanOrEqual(30_000);
    expect([past, unreadable, absent]).toEqual([0, undefined, undefined]);
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
  });

  it('joins the base path and query with the request path and query', async () => {
    server.respond(() => ({ status: 200, body: {} }));
    await client.exchange({
      method: 'GET',
      path: '/items?after=a%20b',
      query: { limit: 5, skip: undefined },
    });
    const last = server.requests.at(-1)!;
    expect([last.path, last.query]).toEqual(['/base/items', { key: 'k', after: 'a b', limit: '5' }]);
  });

  it('a timeout is retryable and may have reached the server; a refused connection certainly did not', async () => {
    server.respond(() => 'hang');
    const timeout = await client.exchange({ method: 'POST', path: '/slow', body: '{}' }).catch((e) => e);
    expect(timeout).toBeInstanceOf(HttpTransportError);
    expect([timeout.kind, timeout.notSent, timeout.stage]).toEqual(['retryable', false, 'request']);
    expect(timeout.message).toMatch(/^test api unreachable: /);
    const closed = new HttpClient('http://127.0.0.1:9/secret-path', { name: 'closed', timeoutMs: 300 });
    const refused = await closed.exchange({ method: 'GET', path: '' }).catch((e) => e);
    expect([refused.kind, refused.notSent, refused.code]).toEqual(['retryable', true, 'ECONNREFUSED']);
    expect(refused.message).not.toContain('secret-path');
    await closed.close();
  });
});

describe('every caller classifies through the one client', () => {
  const server = new RecordingServer(() => ({ status: 200, body: {} }));
  beforeAll(() => server.start());
  afterAll(() => server.close());

  it('HubSpot: 408, 429 and 5xx are retried with the wait Retry-After asked for (date or seconds); 403 is not; 404 is no contact', async () => {
    const hubspot = new HubspotCrmAdapter({
      baseUrl: server.url,
      accessToken: 'pat',
      property: 'touchbase_status',
      timeoutMs: 300,
    });
    const answers: Reply[] = [
      { status: 429, body: {}, headers: { 'retry-after': dateIn(20) } },
      { status: 503, body: {}, headers: { 'retry-after': '7' } },
      { status: 408, body: {} },
      { status: 403, body: { message: 'missing scope for a@b.example' } },
      { status: 404, body: {} },
      { status: 200, body: {} },
    ];
    const results = [];
    for (const answer of answers) {
      server.respond(() => answer);
      results.push(await hubspot.markEmailInvalid('a@b.example', 'bounce'));
    }
    const [limited, down, timeout, refused, missing, done] = results;
    expect(limited).toMatchObject({ kind: 'retry' });
    const wait = (limited as { retryAfterMs: number }).retryAfterMs;
    expect(wait).toBeGreaterThan(18_000);
    expect(wait).toBeLessThanOrEqual(20_000);
    expect(down).toMatchObject({ kind: 'retry', retryAfterMs: 7000 });
    expect(timeout).toMatchObject({ kind: 'retry' });
    expect(timeout).not.toHaveProperty('retryAfterMs');
    expect(refused).toMatchObject({ kind: 'permanent' });
    expect((refused as { error: string }).error).not.toContain('a@b.example');
    expect([missing, done]).toEqual([{ kind: 'not_found' }, { kind: 'done' }]);
    server.respond(() => 'hang');
    expect(await hubspot.markEmailInvalid('a@b.example', 'bounce')).toMatchObject({ kind: 'retry' });
    await hubspot.close();
  });

  it('a pull stream: 429 waits as told, 5xx retryable, 403 permanent, as ProviderErrors', async () => {
    const stream = new HttpEventStream({ baseUrl: server.url, apiKey: 'k', timeoutMs: 300 });
    const errors: ProviderError[] = [];
    for (const answer of [
      { status: 429, body: {}, headers: { 'retry-after': dateIn(10) } },
      { status: 502, body: {} },
      { status: 403, body: { error: 'no' } },
    ] as Reply[]) {
      server.respond(() => answer);
      errors.push(await stream.pull(null).catch((e) => e));
    }
    expect(errors.every((e) => e instanceof ProviderError)).toBe(true);
    expect(errors.map((e) => e.kind)).toEqual(['rate_limited', 'retryable', 'permanent']);
    expect(errors[0]!.retryAfterMs).toBeGreaterThan(8_000);
    expect(errors[0]!.retryAfterMs).toBeLessThanOrEqual(10_000);
    await stream.close();
  });

  it('an alert channel: 408, 429 and 5xx are retried, any other 4xx is final, no answer is retried', async () => {
    const channel = new WebhookAlertChannel(`${server.url}/hook`, 'whsec_c2VjcmV0', 300);
    const alert = {
      id: 'alert-1',
      kind: 'domain.paused' as const,
      title: 'paused',
      message: 'paused',
      domain: null,
      figures: {},
      thresholds: {},
      link: null,
      createdAt: new Date(),
    };
    const permanent: (boolean | 'delivered')[] = [];
    for (const status of [200, 408, 429, 500, 404, 410]) {
      server.respond(() => ({ status, body: {} }));
      permanent.push(
        await channel.send(alert).then(
          () => 'delivered' as const,
          (e: AlertDeliveryError) => e.permanent,
        ),
      );
    }
    expect(permanent).toEqual(['delivered', false, false, false, true, true]);
    server.respond(() => 'hang');
    const lost = await channel.send(alert).catch((e) => e);
    expect([lost instanceof AlertDeliveryError, lost.permanent]).toEqual([true, false]);
  });
});

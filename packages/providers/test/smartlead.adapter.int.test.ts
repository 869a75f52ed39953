import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError, type SendRequest } from '../src/provider-adapter.js';
import { SmartleadAdapter } from '../src/smartlead/smartlead.adapter.js';
import { type Recorded, RecordingServer, type Reply } from './support/recording-server.js';

// A fake Smartlead that checks requests as https://api.smartlead.ai/reference
// documents them: base /api/v1, api_key as a query parameter, JSON bodies.
type Lead = { id: number; email: string; campaignId: string; history: Record<string, string>[] };

function smartlead(leads: Map<string, Lead>) {
  return (req: Recorded): Reply => {
    if (req.query.api_key !== 'sl-key') return { status: 401, body: { message: 'Invalid API key' } };
    let m = req.path.match(/^\/api\/v1\/campaigns\/(\w+)\/leads$/);
    if (req.method === 'POST' && m) {
      const list = req.body?.lead_list;
      if (!Array.isArray(list) || list.length < 1 || list.length > 400 || !req.body.settings)
        return { status: 400, body: { message: 'bad lead_list' } };
      const email = String(list[0].email);
      if (leads.has(email))
        return {
          status: 200,
          body: { ok: true, upload_count: 0, already_added_to_campaign: 1, total_leads: 1 },
        };
      const id = leads.size + 100;
      // Smartlead sends the campaign's step 1 itself; its history then holds it.
      leads.set(email, {
        id,
        email,
        campaignId: m[1] as string,
        history: [
          {
            type: 'SENT',
            stats_id: `st-${id}`,
            message_id: `<first-${id}@smartlead>`,
            time: '2026-11-20T10:00:00Z',
            email_body: list[0].custom_fields.touchbase_body,
            subject: list[0].custom_fields.touchbase_subject,
          },
        ],
      });
      return {
        status: 200,
        body: { ok: true, upload_count: 1, already_added_to_campaign: 0, total_leads: 1 },
      };
    }
    if (req.method === 'GET' && req.path === '/api/v1/leads/') {
      const lead = leads.get(req.query.email ?? '');
      return lead
        ? { status: 200, body: { id: lead.id, email: lead.email } }
        : { status: 404, body: { message: 'Lead not found' } };
    }
    m = req.path.match(/^\/api\/v1\/campaigns\/(\w+)\/leads\/(\d+)\/message-history$/);
    if (req.method === 'GET' && m) {
      const lead = [...leads.values()].find((l) => String(l.id) === m?.[2]);
      return lead
        ? { status: 200, body: { history: lead.history, from: 'sdr@sender.example', to: lead.email } }
        : { status: 404, body: { message: 'no lead' } };
    }
    m = req.path.match(/^\/api\/v1\/campaigns\/(\w+)\/reply-email-thread$/);
    if (req.method === 'POST' && m) {
      const lead = [...leads.values()].find((l) =>
        l.history.some((h) => h.stats_id === req.body?.email_stats_id),
      );
      if (!lead || typeof req.body.email_body !== 'string')
        return { status: 400, body: { message: 'email_stats_id not found' } };
      lead.history.push({
        type: 'SENT',
        stats_id: `st-r${lead.history.length}`,
        message_id: `<reply-${lead.history.length}@smartlead>`,
        time: '2026-11-21T10:00:00Z',
        email_body: req.body.email_body,
      });
      return { status: 200, body: { message: 'Email added to the queue' } };
    }
    return { status: 404, body: { message: 'not found' } };
  };
}

const request = (step: number, conversationId: string | null = null): SendRequest => ({
  idempotencyKey: `0b9b6a7c-6f54-4a5e-9a43-3c1c2d0d1e2f-${step}`,
  from: 'sdr@sender.example',
  to: 'ada@prospect.example',
  subject: step === 1 ? 'Hello Ada' : 'Re: Hello Ada',
  body: `Touch ${step}\nfor <Ada>`,
  conversationId,
  metadata: { enrollmentId: '0b9b6a7c-6f54-4a5e-9a43-3c1c2d0d1e2f', step, prospectId: 'p1' },
  prospect: { firstName: 'Ada', lastName: 'Lovelace', company: 'Analytical' },
  mailboxConfig: { campaignId: 42 },
  unsubscribeUrl: 'https://t.example/u/abc',
});

describe('SmartleadAdapter against a Smartlead stand-in', () => {
  const leads = new Map<string, Lead>();
  const server = new RecordingServer(smartlead(leads));
  let adapter: SmartleadAdapter;
  beforeAll(async () => {
    await server.start();
    adapter = new SmartleadAdapter({ apiKey: 'sl-key', baseUrl: `${server.url}/api/v1`, timeoutMs: 2_000 });
  });
  afterAll(async () => {
    await adapter?.close();
    await server.close();
  });
  beforeEach(() => {
    server.respond(smartlead(leads));
  });

  it('adds the first touch as a lead of the mailbox campaign, with the copy in custom fields', async () => {
    const result = await adapter.send(request(1));
    expect(result).toEqual({ messageId: '', conversationId: '42' });
    const req = server.requests.at(-1)!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/api/v1/campaigns/42/leads');
    expect(req.query).toEqual({ api_key: 'sl-key' });
    expect(req.headers['content-type']).toBe('application/json');
    const lead = req.body.lead_list[0];
    expect(lead).toMatchObject({
      email: 'ada@prospect.example',
      first_name: 'Ada',
      last_name: 'Lovelace',
      company_name: 'Analytical',
    });
    expect(lead.custom_fields.touchbase_subject).toBe('Hello Ada');
    expect(lead.custom_fields.touchbase_body).toBe(
      `Touch 1<br>for &lt;Ada&gt;<!-- touchbase:${request(1).idempotencyKey} -->`,
    );
    expect(lead.custom_fields.touchbase_unsubscribe_url).toBe('https://t.example/u/abc');
    expect(req.body.settings).toEqual({
      ignore_global_block_list: false,
      ignore_unsubscribe_list: false,
      ignore_duplicate_leads_in_other_campaign: true,
    });
  });

  it('a retried first touch finds the lead already in the campaign: success, nothing added twice', async () => {
    const result = await adapter.send(request(1));
    expect(result.conversationId).toBe('42');
    expect(leads.size).toBe(1);
    expect(await adapter.status(request(1).idempotencyKey, request(1))).toEqual({
      state: 'sent',
      result: { messageId: '', conversationId: '42' },
    });
  });

  it('a follow-up replies in the thread of the first message, once, even when retried', async () => {
    const follow = request(2, '42');
    expect(await adapter.status(follow.idempotencyKey, follow)).toEqual({ state: 'not_found' });
    const before = server.requests.length;
    await adapter.send(follow);
    const calls = server.requests.slice(before);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET /api/v1/leads/',
      'GET /api/v1/campaigns/42/leads/100/message-history',
      'POST /api/v1/campaigns/42/reply-email-thread',
    ]);
    expect(calls[0]!.query).toEqual({ email: 'ada@prospect.example', api_key: 'sl-key' });
    expect(calls[2]!.body).toMatchObject({
      email_stats_id: 'st-100',
      reply_message_id: '<first-100@smartlead>',
      reply_email_time: '2026-11-20T10:00:00Z',
    });
    expect(calls[2]!.body.email_body).toContain(`<!-- touchbase:${follow.idempotencyKey} -->`);

    // Retried (the answer was lost): the history shows the key, nothing is posted again.
    const again = server.requests.length;
    const result = await adapter.send(follow);
    expect(result.messageId).toBe('<reply-1@smartlead>');
    expect(server.requests.slice(again).some((c) => c.method === 'POST')).toBe(false);
    expect(await adapter.status(follow.idempotencyKey, follow)).toMatchObject({ state: 'sent' });
  });

  it('classifies refusals: 429 waits Retry-After, 5xx retries, 4xx fails with the reason, a disconnected account is our setup', async () => {
    const cases: [Reply, string, number | undefined, boolean][] = [
      [
        { status: 429, body: { message: 'Rate limit exceeded' }, headers: { 'retry-after': '2' } },
        'rate_limited',
        2000,
        true,
      ],
      [{ status: 503, body: { message: 'Service unavailable' } }, 'retryable', undefined, false],
      [{ status: 422, body: { message: 'Invalid email format' } }, 'permanent', undefined, true],
      [
        { status: 400, body: { message: 'Email account disconnected, please reconnect' } },
        'our_setup',
        undefined,
        true,
      ],
      [{ status: 401, body: { message: 'Invalid API key' } }, 'our_setup', undefined, true],
    ];
    for (const [reply, kind, retryAfter, notSent] of cases) {
      server.respond(() => reply);
      const err = await adapter.send({ ...request(1), to: 'other@prospect.example' }).catch((e) => e);
      expect(err).toBeInstanceOf(ProviderError);
      expect(err.kind).toBe(kind);
      expect(err.retryAfterMs).toBe(retryAfter);
      expect(err.notSent).toBe(notSent);
    }
    server.respond(() => ({ status: 422, body: { message: 'Invalid email format' } }));
    await expect(adapter.send({ ...request(1), to: 'x@y.example' })).rejects.toThrow(/Invalid email format/);
  });

  it('a mailbox without a campaign id is our setup, refused before any call', async () => {
    const before = server.requests.length;
    const err = await adapter.send({ ...request(1), mailboxConfig: {} }).catch((e) => e);
    expect(err.kind).toBe('our_setup');
    expect(server.requests.length).toBe(before);
  });
});

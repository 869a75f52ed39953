import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LemlistAdapter } from '../src/lemlist/lemlist.adapter.js';
import { ProviderError, type SendRequest } from '../src/provider-adapter.js';
import { type Recorded, RecordingServer, type Reply } from './support/recording-server.js';

// A fake lemlist that checks requests as https://developer.lemlist.com documents
// them: base /api, HTTP Basic auth with an empty user and the key as password.
const AUTH = `Basic ${Buffer.from(':ll-key').toString('base64')}`;
type Lead = { _id: string; contactId: string; email: string; campaignId: string };

function lemlist(leads: Map<string, Lead>, inbox: Map<string, Record<string, unknown>[]>) {
  return (req: Recorded): Reply => {
    if (req.headers.authorization !== AUTH) return { status: 401, body: { message: 'Unauthorized' } };
    let m = req.path.match(/^\/api\/campaigns\/(\w+)\/leads\/([^/]+)$/);
    if (req.method === 'POST' && m) {
      const email = decodeURIComponent(m[2] as string);
      if (req.query.deduplicate === 'true' && leads.has(email))
        return { status: 400, body: 'Lead already in the campaign' };
      const lead = {
        _id: `lea_${leads.size + 1}`,
        contactId: `ctc_${leads.size + 1}`,
        email,
        campaignId: m[1] as string,
      };
      leads.set(email, lead);
      inbox.set(lead.contactId, [
        {
          type: 'emailsSent',
          messageId: '<first@lemlist>',
          message: req.body.touchbaseBody,
          leadId: lead._id,
        },
      ]);
      return { status: 200, body: { ...lead, ...req.body } };
    }
    m = req.path.match(/^\/api\/leads\/([^/]+)$/);
    if (req.method === 'GET' && m) {
      const lead = leads.get(decodeURIComponent(m[1] as string));
      return lead ? { status: 200, body: [lead] } : { status: 404, body: { message: 'Lead not found' } };
    }
    m = req.path.match(/^\/api\/inbox\/(\w+)$/);
    if (req.method === 'GET' && m) return { status: 200, body: { data: inbox.get(m[1] as string) ?? [] } };
    if (req.method === 'POST' && req.path === '/api/inbox/email') {
      const b = req.body ?? {};
      for (const f of [
        'sendUserId',
        'sendUserEmail',
        'sendUserMailboxId',
        'contactId',
        'leadId',
        'subject',
        'message',
      ]) {
        if (typeof b[f] !== 'string' || b[f] === '')
          return { status: 400, body: { message: `${f} is required` } };
      }
      inbox.get(b.contactId)?.push({
        type: 'emailsSent',
        messageId: `<r${Date.now()}@lemlist>`,
        message: b.message,
        leadId: b.leadId,
      });
      return { status: 200, body: { ok: true } };
    }
    return { status: 404, body: { message: 'not found' } };
  };
}

const request = (step: number, conversationId: string | null = null): SendRequest => ({
  idempotencyKey: `5d1f7c36-0e39-4f51-8d0b-7b7e9a4f0c11-${step}`,
  from: 'sdr@sender.example',
  to: 'grace@prospect.example',
  subject: step === 1 ? 'Hello Grace' : 'Re: Hello Grace',
  body: `Touch ${step}`,
  conversationId,
  metadata: { enrollmentId: '5d1f7c36-0e39-4f51-8d0b-7b7e9a4f0c11', step, prospectId: 'p1' },
  prospect: { firstName: 'Grace', lastName: 'Hopper', company: 'Navy' },
  mailboxConfig: { campaignId: 'cam_A1', sendUserId: 'usr_1', sendUserMailboxId: 'usm_1' },
});

describe('LemlistAdapter against a lemlist stand-in', () => {
  const leads = new Map<string, Lead>();
  const inbox = new Map<string, Record<string, unknown>[]>();
  const server = new RecordingServer(lemlist(leads, inbox));
  let adapter: LemlistAdapter;
  beforeAll(async () => {
    await server.start();
    adapter = new LemlistAdapter({ apiKey: 'll-key', baseUrl: `${server.url}/api`, timeoutMs: 2_000 });
  });
  afterAll(async () => {
    await adapter?.close();
    await server.close();
  });
  beforeEach(() => server.respond(lemlist(leads, inbox)));

  it('adds the first touch as a lead of the campaign, authenticated with Basic auth', async () => {
    const result = await adapter.send(request(1));
    expect(result).toEqual({ messageId: '', conversationId: 'lea_1/ctc_1' });
    const req = server.requests.at(-1)!;
    expect(`${req.method} ${req.path}`).toBe('POST /api/campaigns/cam_A1/leads/grace%40prospect.example');
    expect(req.query).toEqual({ deduplicate: 'true' });
    expect(req.headers.authorization).toBe(AUTH);
    expect(req.body).toMatchObject({
      firstName: 'Grace',
      lastName: 'Hopper',
      companyName: 'Navy',
      touchbaseSubject: 'Hello Grace',
      touchbaseKey: request(1).idempotencyKey,
    });
  });

  it('a retried first touch meets "already in the campaign" and resolves to the existing lead', async () => {
    expect(await adapter.send(request(1))).toEqual({ messageId: '', conversationId: 'lea_1/ctc_1' });
    expect(leads.size).toBe(1);
    expect(await adapter.status(request(1).idempotencyKey, request(1))).toMatchObject({ state: 'sent' });
  });

  it('a follow-up goes through the inbox as the mailbox sender, once, even when retried', async () => {
    const follow = request(2, 'lea_1/ctc_1');
    expect(await adapter.status(follow.idempotencyKey, follow)).toEqual({ state: 'not_found' });
    await adapter.send(follow);
    const post = server.requests.filter((r) => r.method === 'POST' && r.path === '/api/inbox/email');
    expect(post).toHaveLength(1);
    expect(post[0]!.body).toMatchObject({
      sendUserId: 'usr_1',
      sendUserEmail: 'sdr@sender.example',
      sendUserMailboxId: 'usm_1',
      contactId: 'ctc_1',
      leadId: 'lea_1',
      subject: 'Re: Hello Grace',
    });
    expect(post[0]!.body.message).toContain(`<!-- touchbase:${follow.idempotencyKey} -->`);
    await adapter.send(follow);
    expect(server.requests.filter((r) => r.method === 'POST' && r.path === '/api/inbox/email')).toHaveLength(
      1,
    );
    expect(await adapter.status(follow.idempotencyKey, follow)).toMatchObject({ state: 'sent' });
  });

  it('classifies refusals: 429 with Retry-After, 5xx, 4xx with the reason, a disconnected mailbox', async () => {
    const cases: [Reply, string, number | undefined][] = [
      [
        { status: 429, body: { message: 'Too many requests' }, headers: { 'retry-after': '3' } },
        'rate_limited',
        3000,
      ],
      [{ status: 502, body: { message: 'Bad gateway' } }, 'retryable', undefined],
      [{ status: 400, body: { message: 'Invalid email' } }, 'permanent', undefined],
      [
        { status: 400, body: { message: 'Your mailbox is disconnected, reconnect it in settings' } },
        'our_setup',
        undefined,
      ],
    ];
    for (const [reply, kind, retryAfter] of cases) {
      server.respond(() => reply);
      const err = await adapter.send({ ...request(1), to: 'new@prospect.example' }).catch((e) => e);
      expect(err).toBeInstanceOf(ProviderError);
      expect([err.kind, err.retryAfterMs]).toEqual([kind, retryAfter]);
    }
  });

  it('a follow-up from a mailbox without its lemlist sender is our setup', async () => {
    const err = await adapter
      .send({ ...request(3, 'lea_1/ctc_1'), mailboxConfig: { campaignId: 'cam_A1' } })
      .catch((e) => e);
    expect(err.kind).toBe('our_setup');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LinkedInActionError } from '../src/linkedin/linkedin-sender.port.js';
import { UnipileLinkedInSender } from '../src/linkedin/unipile.adapter.js';
import { type Recorded, RecordingServer, type Reply } from './support/recording-server.js';

// A stand-in for Unipile's REST API as https://developer.unipile.com documents it:
// base /api/v1, X-API-KEY, GET /users/{public id}?account_id=, POST /users/invite
// (JSON), POST /chats (multipart), RFC 7807 errors whose `type` names the refusal.
const KEY = 'unipile-test-key';
type Member = { provider_id: string; network_distance: string };
const members = new Map<string, Member>([
  ['grace-hopper', { provider_id: 'ACoAAAgrace', network_distance: 'SECOND_DEGREE' }],
  ['ada-lovelace', { provider_id: 'ACoAAAada', network_distance: 'FIRST_DEGREE' }],
  ['alan-turing', { provider_id: 'ACoAAAalan', network_distance: 'THIRD_DEGREE' }],
]);
const invited = new Set<string>();

function field(raw: string, name: string): string | undefined {
  return new RegExp(`name="${name}"\\r\\n\\r\\n([\\s\\S]*?)\\r\\n--`).exec(raw)?.[1];
}

function unipile(req: Recorded): Reply {
  if (req.headers['x-api-key'] !== KEY)
    return { status: 401, body: { status: 401, type: 'errors/missing_credentials', title: 'Unauthorized' } };
  if (req.query.account_id === 'acc_restricted' || req.body?.account_id === 'acc_restricted')
    return { status: 403, body: { status: 403, type: 'errors/account_restricted', title: 'Restricted' } };
  if (req.query.account_id === 'acc_busy')
    return { status: 429, headers: { 'retry-after': '120' }, body: { type: 'errors/too_many_requests' } };
  const m = req.path.match(/^\/api\/v1\/users\/([^/]+)$/);
  if (req.method === 'GET' && m) {
    const member = members.get(decodeURIComponent(m[1] as string));
    if (!member)
      return {
        status: 422,
        body: { status: 422, type: 'errors/invalid_recipient', title: 'Invalid recipient' },
      };
    return { status: 200, body: { object: 'UserProfile', public_identifier: m[1], ...member } };
  }
  if (req.method === 'POST' && req.path === '/api/v1/users/invite') {
    const b = req.body;
    if (!b?.provider_id || !b.account_id) return { status: 400, body: { type: 'errors/invalid_parameters' } };
    if (b.provider_id === 'ACoAAAalan')
      return { status: 422, body: { type: 'errors/cannot_invite_attendee', title: 'Cannot invite' } };
    if (invited.has(b.provider_id))
      return { status: 422, body: { type: 'errors/already_invited_recently', title: 'Already invited' } };
    invited.add(b.provider_id);
    return { status: 201, body: { object: 'UserInvitationSent', invitation_id: `inv_${b.provider_id}` } };
  }
  if (req.method === 'POST' && req.path === '/api/v1/chats') {
    const raw = String(req.body);
    if (!String(req.headers['content-type']).startsWith('multipart/form-data'))
      return { status: 400, body: { type: 'errors/invalid_parameters' } };
    const attendee = field(raw, 'attendees_ids');
    if (attendee !== 'ACoAAAada')
      return { status: 422, body: { type: 'errors/no_connection_with_recipient', title: 'Not connected' } };
    return {
      status: 201,
      body: { object: 'ChatStarted', chat_id: 'chat_1', message_id: `msg_${field(raw, 'text')?.length}` },
    };
  }
  return { status: 404, body: { type: 'errors/resource_not_found' } };
}

describe('UnipileLinkedInSender against a Unipile stand-in over HTTP', () => {
  const server = new RecordingServer(unipile);
  let sender: UnipileLinkedInSender;
  beforeAll(async () => {
    await server.start();
    sender = new UnipileLinkedInSender({ baseUrl: server.url, apiKey: KEY, timeoutMs: 2_000 });
  });
  afterAll(async () => {
    await sender.close();
    await server.close();
  });

  const target = (slug: string, accountId = 'acc_1') => ({
    accountId,
    profileUrl: `https://www.linkedin.com/in/${slug}/`,
    idempotencyKey: `e1-n1-1-${slug}`,
  });

  async function failure(p: Promise<unknown>): Promise<LinkedInActionError> {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(LinkedInActionError);
    return err as LinkedInActionError;
  }

  it('invites by the member provider id, with the note, and answers the invitation id', async () => {
    const result = await sender.sendInvitation({ ...target('grace-hopper'), note: 'Hi Grace' });
    expect(result).toEqual({ providerMessageId: 'inv_ACoAAAgrace' });
    const invite = server.requests.find((r) => r.path === '/api/v1/users/invite');
    expect(invite?.body).toEqual({ provider_id: 'ACoAAAgrace', account_id: 'acc_1', message: 'Hi Grace' });
    const lookup = server.requests.find((r) => r.path === '/api/v1/users/grace-hopper');
    expect(lookup?.query).toEqual({ account_id: 'acc_1' });
  });

  it('a second invitation to the same member is already_invited, permanent, never sent twice', async () => {
    const err = await failure(sender.sendInvitation(target('grace-hopper')));
    expect(err).toMatchObject({ reason: 'already_invited', permanent: true, notSent: true });
    expect(server.requests.filter((r) => r.path === '/api/v1/users/invite')).toHaveLength(2);
  });

  it('classifies the refusals the graph walk branches on', async () => {
    expect(await failure(sender.sendInvitation(target('nobody-here')))).toMatchObject({
      reason: 'profile_not_found',
      permanent: true,
      blamesAccount: false,
    });
    expect(await failure(sender.sendInvitation(target('alan-turing')))).toMatchObject({
      reason: 'not_connectable',
      permanent: true,
    });
    expect(await failure(sender.sendInvitation(target('ada-lovelace')))).toMatchObject({
      reason: 'already_connected',
      permanent: true,
    });
    expect(await failure(sender.sendMessage({ ...target('grace-hopper'), text: 'Hello' }))).toMatchObject({
      reason: 'not_connected',
      permanent: true,
    });
    expect(await failure(sender.visitProfile(target('grace-hopper', 'acc_restricted')))).toMatchObject({
      reason: 'account_restricted',
      permanent: true,
      blamesAccount: true,
    });
    expect(
      await failure(sender.sendInvitation({ ...target('x-y-z'), profileUrl: 'https://example.com/in/x' })),
    ).toMatchObject({ reason: 'profile_not_found' });
  });

  it('429 is rate_limited, not permanent, with the wait Retry-After asked for', async () => {
    const err = await failure(sender.visitProfile(target('grace-hopper', 'acc_busy')));
    expect(err).toMatchObject({
      reason: 'rate_limited',
      permanent: false,
      retryAfterMs: 120_000,
      notSent: true,
    });
  });

  it('starts a chat with a multipart first message to a connection', async () => {
    const result = await sender.sendMessage({ ...target('ada-lovelace'), text: 'Thanks for connecting' });
    expect(result).toEqual({ providerMessageId: 'msg_21' });
  });

  it('a profile visit retrieves the profile with notify on', async () => {
    expect(await sender.visitProfile(target('ada-lovelace'))).toEqual({
      providerMessageId: 'visit-ACoAAAada',
    });
    const visit = server.requests.filter((r) => r.path === '/api/v1/users/ada-lovelace').pop();
    expect(visit?.query).toEqual({ account_id: 'acc_1', notify: 'true' });
  });

  it('a refused API key is credentials_refused, blaming our setup', async () => {
    const bad = new UnipileLinkedInSender({ baseUrl: server.url, apiKey: 'wrong-key', timeoutMs: 2_000 });
    const err = await failure(bad.visitProfile(target('ada-lovelace')));
    expect(err).toMatchObject({ reason: 'credentials_refused', blamesAccount: true });
    await bad.close();
  });

  it('no answer is provider_unavailable and retryable; unreachable means not sent', async () => {
    const down = new UnipileLinkedInSender({ baseUrl: 'http://127.0.0.1:1', apiKey: KEY, timeoutMs: 500 });
    const err = await failure(down.visitProfile(target('ada-lovelace')));
    expect(err).toMatchObject({ reason: 'provider_unavailable', permanent: false, notSent: true });
    await down.close();
  });
});

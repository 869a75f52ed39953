import { describe, expect, it } from 'vitest';
import { httpWebhookProvider } from '../src/webhooks/http-webhook.js';
import { lemlistWebhookProvider } from '../src/webhooks/lemlist-webhook.js';
import { standardWebhookHeaders, WebhookVerificationError } from '../src/webhooks/standard-webhooks.js';
import { unipileWebhookProvider } from '../src/webhooks/unipile-webhook.js';
import type { WebhookRequest } from '../src/webhooks/webhook-provider.js';

const TOKEN = 'unipile-webhook-token-0123';
const at = new Date('2026-11-23T12:00:00Z');
const unipile = unipileWebhookProvider({ token: TOKEN });
const request = (body: unknown, headers: Record<string, string> = { 'x-touchbase-token': TOKEN }) => {
  const rawBody = JSON.stringify(body);
  const req: WebhookRequest = {
    method: 'POST',
    url: '/webhooks/unipile',
    headers,
    rawBody,
    nowMs: at.getTime(),
  };
  return { req, rawBody };
};

describe('unipile webhooks', () => {
  it('refuses a delivery without the endpoint token, and one with another', () => {
    expect(() => unipile.verify(request({}, {}).req)).toThrow(WebhookVerificationError);
    expect(() => unipile.verify(request({}, { 'x-touchbase-token': 'not-the-token-at-all' }).req)).toThrow(
      WebhookVerificationError,
    );
    expect(unipile.verify(request({}).req)).toEqual({ auth: 'token', deliveryId: null });
  });

  it('new_relation is linkedin.connection_accepted, once per (account, member), on the normalised URL', async () => {
    const body = {
      event: 'new_relation',
      account_id: 'acc_1',
      account_type: 'LINKEDIN',
      webhook_name: 'relations',
      user_full_name: 'Grace Hopper',
      user_provider_id: 'ACoAAAgrace',
      user_public_identifier: 'grace-hopper',
      user_profile_url: 'https://fr.linkedin.com/in/Grace-Hopper?trk=x',
    };
    const [e] = await unipile.normalise(JSON.stringify(body), { auth: 'token', deliveryId: null }, at);
    expect(e).toMatchObject({
      source: 'unipile',
      externalId: 'new_relation-acc_1-ACoAAAgrace',
      type: 'linkedin.connection_accepted',
      linkedinUrl: 'https://www.linkedin.com/in/grace-hopper/',
      channel: 'linkedin',
      auth: 'token',
      data: { accountId: 'acc_1', providerId: 'ACoAAAgrace' },
    });
    // Without a profile URL, the public identifier names the member.
    const { user_profile_url: _, ...bare } = body;
    const [f] = await unipile.normalise(JSON.stringify(bare), { auth: 'token', deliveryId: null }, at);
    expect(f?.linkedinUrl).toBe('https://www.linkedin.com/in/grace-hopper/');
    expect(f?.externalId).toBe(e?.externalId);
  });

  const message = (senderId: string, text: string) => ({
    event: 'message_received',
    account_id: 'acc_1',
    account_type: 'LINKEDIN',
    account_info: { type: 'LINKEDIN', feature: 'classic', user_id: 'ACoAAAme' },
    chat_id: 'chat_1',
    message_id: `msg_${senderId}`,
    message: text,
    timestamp: '2026-11-23T11:59:00.000Z',
    webhook_name: 'messages',
    sender: {
      attendee_id: 'att_1',
      attendee_name: 'Grace Hopper',
      attendee_provider_id: senderId,
      attendee_profile_url: 'https://www.linkedin.com/in/grace-hopper',
    },
  });

  it('a message from the prospect is a classified reply on the LinkedIn channel', async () => {
    const [e] = await unipile.normalise(
      JSON.stringify(message('ACoAAAgrace', 'Not interested right now, thanks.')),
      { auth: 'token', deliveryId: null },
      at,
    );
    expect(e).toMatchObject({
      externalId: 'msg_ACoAAAgrace',
      type: 'reply',
      channel: 'linkedin',
      inReply: true,
      linkedinUrl: 'https://www.linkedin.com/in/grace-hopper/',
      data: { chatId: 'chat_1', accountId: 'acc_1' },
    });
    expect(e?.occurredAt.toISOString()).toBe('2026-11-23T11:59:00.000Z');
    expect(e?.classification).toBeDefined();
  });

  it('our own messages and events we do not use record nothing; a malformed body is a payload error', async () => {
    const d = { auth: 'token' as const, deliveryId: null };
    expect(await unipile.normalise(JSON.stringify(message('ACoAAAme', 'Hi')), d, at)).toEqual([]);
    expect(
      await unipile.normalise(JSON.stringify({ event: 'message_reaction', account_id: 'a' }), d, at),
    ).toEqual([]);
    await expect(unipile.normalise(JSON.stringify({ event: 'new_relation' }), d, at)).rejects.toMatchObject({
      code: 'validation_failed',
    });
  });
});

describe('the generic HTTP LinkedIn contract and lemlist', () => {
  it('a signed linkedin.invitation_failed keeps its reason', async () => {
    const secret = 'http-provider-secret-0123';
    const http = httpWebhookProvider({ secret });
    const rawBody = JSON.stringify({
      type: 'linkedin.invitation_failed',
      occurred_at: '2026-11-23T11:00:00Z',
      linkedin_url: 'https://www.linkedin.com/in/grace-hopper/',
      message_id: 'inv_1',
      reason: 'not_connectable',
    });
    const delivery = http.verify({
      method: 'POST',
      url: '/webhooks/http',
      headers: standardWebhookHeaders(secret, 'evt_1', rawBody, at.getTime()),
      rawBody,
      nowMs: at.getTime(),
    });
    const [e] = await http.normalise(rawBody, delivery, at);
    expect(e).toMatchObject({
      type: 'linkedin.invitation_failed',
      channel: 'linkedin',
      messageId: 'inv_1',
      data: { reason: 'not_connectable' },
    });
  });

  it("lemlist's LinkedIn events stay mapped", async () => {
    const lemlist = lemlistWebhookProvider({ token: 'lemlist-token-0123456' });
    const d = { auth: 'token' as const, deliveryId: null };
    const of = async (type: string, extra: Record<string, unknown> = {}) =>
      (
        await lemlist.normalise(
          JSON.stringify({
            _id: `act_${type}`,
            type,
            linkedinUrl: 'https://www.linkedin.com/in/g/',
            ...extra,
          }),
          d,
          at,
        )
      )[0];
    expect(await of('linkedinInviteAccepted')).toMatchObject({
      type: 'linkedin.connection_accepted',
      channel: 'linkedin',
    });
    expect(await of('linkedinReplied', { text: 'Sounds good' })).toMatchObject({
      type: 'reply',
      channel: 'linkedin',
    });
    expect(await of('linkedinInviteDone')).toMatchObject({ type: 'sent', channel: 'linkedin' });
    expect(await of('linkedinInviteFailed', { errorMessage: 'Profile not found' })).toMatchObject({
      type: 'linkedin.invitation_failed',
      data: { reason: 'Profile not found' },
    });
  });
});

import { type CanonicalEvent, CanonicalEventSchema, classifyReplyEvent } from '@touchbase/core';
import { z } from 'zod';
import { verifyEndpointToken } from './endpoint-token.js';
import {
  htmlToText,
  missingField,
  parseJsonBody,
  parseWith,
  type WebhookProvider,
} from './webhook-provider.js';

/**
 * lemlist's webhook body: one activity object, as its activities API returns it.
 * Fields from lemlist's docs: https://help.lemlist.com/en/articles/9423940-use-the-api-to-list-activity-types
 * (common fields `_id`, `type`, `createdAt`, `leadId`, `campaignId`; `leadEmail`,
 * `messageId`, `errorMessage`, `sequenceStep` when relevant; plus the lead's
 * custom variables, e.g. `linkedinUrl`) and the event names of
 * https://developer.lemlist.com/api-reference/endpoints/webhooks/add-webhook
 * (emailsReplied, emailsBounced, emailsUnsubscribed, linkedinReplied,
 * linkedinInviteAccepted, ...). Reply text comes as `text` or `html` when present.
 */
export const LemlistActivitySchema = z.looseObject({
  _id: z.string().min(1).max(200),
  type: z.string().min(1).max(60),
  createdAt: z.string().max(50).optional(),
  leadEmail: z.string().max(320).nullish(),
  leadId: z.string().max(200).nullish(),
  campaignId: z.string().max(200).nullish(),
  messageId: z.string().max(500).nullish(),
  linkedinUrl: z.string().max(500).nullish(),
  sequenceStep: z.number().int().nullish(),
  subject: z.string().max(2000).nullish(),
  text: z.string().max(200_000).nullish(),
  html: z.string().max(500_000).nullish(),
  errorMessage: z.string().max(5000).nullish(),
});

const TYPES: Record<
  string,
  { type: CanonicalEvent['type']; channel: 'email' | 'linkedin'; classification?: string }
> = {
  emailsSent: { type: 'sent', channel: 'email' },
  emailsOpened: { type: 'opened', channel: 'email' },
  emailsClicked: { type: 'clicked', channel: 'email' },
  emailsReplied: { type: 'reply', channel: 'email' },
  emailsBounced: { type: 'bounce', channel: 'email' },
  emailsUnsubscribed: { type: 'unsubscribe', channel: 'email' },
  emailsInterested: { type: 'reply', channel: 'email', classification: 'interested' },
  emailsNotInterested: { type: 'reply', channel: 'email', classification: 'not_interested' },
  linkedinReplied: { type: 'reply', channel: 'linkedin' },
  linkedinInterested: { type: 'reply', channel: 'linkedin', classification: 'interested' },
  linkedinNotInterested: { type: 'reply', channel: 'linkedin', classification: 'not_interested' },
  linkedinInviteAccepted: { type: 'linkedin.connection_accepted', channel: 'linkedin' },
  // lemlist's own LinkedIn steps (when lemlist, not touchbase, runs the LinkedIn
  // channel): what it sent is recorded, an invitation it could not send is a failure.
  linkedinInviteDone: { type: 'sent', channel: 'linkedin' },
  linkedinSent: { type: 'sent', channel: 'linkedin' },
  linkedinInviteFailed: { type: 'linkedin.invitation_failed', channel: 'linkedin' },
};

/**
 * `POST /webhooks/lemlist/{token}`. lemlist does not sign its webhooks, so the
 * endpoint carries a secret token; its events may only stop or pause sequences.
 */
export function lemlistWebhookProvider(opts: {
  token: string | undefined;
  bodyLimit?: number;
}): WebhookProvider {
  return {
    source: 'lemlist',
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    verify: (req) => verifyEndpointToken(opts.token, req),
    async normalise(rawBody, delivery, receivedAt) {
      const a = parseWith(LemlistActivitySchema, parseJsonBody(rawBody));
      const kind = TYPES[a.type];
      if (!kind) return [];
      if (!a.leadEmail && !a.messageId && !a.linkedinUrl) {
        throw missingField('leadEmail', 'names no lead: leadEmail, messageId or linkedinUrl is required');
      }
      const text = a.text ?? (a.html ? htmlToText(a.html) : undefined) ?? undefined;
      let classified = null;
      if (kind.type === 'reply' && !kind.classification) {
        classified = classifyReplyEvent({ subject: a.subject ?? undefined, text }, receivedAt);
      } else if (kind.type === 'bounce') {
        const c = classifyReplyEvent(
          { subject: 'Undelivered Mail Returned to Sender', text: a.errorMessage ?? text },
          receivedAt,
        );
        classified = c?.type === 'bounce' ? c : null;
      }
      return [
        CanonicalEventSchema.parse({
          source: 'lemlist',
          externalId: a._id,
          type: kind.type,
          occurredAt: a.createdAt && !Number.isNaN(Date.parse(a.createdAt)) ? a.createdAt : receivedAt,
          ...(a.leadEmail ? { email: a.leadEmail } : {}),
          ...(a.messageId ? { messageId: a.messageId } : {}),
          ...(a.linkedinUrl ? { linkedinUrl: a.linkedinUrl } : {}),
          channel: kind.channel,
          auth: delivery.auth,
          inReply: true,
          ...(kind.classification
            ? { classification: kind.classification, why: [`lemlist marked the lead ${a.type}`] }
            : {}),
          ...(kind.type === 'bounce'
            ? { bounce: { hard: true, status: '', reason: 'provider_reported' } }
            : {}),
          ...(classified ?? {}),
          data: {
            step: a.sequenceStep ?? null,
            campaignId: a.campaignId ?? null,
            ...(kind.type === 'linkedin.invitation_failed' && a.errorMessage
              ? { reason: a.errorMessage }
              : {}),
          },
        }),
      ];
    },
  };
}

import { z } from 'zod';
import { bool } from './env-helpers.js';

/** Variables of ingest: webhook endpoints, their secrets, recovery and the CRM. */
export const IngestEnv = {
  INGEST_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1_048_576)
    .describe('Largest JSON webhook body accepted (413 beyond)'),
  INGEST_INBOUND_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(10_485_760)
    .describe('Largest raw RFC 822 message accepted at /webhooks/inbound'),
  INGEST_WEBHOOK_TOLERANCE_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(300_000)
    .describe('How far a signed webhook timestamp may be from now before it is refused as stale'),
  INGEST_FENCE_WAIT_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(5_000)
    .describe('How long a stop waits, before its 2xx, for touches a sender was already handing over'),
  INGEST_STOP_BATCH_HOLD_MS: z.coerce
    .number()
    .min(0)
    .max(50)
    .default(1)
    .describe(
      'Under a storm of stopping events (replies, bounces), how long a batched stop waits for more to share its statement while another batch runs; a stop arriving when none runs goes at once (0: never held)',
    ),
  INGEST_COMPANY_STOP: bool(true).describe(
    "A reply acts on the person's colleagues at the same company as each sequence's policies.companyStop says (by default a positive reply pauses them for 14 days; off: replies stop only the person)",
  ),
  INGEST_REPLY_ACTIONS: bool(true).describe(
    "Each sequence's policies.replyActions decide what a reply does: go on for chosen classes, mark the CRM contact, notify on the alert channels, put a referral into triage, set a cooldown (off: every reply ends every sequence, on the batched fast path)",
  ),
  INGEST_CRM_RETRY_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(100)
    .default(30_000)
    .describe('Base interval of CRM update retries (doubles per attempt)'),
  INGEST_SOFT_BOUNCE_RETRY_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(86_400_000)
    .describe(
      'Back-off before a soft-bounced touch is resent (doubled before the second resend; scaled by TIME_SCALE)',
    ),
  HTTP_PROVIDER_WEBHOOK_SECRET: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe('Standard Webhooks secret of the generic HTTP provider (/webhooks/http); unset refuses all'),
  SMARTLEAD_WEBHOOK_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe('Secret token of /webhooks/smartlead/{token} (Smartlead does not sign); unset refuses all'),
  SMARTLEAD_WEBHOOK_SECRET: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe('When set, X-Smartlead-Signature (HMAC-SHA256 of the body) is required as well'),
  LEMLIST_WEBHOOK_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe('Secret token of /webhooks/lemlist/{token} (lemlist does not sign); unset refuses all'),
  LINKEDIN_WEBHOOK_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe('Secret token of /webhooks/linkedin/{token} (LinkedIn tools do not sign); unset refuses all'),
  UNIPILE_WEBHOOK_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe(
      'Secret token of /webhooks/unipile (Unipile does not sign: give it as the x-touchbase-token header when creating the webhook, or in the path); unset refuses all',
    ),
  INBOUND_WEBHOOK_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe('Secret token of /webhooks/inbound/{token} (raw RFC 822 mail); unset refuses all'),
  HUBSPOT_CLIENT_SECRET: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe('HubSpot app client secret: verifies X-HubSpot-Signature-v3 at /webhooks/hubspot'),
  HUBSPOT_WEBHOOK_URL: z
    .url()
    .optional()
    .describe('The public URL registered with HubSpot (part of what it signs); defaults to the request URL'),
  HUBSPOT_ACCESS_TOKEN: z
    .string()
    .min(8)
    .optional()
    .describe(
      'HubSpot private app token: hard bounces mark the contact, and deals won or lost end the sequences of their contacts (scopes crm.objects.contacts.write, crm.objects.deals.read); unset tells no CRM',
    ),
  HUBSPOT_API_URL: z.url().default('https://api.hubapi.com').describe('HubSpot API base URL'),
  HUBSPOT_BOUNCE_PROPERTY: z
    .string()
    .min(1)
    .default('touchbase_email_status')
    .describe('Contact property set to "hard_bounced" when an address hard-bounces'),
  HUBSPOT_REPLY_PROPERTY: z
    .string()
    .min(1)
    .default('touchbase_reply')
    .describe(
      "Contact property set to the reply's class (interested, meeting_request) when a sequence's replyActions mark the CRM contact",
    ),
};

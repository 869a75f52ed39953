import {
  httpWebhookProvider,
  hubspotWebhookProvider,
  inboundWebhookProvider,
  lemlistWebhookProvider,
  linkedinWebhookProvider,
  sandboxWebhookProvider,
  smartleadWebhookProvider,
  unipileWebhookProvider,
  type WebhookProvider,
} from '@touchbase/providers';
import type { Config } from '@touchbase/runtime';

/**
 * Every webhook endpoint, configured from the environment. An endpoint whose
 * secret is not set still answers, with 401 `not_configured`, so a misconfigured
 * provider sees why its deliveries fail.
 */
export function webhookProvidersFrom(config: Config): WebhookProvider[] {
  const toleranceMs = config.INGEST_WEBHOOK_TOLERANCE_MS;
  const bodyLimit = config.INGEST_BODY_LIMIT_BYTES;
  return [
    sandboxWebhookProvider({ secret: config.SANDBOX_WEBHOOK_SECRET, toleranceMs, bodyLimit }),
    httpWebhookProvider({ secret: config.HTTP_PROVIDER_WEBHOOK_SECRET, toleranceMs, bodyLimit }),
    smartleadWebhookProvider({
      token: config.SMARTLEAD_WEBHOOK_TOKEN,
      signingSecret: config.SMARTLEAD_WEBHOOK_SECRET,
      bodyLimit,
    }),
    lemlistWebhookProvider({ token: config.LEMLIST_WEBHOOK_TOKEN, bodyLimit }),
    linkedinWebhookProvider({ token: config.LINKEDIN_WEBHOOK_TOKEN, bodyLimit }),
    unipileWebhookProvider({ token: config.UNIPILE_WEBHOOK_TOKEN, bodyLimit }),
    hubspotWebhookProvider({
      clientSecret: config.HUBSPOT_CLIENT_SECRET,
      publicUrl: config.HUBSPOT_WEBHOOK_URL,
      toleranceMs,
      bodyLimit,
    }),
    inboundWebhookProvider({
      token: config.INBOUND_WEBHOOK_TOKEN,
      bodyLimit: config.INGEST_INBOUND_BODY_LIMIT_BYTES,
    }),
  ];
}

export { bearerToken, secretMatches, verifyEndpointToken } from './endpoint-token.js';
export {
  HttpEventStream,
  httpPulledEvent,
  type PulledEventReader,
  type PulledPage,
} from './http-pull.js';
export {
  type HttpProviderEvent,
  HttpProviderEventSchema,
  httpWebhookProvider,
  normaliseHttpEvent,
} from './http-webhook.js';
export { hubspotWebhookProvider, signHubspot, verifyHubspotSignature } from './hubspot-webhook.js';
export { inboundWebhookProvider } from './inbound-webhook.js';
export { lemlistWebhookProvider } from './lemlist-webhook.js';
export { linkedinWebhookProvider } from './linkedin-webhook.js';
export { sandboxWebhookProvider } from './sandbox-webhook.provider.js';
export { smartleadWebhookProvider } from './smartlead-webhook.js';
export * from './standard-webhooks.js';
export { unipileWebhookProvider } from './unipile-webhook.js';
export {
  type PayloadFieldError,
  type VerifiedDelivery,
  WebhookPayloadError,
  type WebhookProvider,
  type WebhookRequest,
} from './webhook-provider.js';

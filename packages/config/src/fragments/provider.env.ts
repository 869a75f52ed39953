import { z } from 'zod';
import { bool, port } from './env-helpers.js';

/**
 * Provider credentials. Secrets live here, never in a mailbox's providerConfig
 * (which holds ids: campaign, sender); an adapter is registered only when its
 * credentials are set.
 */
export const ProviderEnv = {
  SMARTLEAD_API_KEY: z
    .string()
    .min(1)
    .optional()
    .describe('Smartlead API key (sent as the api_key query parameter); enables the smartlead provider'),
  SMARTLEAD_BASE_URL: z
    .url()
    .default('https://server.smartlead.ai/api/v1')
    .describe('Smartlead API base URL'),
  LEMLIST_API_KEY: z
    .string()
    .min(1)
    .optional()
    .describe('lemlist API key (HTTP Basic password); enables the lemlist provider'),
  LEMLIST_BASE_URL: z.url().default('https://api.lemlist.com/api').describe('lemlist API base URL'),
  HTTP_PROVIDER_URL: z
    .url()
    .optional()
    .describe('Base URL of a generic HTTP sending provider; enables the http provider'),
  HTTP_PROVIDER_TOKEN: z.string().min(1).optional().describe('Bearer token for HTTP_PROVIDER_URL'),
  SMTP_HOST: z
    .string()
    .min(1)
    .optional()
    .describe('SMTP submission server of your own mailboxes; enables the smtp provider'),
  SMTP_PORT: port(587).describe('SMTP submission port (587 STARTTLS, 465 implicit TLS)'),
  SMTP_SECURE: bool(false).describe('Implicit TLS on connect (port 465)'),
  SMTP_USER: z.string().min(1).optional().describe('SMTP login'),
  SMTP_PASSWORD: z.string().min(1).optional().describe('SMTP password or app password'),
  SMTP_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(4).describe('SMTP connections kept open'),
  UNSUBSCRIBE_SECRET: z
    .string()
    .min(16, 'must be at least 16 characters')
    .default('touchbase-dev-unsubscribe-secret')
    .describe('HMAC key of one-click unsubscribe links (/u/{token}); set your own in production'),
  TRACKING_SECRET: z
    .string()
    .min(16, 'must be at least 16 characters')
    .default('touchbase-dev-tracking-secret')
    .describe(
      'HMAC key of open-pixel and click links (/t/o/{token}, /t/c/{token}); tracking is off unless a sequence turns it on; set your own in production',
    ),
  UNIPILE_URL: z
    .url()
    .optional()
    .describe('Unipile DSN (https://apiN.unipile.com:PORT): enables LinkedIn through Unipile'),
  UNIPILE_API_KEY: z.string().min(8).optional().describe('Unipile access token, sent as X-API-KEY'),
  HTTP_LINKEDIN_URL: z
    .url()
    .optional()
    .describe('Base URL of a LinkedIn tool speaking the generic HTTP LinkedIn contract'),
  HTTP_LINKEDIN_TOKEN: z
    .string()
    .min(8)
    .optional()
    .describe('Bearer token of the generic HTTP LinkedIn contract'),
};

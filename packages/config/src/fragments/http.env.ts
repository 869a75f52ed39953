import { z } from 'zod';
import { port } from './env-helpers.js';

/** Variables of the HTTP services. */
export const HttpEnv = {
  API_HOST: z.string().default('127.0.0.1').describe('Address the API listens on'),
  API_PORT: port(3000).describe('Port of the REST API'),
  INGEST_HOST: z.string().default('127.0.0.1').describe('Address ingest listens on'),
  INGEST_PORT: port(3001).describe('Port of the webhook ingest service'),
  PUBLIC_BASE_URL: z
    .url()
    .default('http://127.0.0.1:3000')
    .describe('Base URL used in links (alerts, unsubscribe)'),
  INGEST_PUBLIC_URL: z
    .url()
    .optional()
    .describe(
      'Public base URL of ingest, for one-click unsubscribe links (/u/{token}); defaults to http://127.0.0.1:INGEST_PORT',
    ),
  ADMIN_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe('Bearer token with the admin scope (besides `touchbase keys`); with neither, loopback only'),
};

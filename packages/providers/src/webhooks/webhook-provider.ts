import type { CanonicalEvent } from '@touchbase/core';
import type { z } from 'zod';

/** A webhook delivery as ingest received it: the raw body, before anything is parsed. */
export type WebhookRequest = {
  method: string;
  /** The URL the provider called, as it signed it (HubSpot signs the URL). */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /**
   * The body exactly as received. Signatures are computed over these bytes: text
   * decoded from them would differ wherever they are not valid UTF-8.
   */
  rawBody: Buffer | string;
  /** The secret token from the path (`/webhooks/{provider}/{token}`), when sent there. */
  pathToken?: string | undefined;
  nowMs: number;
};

/** What verification proved: how the delivery was authenticated, and its delivery id when it has one. */
export type VerifiedDelivery = { auth: 'signature' | 'token'; deliveryId: string | null };

/** One field of a webhook body that failed validation. */
export type PayloadFieldError = { field: string; message: string };

/** A webhook body that is not what the provider sends: 400 problem+json, nothing recorded. */
export class WebhookPayloadError extends Error {
  override readonly name = 'WebhookPayloadError';
  constructor(
    readonly code: 'malformed_json' | 'validation_failed' | 'malformed_message',
    message: string,
    readonly errors: PayloadFieldError[],
  ) {
    super(message);
  }

  static fromZod(error: z.ZodError, prefix = 'body'): WebhookPayloadError {
    const errors = error.issues.map((i) => ({
      field: [prefix, ...i.path.map(String)].filter(Boolean).join('.') || '(body)',
      message: i.message,
    }));
    return new WebhookPayloadError(
      'validation_failed',
      errors.map((e) => `${e.field}: ${e.message}`).join('; '),
      errors,
    );
  }
}

/**
 * One provider's webhook endpoint: how a delivery is verified (over the raw body,
 * before parsing) and how its body becomes canonical events. Ingest serves each at
 * `POST /webhooks/{source}` (and `/webhooks/{source}/{token}` for token endpoints).
 */
export interface WebhookProvider {
  /** The event source and the path segment. */
  readonly source: string;
  /** Largest body accepted, in bytes (413 beyond). */
  readonly bodyLimit: number;
  /** @throws WebhookVerificationError (401, nothing recorded). */
  verify(req: WebhookRequest): VerifiedDelivery;
  /**
   * The canonical events of a verified body; none for event kinds we do not use.
   * @throws WebhookPayloadError (400, nothing recorded).
   */
  normalise(rawBody: string, delivery: VerifiedDelivery, receivedAt: Date): Promise<CanonicalEvent[]>;
}

/** A required field that is absent, as a payload error naming it. */
export function missingField(field: string, message: string): WebhookPayloadError {
  return new WebhookPayloadError('validation_failed', `body.${field}: ${message}`, [
    { field: `body.${field}`, message },
  ]);
}

/** Parses a JSON body, or fails as a malformed payload. */
export function parseJsonBody(rawBody: string): unknown {
  try {
    return JSON.parse(rawBody);
  } catch {
    throw new WebhookPayloadError('malformed_json', 'the body is not JSON', [
      { field: '(body)', message: 'not JSON' },
    ]);
  }
}

/** Parses with a zod schema, or fails naming each field. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw WebhookPayloadError.fromZod(parsed.error);
  return parsed.data;
}

/** Plain text of an HTML fragment, for classifying replies that providers send as HTML only. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(style|script)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<br\s*\/?>|<\/(p|div|li|tr|h\d|blockquote)>/gi, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n\s*/g, '\n\n')
    .trim();
}

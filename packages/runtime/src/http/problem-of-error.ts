import {
  CrmLookupUnavailableError,
  UnsubscribeTokenError,
  WebhookPayloadError,
  WebhookVerificationError,
} from '@touchbase/providers';
import type { FieldError } from './problem.types.js';

/** The members of a problem document an error sets (`type` is derived from `code`). */
export type ProblemBody = {
  status: number;
  title: string;
  code: string;
  detail?: string;
  errors?: FieldError[];
};

/** What an error becomes over HTTP: its problem document and the headers that go with it. */
export type ProblemOfError = {
  problem: ProblemBody;
  headers?: Record<string, string>;
};

/**
 * A refusal an app defines itself, with a stable code, for an error no package
 * has a class for (a CSV that csv-parse cannot read): thrown by the route, sent
 * as is by the one handler.
 */
export class ProblemError extends Error {
  override readonly name = 'ProblemError';
  constructor(readonly problem: ProblemBody) {
    super(problem.detail ?? problem.title);
  }
}

/** The wait asked of a CRM's sender when the CRM itself gave none. */
const CRM_RETRY_AFTER_MS = 60_000;

/**
 * The problem+json of each error class with a stable code that a route lets
 * through, or null for any other error. Routes throw; only this table says which
 * status and body each becomes:
 *
 * - {@link WebhookVerificationError} → 401, its code (`bad_signature`, `stale_timestamp`, ...);
 * - {@link WebhookPayloadError} → 400, naming each field;
 * - {@link CrmLookupUnavailableError} → 503 with Retry-After (what the CRM asked, at least 1 s);
 * - {@link UnsubscribeTokenError} → 404;
 * - {@link ProblemError} → the problem it carries.
 */
export function problemOfError(err: unknown): ProblemOfError | null {
  if (err instanceof ProblemError) return { problem: err.problem };
  if (err instanceof WebhookVerificationError) {
    return {
      problem: { status: 401, title: 'Webhook not authenticated', code: err.code, detail: err.message },
    };
  }
  if (err instanceof WebhookPayloadError) {
    return {
      problem: {
        status: 400,
        title: err.code === 'malformed_json' ? 'Malformed JSON' : 'Invalid webhook payload',
        code: err.code,
        detail: err.message,
        errors: err.errors,
      },
    };
  }
  if (err instanceof CrmLookupUnavailableError) {
    const retryAfterSec = Math.max(1, Math.ceil((err.retryAfterMs ?? CRM_RETRY_AFTER_MS) / 1000));
    return {
      problem: {
        status: 503,
        title: 'CRM unavailable',
        code: err.code,
        detail: `Could not ask the CRM who is on the deal; nothing was recorded, send it again (${err.message})`,
      },
      headers: { 'retry-after': String(retryAfterSec) },
    };
  }
  if (err instanceof UnsubscribeTokenError) {
    return {
      problem: { status: 404, title: 'Unsubscribe link not valid', code: err.code, detail: err.message },
    };
  }
  return null;
}

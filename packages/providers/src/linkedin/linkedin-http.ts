import {
  type HttpAnswer,
  type HttpClient,
  type HttpRequest,
  HttpTransportError,
} from '../http/http-client.js';
import { describeRefusal, parseJson } from '../http/json-http-client.js';
import { LinkedInActionError, type LinkedInFailureReason } from './linkedin-sender.port.js';

/** Wait when a 429 names none: LinkedIn's limits are per day, a minute is the least worth waiting. */
export const DEFAULT_LINKEDIN_RETRY_AFTER_MS = 60_000;

/**
 * One call of a LinkedIn provider over the one {@link HttpClient}: the JSON body of
 * a 2xx, or a {@link LinkedInActionError}. `reasonOf` reads the provider's own error
 * (its `type` or `reason`) first; then 429 is `rate_limited` (Retry-After, or a
 * minute), 408/5xx and no answer `provider_unavailable`, 401 `credentials_refused`,
 * 404 `profile_not_found`, any other 4xx `invalid_request`.
 */
export async function linkedInCall(
  http: HttpClient,
  req: HttpRequest,
  // biome-ignore lint/suspicious/noExplicitAny: a provider's JSON is read field by field where it is used
  reasonOf: (status: number, body: any) => LinkedInFailureReason | null,
  // biome-ignore lint/suspicious/noExplicitAny: a provider's JSON is read field by field where it is used
): Promise<any> {
  let answer: HttpAnswer;
  try {
    answer = await http.exchange(req);
  } catch (err) {
    if (!(err instanceof HttpTransportError)) throw err;
    throw new LinkedInActionError('provider_unavailable', err.message, { notSent: err.notSent });
  }
  const body = parseJson(answer.text);
  if (answer.kind === 'ok') return body;
  const words = `${http.name} answered ${answer.status}: ${describeRefusal(body, answer.text, answer.status)}`;
  const reason = reasonOf(answer.status, body) ?? genericReason(answer);
  if (reason === 'rate_limited') {
    throw new LinkedInActionError('rate_limited', words, {
      retryAfterMs: answer.retryAfterMs ?? DEFAULT_LINKEDIN_RETRY_AFTER_MS,
    });
  }
  // A 5xx may come after the provider acted: in doubt, unless it said otherwise.
  return Promise.reject(
    new LinkedInActionError(reason, words, reason === 'provider_unavailable' ? { notSent: false } : {}),
  );
}

function genericReason(answer: HttpAnswer): LinkedInFailureReason {
  if (answer.kind === 'rate_limited') return 'rate_limited';
  if (answer.kind === 'retryable') return 'provider_unavailable';
  if (answer.status === 401) return 'credentials_refused';
  if (answer.status === 404) return 'profile_not_found';
  return 'invalid_request';
}

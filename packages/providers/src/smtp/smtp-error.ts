import { ProviderError } from '../provider-adapter.js';

/** What nodemailer attaches to a failed send. */
type SmtpFailure = Error & { code?: string; responseCode?: number; response?: string; command?: string };

// Authentication and alignment failures of our own domain: Gmail's 5.7.26
// (unauthenticated: DMARC/SPF/DKIM), Outlook's 5.7.515 (sender domain does not
// meet the authentication requirements for high-volume senders), 5.7.23/5.7.24
// (SPF), 5.7.8/5.7.139 (our SMTP login refused), 5.7.25 (no PTR for our IP).
const OUR_SETUP_STATUS = /\b5\.7\.(26|515|23|24|25|8|139)\b/;
const OUR_SETUP_WORDS =
  /\b(dmarc|spf|dkim)\b|unauthenticated|authentication (is )?required|sender domain.{0,40}authentication|mailbox (is )?disconnected|not permitted to relay|relay access denied/i;

// Connection-level codes raised before the server could have taken the message.
const BEFORE_DATA = new Set([
  'ECONNECTION',
  'EDNS',
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAUTH',
  'ETLS',
  'EENVELOPE',
]);

/**
 * Classifies a failed SMTP submission. A 4xx reply is temporary (retry); a 5xx
 * naming our authentication or DMARC alignment, or a refused login, blames our
 * setup (pause the mailbox, not the prospect); any other 5xx is permanent for
 * this prospect; a connection dropped during or after DATA leaves the outcome
 * unknown, since the server may have queued the message before we heard it.
 */
export function classifySmtpError(err: unknown): ProviderError {
  const e = err as SmtpFailure;
  const response = (e.response ?? e.message ?? '').replace(/\s+/g, ' ').slice(0, 300);
  const code = e.responseCode;
  if (e.code === 'EAUTH' || code === 535 || code === 534 || code === 530) {
    return new ProviderError('our_setup', `smtp login refused: ${response}`);
  }
  if (
    code !== undefined &&
    code >= 500 &&
    (OUR_SETUP_STATUS.test(response) || OUR_SETUP_WORDS.test(response))
  ) {
    return new ProviderError('our_setup', `smtp refused our sending setup: ${response}`);
  }
  // 421 and 4xx replies: the server took nothing and asks us to come back.
  if (code !== undefined && code >= 400 && code < 500) {
    return new ProviderError('retryable', `smtp deferred: ${response}`, undefined, { notSent: true });
  }
  if (code !== undefined && code >= 500) return new ProviderError('permanent', `smtp refused: ${response}`);
  const notSent =
    BEFORE_DATA.has(e.code ?? '') || (e.command !== undefined && e.command !== 'DATA' && e.command !== '.');
  return new ProviderError('retryable', `smtp failed: ${e.code ?? ''} ${response}`.trim(), undefined, {
    notSent,
  });
}

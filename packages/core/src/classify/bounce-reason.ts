import { REASON_RULES } from './bounce-reason.rules.js';
import type { BounceReason } from './classification.types.js';
import { normalizeDiagnostic } from './diagnostic-text.js';
import { detectSmtpPhase } from './smtp-phase.js';
import { findReplyCode, statusClass } from './status-code.js';
import { reasonFromStatus } from './status-reason.map.js';

/** The reasons that mean the address itself is dead, so it must be suppressed. */
export const HARD_REASONS: ReadonlySet<BounceReason> = new Set([
  'userunknown',
  'hostunknown',
  'hasmoved',
  'notaccept',
]);

/** What we know about one failed recipient. */
export interface BounceEvidence {
  /** Enhanced status code, "" when none was found. */
  status: string;
  /** The server's own words for this recipient (Diagnostic-Code or the SMTP reply). */
  diagnostic: string;
  /** The surrounding human-readable notice, used when the diagnostic says nothing. */
  notice?: string;
  /** DSN action when known: `failed`, `delayed`, ... */
  action?: string;
  /** True when the notice says delivery is still being retried or the failure is temporary. */
  temporary?: boolean;
}

/** The verdict on a bounce: why it happened and whether the address is dead. */
export interface BounceVerdict {
  reason: BounceReason;
  hard: boolean;
  why: string[];
}

/**
 * Decides a bounce's reason and hardness. Order: the phrase rules over the
 * server's diagnostic, then the enhanced status code, then the phrase rules over
 * the rest of the notice. Phrases come before the code because servers often send
 * a generic or wrong code (5.0.0, 5.7.1 for "user unknown", 5.1.1 for "over quota"),
 * while their words are specific.
 *
 * Then hardness: only a dead-address reason on a permanent failure is hard. A 4.x.x
 * status or a delayed action is never hard (the server will accept later), and
 * "user unknown" answered to DATA is a filter talking, since the same server
 * accepted the recipient at RCPT TO.
 */
export function decideBounce(evidence: BounceEvidence): BounceVerdict {
  const why: string[] = [];
  const diagnostic = normalizeDiagnostic(evidence.diagnostic);
  const notice = normalizeDiagnostic(evidence.notice ?? '');
  let reason: BounceReason | undefined;
  let definitive = false;

  const fromDiagnostic = matchFirstRecipient(evidence.diagnostic);
  if (fromDiagnostic) {
    reason = fromDiagnostic.reason;
    definitive = fromDiagnostic.definitive;
    why.push(`diagnostic "${excerpt(diagnostic, fromDiagnostic.index)}": ${fromDiagnostic.label}`);
  }
  if (!reason) {
    reason = reasonFromStatus(evidence.status);
    if (reason) why.push(`status ${evidence.status} means ${reason}`);
  }
  // X.1.0 is "other address status" (RFC 3463): on its own it does not say whose
  // address, but with words that name the recipient it is the recipient's.
  if (!reason && /^5\.1\.0$/.test(evidence.status)) {
    const named = RECIPIENT_REFUSED.exec(`${diagnostic} ${notice}`);
    if (named) {
      reason = 'userunknown';
      why.push(`status 5.1.0 (address trouble) and "${named[0]}" names the recipient's address`);
    }
  }
  if (!reason && notice) {
    const fromNotice = matchFirstRecipient(evidence.notice ?? '');
    if (fromNotice) {
      reason = fromNotice.reason;
      definitive = fromNotice.definitive;
      why.push(`notice "${excerpt(notice, fromNotice.index)}": ${fromNotice.label}`);
    }
  }
  if (!reason) {
    reason = 'undefined';
    why.push('no rule names the reason');
  }

  // A resolver that answered "try again" (Postfix's "Host not found, try again",
  // SERVFAIL) did not learn that the domain is missing: the lookup failed for now.
  // The phrase may sit on the line after "host or domain name not found".
  if (reason === 'hostunknown' && TEMPORARY_DNS.test(`${diagnostic} ${notice}`)) {
    reason = 'networkerror';
    why.push('the DNS lookup failed for now ("try again"), which does not say the domain is missing');
  }

  const phase = detectSmtpPhase(`${diagnostic} ${notice}`);
  // The bare "unknown user" answered to DATA is how some carriers' filters refuse
  // (NTT docomo); a server that spells out that the mailbox does not exist or was
  // not found says more than that, whatever the command it answered.
  const spelledOut =
    reason === 'userunknown' && phase === 'data' && !definitive
      ? SPELLED_OUT_ABSENCE.exec(diagnostic || notice)
      : null;
  if (spelledOut) {
    definitive = true;
    why.push(`"${spelledOut[0]}" says the mailbox does not exist, even in reply to DATA`);
  }
  if (reason === 'userunknown' && phase === 'data' && !definitive) {
    reason = 'filtered';
    why.push(
      '"user unknown" came in reply to DATA, after the recipient was accepted: a filter, not a dead address',
    );
  } else if (HARD_REASONS.has(reason) && (phase === 'connect' || phase === 'mail')) {
    // Refused before any recipient was named: whatever the words, it is about us.
    reason = phase === 'connect' ? 'blocked' : 'rejected';
    why.push(
      `refused at ${phase === 'connect' ? 'connection or HELO' : 'MAIL FROM'}, before the recipient was named: ${reason}`,
    );
  }

  let hard = HARD_REASONS.has(reason);
  // RFC 5321 (4.2.1) makes a 5yz reply final: the client must not retry it. When the
  // server pairs it with a 4.x.x enhanced code ("551 4.7.17"), the two disagree and the
  // reply, the part every MTA acts on, decides; a delay or a retried delivery still wins.
  const finalReply = statusClass(findReplyCode(diagnostic)) === '5';
  if (hard && statusClass(evidence.status) === '4' && !finalReply) {
    hard = false;
    why.push(`status ${evidence.status} is temporary, so not hard`);
  } else if (hard && (evidence.action === 'delayed' || evidence.temporary)) {
    hard = false;
    why.push('delivery is still being retried, so not hard');
  }
  if (hard) why.push(`${reason}: the address is dead`);
  return { reason, hard, why };
}

const RECIPIENT_REFUSED =
  /(?<!sender |sender's |from )\b(recipient|address|rcpt)( address)? (rejected|refused|invalid)\b/;

// Wordings that state the mailbox is absent, as opposed to a bare "user unknown".
const SPELLED_OUT_ABSENCE =
  /\b(mailbox|recipient|user|address|account|rcpt)\b[^;]{0,60}?\b(does not exist|doesn'?t exist|not found|is not known)\b|\b(invalid|no such) (mailbox|recipient|user|account)\b/;

const TEMPORARY_DNS =
  /(host|domain name|name) not found, try again|temporary failure in name resolution|dns (temporary|transient) (failure|error)|\bservfail\b/;

type RuleMatch = { reason: BounceReason; label: string; index: number; definitive: boolean };

/**
 * Matches the rules against ever longer prefixes of the text, line by line, so that
 * a notice listing several recipients is read for the first one ("User unknown"
 * before the second recipient's "Mailbox full"), while a diagnostic folded over
 * several lines is still read whole once its first lines say nothing.
 */
function matchFirstRecipient(text: string): RuleMatch | undefined {
  // Bounded: a notice is a few dozen lines; a pathological one must not cost seconds.
  const lines = smtpReplies(text.split(/\r?\n/).slice(0, 200));
  for (let i = 1; i <= lines.length; i++) {
    const found = matchRule(normalizeDiagnostic(lines.slice(0, i).join('\n')));
    if (found) return found;
  }
  return undefined;
}

/**
 * Joins the lines of one multi-line SMTP reply (RFC 5321 4.2.1: "550-" on every
 * line but the last, "550 " on the last) into one, so the reply is read whole: GMX
 * says "mailbox unavailable" on its first line and, on the next, that the fault is
 * our sender domain's DNS.
 */
function smtpReplies(lines: string[]): string[] {
  const out: string[] = [];
  let open: string | undefined;
  for (const line of lines) {
    const code = /^\s*([245]\d\d)([- ])/.exec(line);
    if (open !== undefined && code?.[1] === open.slice(0, 3)) {
      out[out.length - 1] += ` ${line.trim()}`;
    } else {
      out.push(line);
    }
    open = code?.[2] === '-' ? code[1] : undefined;
  }
  return out;
}

function matchRule(text: string): RuleMatch | undefined {
  if (!text) return undefined;
  for (const rule of REASON_RULES) {
    const match = rule.pattern.exec(text);
    if (match)
      return {
        reason: rule.reason,
        label: rule.label,
        index: match.index,
        definitive: rule.definitive === true,
      };
  }
  return undefined;
}

/** A short quote around the match, so a reader sees the words that decided. */
function excerpt(text: string, index: number): string {
  const start = Math.max(0, index - 30);
  const end = Math.min(text.length, index + 50);
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

/** What is known about a message that might pause a sequence instead of stopping it. */
export interface PausingEvidence {
  /**
   * Positive evidence of an automatic absence notice, in words: absence wording in
   * the text, an absence or Outlook "Automatic reply" subject, or a vacation header.
   * Automation headers alone (Auto-Submitted, Precedence, X-Autoreply) are not it:
   * they mark any machine mail, bounces and mail-client unsubscribes included.
   */
  absence?: string;
  /** Evidence that the message must stop the sequence or is a person writing: bounce, complaint, unsubscribe, decline. */
  stoppers: readonly string[];
}

/** Whether the message may pause the sequence, and the deciding evidence in words. */
export interface PausingVerdict {
  pause: boolean;
  why: string;
}

/**
 * The safety rule for pausing classes (out-of-office): pausing needs positive
 * evidence of an automatic absence notice, and any evidence of a bounce, a
 * complaint, an unsubscribe or a person's own reply forbids it. The costly error is
 * one way only: a paused sequence writes again to a dead, complaining or
 * unsubscribed address, while a stopped one merely waits for a human to look.
 */
export function mayPause(evidence: PausingEvidence): PausingVerdict {
  const [stopper] = evidence.stoppers;
  if (stopper) return { pause: false, why: `never pausing: ${stopper}` };
  if (!evidence.absence)
    return { pause: false, why: 'not pausing: automation headers without any sign of an absence notice' };
  return { pause: true, why: `pausing: ${evidence.absence}` };
}

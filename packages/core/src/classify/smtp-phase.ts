/** The SMTP command a rejection answered, as far as the notice says. */
export type SmtpPhase = 'connect' | 'mail' | 'rcpt' | 'data';

// Each MTA words it differently: Postfix "(in reply to end of DATA command)",
// Exim "SMTP error from remote mail server after end of data", DragonFly "did not
// like our RCPT TO", GMX "after RCPT command", 1&1 "for TEXT command", qmail "my
// name was rejected" (HELO). Sendmail pipelines RCPT and DATA, so a recipient's
// rejection shows after ">>> DATA" too; only its own "554 5.0.0 Service unavailable"
// summary (instead of "550 5.1.1 ... User unknown") says DATA itself was refused.
const PHASES: ReadonlyArray<[SmtpPhase, RegExp]> = [
  [
    'data',
    /in reply to (end of )?data command|after (end of )?data\b|for (text|data) command|did not like our data|>>> data <<< [45]\d\d [^<>]{0,200}\b554 5\.0\.0 service unavailable/,
  ],
  [
    'rcpt',
    /in reply to rcpt to command|after rcpt( to| command)|>>> rcpt to:\S* <<< [45]\d\d|did not like our rcpt/,
  ],
  [
    'mail',
    /in reply to mail from command|after mail from|>>> mail from:\S* <<< [45]\d\d|did not like our mail/,
  ],
  [
    'connect',
    /after initial connection|in reply to (helo|ehlo)|after (helo|ehlo)|during (initial )?connection|my name was rejected/,
  ],
];

/** Finds the SMTP phase of the rejection in a normalised notice, or undefined. */
export function detectSmtpPhase(normalized: string): SmtpPhase | undefined {
  for (const [phase, pattern] of PHASES) if (pattern.test(normalized)) return phase;
  return undefined;
}

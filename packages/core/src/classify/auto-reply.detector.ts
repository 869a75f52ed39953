/** What the headers and subject say about a message being an automatic reply. */
export interface AutoReplySignals {
  /** The signals found, in words; empty when the message looks written by hand. */
  why: string[];
  /** ISO date the vacation ends, when a header states it (Apple's X-Apple-Criteria). */
  returnDate?: string;
  /** Positive evidence of an absence notice in the headers or subject, in words; see mayPause. */
  absence?: string;
}

// Subjects that autoresponders prefix, in English, German, French and Spanish
// (plus Italian, Dutch, Portuguese, Polish, Japanese, and the words Outlook and
// webmail localize "Automatic reply" / "Out of office" to in Czech, Swedish,
// Danish/Norwegian, Finnish, Latvian, Hungarian, Turkish, Russian and Greek).
const AUTO_SUBJECT =
  /^\[?\s*(automatyczna odpowied[zź]|nieobecno[sś][cć]|resposta autom[áa]tica|aus[êe]ncia|ausente|fuori (sede|ufficio)|afwezigheid|自動(応答|返信)|不在|automatic reply|auto(matic)?[ -]?(reply|response|antwort)|autoreply|out of (the )?office|ooo\b|abwesenheitsnotiz|abwesenheit|automatische antwort|r[ée]ponse automatique|(absence|absent)\s*:|respuesta autom[áa]tica|fuera de la oficina|risposta automatica|automatisch antwoord|afwezig|automatick[áa] odpov[ěe][dď]|mimo kancel[áa][řr]|autosvar|fr[åa]nvaro|frav[æa]r|automaattinen vastaus|poissa|automātiskā atbilde|automatiska atbilde|ārpus biroja|arpus biroja|atva[lļ]in[aā]jums|automatikus v[áa]lasz|h[áa]zon k[íi]v[üu]l|otomatik (yan[ıi]t|cevap)|ofis d[ıi][şs][ıi]nda|автоответ|автоматический ответ|вне офиса|в отпуске|αυτόματη απάντηση)/i;

/**
 * Reads the RFC 3834 and vendor headers that mark an automatic reply:
 * `Auto-Submitted: auto-replied`, `X-Autoreply`, `X-Autorespond`,
 * `Precedence: auto_reply`, Apple's `X-Apple-Action: VACATION`, and an
 * autoresponder's subject prefix. `Auto-Submitted: auto-generated` is left out on
 * purpose: it marks any machine mail (delivery notices, alerts), not a reply.
 * The caller checks for bounces first: Postfix marks its bounces auto-replied too.
 */
export function detectAutoReply(headers: ReadonlyMap<string, string>, subject: string): AutoReplySignals {
  const why: string[] = [];
  const autoSubmitted = headers.get('auto-submitted') ?? '';
  if (/auto-replied/i.test(autoSubmitted)) why.push(`Auto-Submitted: ${autoSubmitted.trim()} (RFC 3834)`);
  for (const name of ['x-autoreply', 'x-autorespond', 'x-autoresponder', 'x-autoreply-from']) {
    const value = headers.get(name);
    if (value !== undefined && !/^\s*(no|false|0)\s*$/i.test(value)) why.push(`${name} header`);
  }
  if (/auto[_-]?reply/i.test(headers.get('precedence') ?? '')) why.push('Precedence: auto_reply');
  if (/vacation/i.test(headers.get('x-apple-action') ?? '')) why.push('X-Apple-Action: VACATION');
  const trimmed = subject.trim();
  const autoSubject = AUTO_SUBJECT.test(trimmed);
  if (autoSubject) why.push(`subject "${trimmed.slice(0, 60)}" is an autoresponder's`);

  const signals: AutoReplySignals = { why };
  // Absence evidence: a vacation header, or an autoresponder's subject (Outlook's
  // "Automatic reply" comes only from its out-of-office assistant). Auto-Submitted,
  // Precedence and X-Autoreply are not: bounces and unsubscribe requests carry them.
  if (/vacation/i.test(headers.get('x-apple-action') ?? '')) signals.absence = 'X-Apple-Action: VACATION';
  else if (autoSubject) signals.absence = `absence subject "${trimmed.slice(0, 60)}"`;
  // Apple states the vacation's end as an instant; the person is back the day after.
  const criteria = /enddate=(\d{4}-\d{2}-\d{2}T[\d:.]+Z)/i.exec(headers.get('x-apple-criteria') ?? '');
  if (criteria?.[1]) {
    const end = new Date(criteria[1]);
    if (!Number.isNaN(end.getTime()))
      signals.returnDate = new Date(end.getTime() + 1000).toISOString().slice(0, 10);
  }
  return signals;
}

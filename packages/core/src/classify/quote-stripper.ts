// A reply's own words end where the quoted history or the signature begins. These
// lines open the history in the mail clients our prospects use, in English, German,
// French, Spanish, Portuguese, Italian and Dutch; an attribution line may wrap, so
// two lines are joined first.
const ATTRIBUTION = [
  /^on\b.{4,300}\bwrote\s*:?\s*$/i,
  /^am\b.{4,300}\bschrieb\b.{0,200}:\s*$/i,
  /^le\b.{4,300}\ba [ée]crit\s*:?\s*$/i,
  /^el\b.{4,300}\bescribi[óo]\s*:?\s*$/i,
  /^(em|no dia)\b.{4,300}\bescreveu\s*:?\s*$/i,
  /^il\b.{4,300}\bha scritto\s*:?\s*$/i,
  /^op\b.{4,300}\b(schreef|het volgende geschreven)\b.{0,200}:?\s*$/i,
  /^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}.{0,200}\b(wrote|schrieb|a [ée]crit|escribi[óo]|escreveu|ha scritto|schreef|geschreven)\s*:?\s*$/i,
];

const SEPARATOR = [
  /^-{2,}\s*(original message|ursprüngliche nachricht|urspr[üu]ngliche nachricht|message d'origine|mensaje original|forwarded message|weitergeleitete nachricht|message transféré|mensaje reenviado|mensagem original|messaggio originale|oorspronkelijk bericht|origineel bericht)\s*-{2,}\s*$/i,
  /^_{10,}\s*$/,
  /^-{5,}\s*$/,
];

// An Outlook-style header block: "From: ..." followed within a few lines by "Sent: ...".
const HEADER_FROM = /^\*?(from|von|de|expéditeur|da|van)\s*\*?\s*:/i;
const HEADER_SENT =
  /^\*?(sent|date|gesendet|datum|envoyé( le)?|envoye( le)?|fecha|envia(do|da)( el| em)?|data|inviat[oa]|verzonden|verstuurd( op)?)\s*\*?\s*:/i;

// "-- " is the RFC 3676 signature delimiter; the others are what phones append.
const SIGNATURE = [
  /^--\s?$/,
  /^(sent from my|envoyé de mon|von meinem .* gesendet|enviado desde mi|enviado do meu|inviato da|verzonden (vanaf|met) mijn|verstuurd vanaf mijn|get outlook for)\b/i,
];

// A closing formula on a line of its own ends the writer's words: what follows is a
// name, a title, phone numbers and the company's footer (whose "click here to
// unsubscribe" is addressed to the reader, not to us).
const VALEDICTION =
  /^((kind|best|warm|many|with)? ?(regards|wishes)|best|cheers|thanks( again| so much)?|thank you|many thanks|sincerely|yours( sincerely| truly)?|(mit )?(freundlichen|besten|herzlichen|vielen|liebe|viele|beste|freundliche) gr(ü|ue|u)(ß|ss)en?|gr(ü|ue|u)(ß|ss)e?|lg|vg|mfg|(bien )?cordialement|bien (à|a) vous|salutations( distinguées)?|bonne (journée|journee|soirée)|(un )?saludos?( cordiales)?|atentamente|un abrazo|atenciosamente|abraços?|abracos?|att\.?|cordiais saudações|(cordiali |distinti |un )?salut[io]|cordialità|met (vriendelijke|hartelijke) groet(en)?|(vriendelijke |hartelijke )?groet(en|jes)?|mvg)\s*[,.!]?$/i;

/**
 * Returns only the new text of a reply: drops "> " quoted lines, and cuts at the
 * first attribution line ("On ... wrote:", "Am ... schrieb ...:", "Le ... a écrit :",
 * "El ... escribió:"), original-message separator, Outlook header block or
 * signature delimiter. If cutting would leave nothing (a reply written below the
 * quote), the unquoted lines are kept instead, so no reply reads as empty.
 */
export function stripQuotedText(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const cut = findCut(lines);
  const own = lines.slice(0, cut).filter((line) => !/^\s*>/.test(line));
  const result = own.join('\n').trim();
  if (result) return result;
  return lines
    .filter((line) => !/^\s*>/.test(line))
    .join('\n')
    .trim();
}

function findCut(lines: string[]): number {
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim();
    if (!line) continue;
    const joined = `${line} ${(lines[i + 1] ?? '').trim()}`.trim();
    const joined3 = `${joined} ${(lines[i + 2] ?? '').trim()}`.trim();
    if (ATTRIBUTION.some((p) => p.test(line) || p.test(joined) || p.test(joined3))) {
      if (/^(on|am|le|el|em|no dia|il|op|\d)/i.test(line)) return i;
    }
    if (SEPARATOR.some((p) => p.test(line))) return i;
    if (HEADER_FROM.test(line)) {
      const next = lines.slice(i + 1, i + 5).map((l) => l.trim());
      if (next.some((l) => HEADER_SENT.test(l))) return i;
    }
    if (SIGNATURE.some((p) => p.test(line))) return i;
    if (VALEDICTION.test(line) && lines.slice(0, i).some((l) => l.trim()) && signedBelow(lines, i)) return i;
  }
  return lines.length;
}

/** Whether the line after a closing formula looks like a name (a few words, no sentence). */
function signedBelow(lines: string[], at: number): boolean {
  const next = lines
    .slice(at + 1)
    .find((l) => l.trim())
    ?.trim();
  if (next === undefined) return true;
  return next.split(/\s+/).length <= 4 && !/[?!:;]|[.,]\s/.test(next);
}

// Reply prefixes mail clients add: English "Re", German "AW", Scandinavian "SV",
// Dutch "Antw"; optionally counted ("Re[2]:") and with a full-width colon.
const REPLY_PREFIX = /^(?:re|aw|sv|antw)(?:\[\d+\])?\s*[:：]/i;

/**
 * The subject of a follow-up in the first touch's thread: `Re: ` + the first
 * subject, unless it already starts with a reply prefix (`Re:`, `RE:`, `AW:`, …),
 * which is kept as it is rather than doubled.
 */
export function threadSubject(firstSubject: string): string {
  const subject = firstSubject.trim();
  if (REPLY_PREFIX.test(subject)) return subject;
  return subject === '' ? 'Re:' : `Re: ${subject}`;
}

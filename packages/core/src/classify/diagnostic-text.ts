/**
 * Normalises a server's diagnostic text for phrase matching: lower case, one space
 * between words, and URLs cut to their host. Hosts stay because they carry meaning
 * (a block list's name); paths go because they carry words that are not the
 * server's verdict (a help page named after a reason, a tracking id).
 */
export function normalizeDiagnostic(text: string): string {
  return text
    .replace(/\bhttps?:\/\/([^/\s>"')\]]+)[^\s>"')\]]*/gi, '$1')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

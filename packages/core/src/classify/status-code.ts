/**
 * RFC 3463 enhanced status codes ("5.1.1") and RFC 5321 reply codes ("550") as
 * they appear in the free text of bounce notices.
 */

// Not preceded by a digit or dot and not followed by ".digit": keeps "192.0.2.1"
// and version numbers from passing for a status code.
const ENHANCED = /(?<![\d.])([245])\.(\d{1,3})\.(\d{1,3})(?!\.?\d)/g;
// An enhanced code that directly follows a reply code or a '#' is the server's own
// classification; a bare one further on may be a quoted example or a version.
const ANCHORED = /(?:\b[245]\d\d[ -]['"]?|#|\(|\[)\s*([245]\.\d{1,3}\.\d{1,3})(?!\.?\d)/;
const REPLY_CODE = /(?:^|[\s:;(<>'"=-])([245][0-5]\d)(?=[\s-]|$)/m;

/** Returns the enhanced status code the text gives the most weight to, or "". */
export function findStatusCode(text: string): string {
  const anchored = ANCHORED.exec(text);
  if (anchored?.[1]) return anchored[1];
  let generic = '';
  for (const match of text.matchAll(ENHANCED)) {
    // A status of x.0.0 is only a class; keep looking for a specific one.
    if (match[2] !== '0' || match[3] !== '0') return match[0];
    generic ||= match[0];
  }
  return generic;
}

/** Returns the first SMTP reply code ("550") in the text, or "". */
export function findReplyCode(text: string): string {
  return REPLY_CODE.exec(text)?.[1] ?? '';
}

/** True for a status that names only the class (x.0.0), which carries no reason. */
export function isGenericStatus(status: string): boolean {
  return /^[245]\.0\.0$/.test(status);
}

/** The class digit of a status or reply code: "5" permanent, "4" temporary, "2" success, or "". */
export function statusClass(code: string): '2' | '4' | '5' | '' {
  const first = code.trim()[0];
  return first === '2' || first === '4' || first === '5' ? first : '';
}

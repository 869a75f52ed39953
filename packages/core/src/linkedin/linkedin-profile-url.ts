/**
 * A LinkedIn member's profile URL in the one form touchbase stores and compares:
 * `https://www.linkedin.com/in/<slug>/`, the slug percent-decoded, lower-cased
 * and re-encoded. Every spelling LinkedIn, its apps and the tools around it hand
 * out names the same person once normalised:
 *
 * - scheme or none (`linkedin.com/in/x`), `http`, any case;
 * - `www.`, mobile (`m.`, `mobile.`) and country subdomains (`fr.`, `de.`, `uk.`);
 * - a trailing slash or none, a query (`?trk=…`, `?originalSubdomain=fr`) or a fragment;
 * - what follows the slug (`/in/x/details/experience/`, `/in/x/en`: a section or a
 *   language version of the same profile);
 * - percent-encoding (`/in/j%C3%A9r%C3%B4me` and `/in/jérôme` are one slug) and case
 *   (LinkedIn's slugs are case-insensitive: `/in/John-Doe` is `/in/john-doe`).
 *
 * Sales Navigator and Recruiter URLs (`/sales/lead/…`, `/talent/profile/…`) name
 * the member by an internal id, not the public slug: they are not profile URLs
 * here. `/pub/name/a/b/c` (the pre-2013 public form) is read as its slug only
 * when nothing else is possible, so it is refused too.
 */
export function normaliseLinkedInProfileUrl(input: string): string | null {
  const slug = linkedInProfileSlug(input);
  return slug === null ? null : `https://www.linkedin.com/in/${encodeURIComponent(slug)}/`;
}

/** The decoded, lower-cased public slug of a profile URL, or null when `input` is not one. */
export function linkedInProfileSlug(input: string): string | null {
  const trimmed = input.trim();
  if (trimmed.length === 0 || trimmed.length > 2000) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password || (url.port && url.port !== '80' && url.port !== '443')) return null;
  if (!isLinkedInHost(url.hostname)) return null;
  const segments = url.pathname.split('/').filter(Boolean);
  if (segments.length < 2 || segments[0]?.toLowerCase() !== 'in') return null;
  let slug: string;
  try {
    slug = decodeURIComponent(segments[1] as string);
  } catch {
    // A lone `%` or a bad UTF-8 sequence: not a slug LinkedIn hands out.
    return null;
  }
  slug = slug.normalize('NFC').toLowerCase();
  // A slug is 3 to 100 characters, none of them a separator or a control character.
  if (slug.length < 3 || slug.length > 100) return null;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\s/?#\u0000-\u001f\u007f]/.test(slug)) return null;
  return slug;
}

/** linkedin.com, www., mobile and country subdomains; never a look-alike (`linkedin.com.evil.io`). */
function isLinkedInHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'linkedin.com') return true;
  if (!host.endsWith('.linkedin.com')) return false;
  const sub = host.slice(0, -'.linkedin.com'.length);
  // www, m, mobile, touch, or a two-letter country or language code (fr, de, uk, br).
  return /^(www|m|mobile|touch|[a-z]{2})$/.test(sub);
}

import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { normalisedEmail } from '../contact/email-address.js';
import { normaliseLinkedInProfileUrl } from '../linkedin/linkedin-profile-url.js';

/**
 * The names a person is known by across channels: e-mail addresses, the LinkedIn
 * profile URL, the HubSpot record id, a phone number. Each is stored and compared
 * in one normalised form, and one (kind, value) belongs to one prospect.
 */
export const IDENTITY_KINDS = ['email', 'linkedin', 'hubspot', 'phone'] as const;
export type IdentityKind = (typeof IDENTITY_KINDS)[number];

/** One identity in its normalised form. */
export type Identity = { kind: IdentityKind; value: string };

/**
 * A phone number in E.164 (`+4930123456`), or null when it is not a possible number.
 * A number written without its country code is read in `defaultCountry` (ISO 3166
 * alpha-2, e.g. the prospect's country); without one it must start with `+`.
 * libphonenumber-js (Google's metadata, kept up to date) decides, not a regex: the
 * length rules differ per country and change.
 */
export function normalisedPhone(input: string, defaultCountry?: string): string | null {
  const trimmed = input.trim();
  if (trimmed.length === 0 || trimmed.length > 40) return null;
  const country = defaultCountry?.toUpperCase();
  const parsed = parsePhoneNumberFromString(
    trimmed,
    // Only a code the library knows: an unknown one would throw.
    country && /^[A-Z]{2}$/.test(country)
      ? (country as Parameters<typeof parsePhoneNumberFromString>[1])
      : undefined,
  );
  if (!parsed?.isPossible()) return null;
  return parsed.number;
}

/** A HubSpot record id (digits, no leading zero), or null. */
export function normalisedHubspotId(input: string): string | null {
  const trimmed = input.trim();
  return /^[1-9][0-9]{0,19}$/.test(trimmed) ? trimmed : null;
}

/** An e-mail address in its stored form, or null when it has not one `@` with a dotted domain. */
export function normalisedEmailIdentity(input: string): string | null {
  const email = normalisedEmail(input);
  return /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email) ? email : null;
}

/** The normalised form of an identity of this kind, or null when the value is not one. */
export function normalisedIdentity(kind: IdentityKind, value: string): string | null {
  switch (kind) {
    case 'email':
      return normalisedEmailIdentity(value);
    case 'linkedin':
      return normaliseLinkedInProfileUrl(value);
    case 'hubspot':
      return normalisedHubspotId(value);
    case 'phone':
      return normalisedPhone(value);
  }
}

/** What an import row or an API body says about who a person is. */
export type IdentityFields = {
  email: string;
  /** More addresses of the same person. */
  otherEmails?: readonly string[] | null;
  linkedinUrl?: string | null;
  hubspotId?: string | null;
  phone?: string | null;
};

/**
 * Every identity a row names, normalised, without repeats, its address first. A
 * value that does not normalise is left out (the API refuses it before, naming the field).
 */
export function identitiesOf(fields: IdentityFields): Identity[] {
  const out: Identity[] = [];
  const seen = new Set<string>();
  const add = (kind: IdentityKind, raw: string | null | undefined) => {
    if (!raw) return;
    const value = normalisedIdentity(kind, raw);
    if (value === null || seen.has(`${kind}:${value}`)) return;
    seen.add(`${kind}:${value}`);
    out.push({ kind, value });
  };
  add('email', fields.email);
  for (const e of fields.otherEmails ?? []) add('email', e);
  add('linkedin', fields.linkedinUrl);
  add('hubspot', fields.hubspotId);
  add('phone', fields.phone);
  return out;
}

/** The key one identity is compared by. */
export function identityKey(identity: Identity): string {
  return `${identity.kind}:${identity.value}`;
}

/**
 * Rows of one import that are the same person: rows sharing any identity (an
 * address, the LinkedIn URL, the HubSpot id, the phone), directly or through
 * another row, form one group. @returns each row's group, the index of the group's
 * first row (so `groups[i] === i` for the row that names the person).
 */
export function samePersonGroups(rows: readonly (readonly Identity[])[]): number[] {
  const parent = rows.map((_, i) => i);
  const find = (i: number): number => {
    let root = i;
    while (parent[root] !== root) root = parent[root]!;
    // Path compression: later finds are one step.
    let at = i;
    while (parent[at] !== root) {
      const next = parent[at]!;
      parent[at] = root;
      at = next;
    }
    return root;
  };
  const owner = new Map<string, number>();
  rows.forEach((identities, i) => {
    for (const id of identities) {
      const key = identityKey(id);
      const other = owner.get(key);
      if (other === undefined) {
        owner.set(key, i);
        continue;
      }
      const [a, b] = [find(other), find(i)];
      // The earlier row stays the root: the group is named by its first row.
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
  });
  return rows.map((_, i) => find(i));
}

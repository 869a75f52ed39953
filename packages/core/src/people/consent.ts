import { z } from 'zod';

/**
 * The lawful bases of GDPR art. 6(1), (a) to (f). Cold outbound in the EU usually
 * rests on `legitimate_interests` (recital 47), sometimes on `consent`.
 */
export const LEGAL_BASES = [
  'consent',
  'contract',
  'legal_obligation',
  'vital_interests',
  'public_task',
  'legitimate_interests',
] as const;
export type LegalBasis = (typeof LEGAL_BASES)[number];

/** What an import may say about consent: given, refused, or withdrawn. */
export const CONSENT_STATES = ['granted', 'denied', 'withdrawn'] as const;
export type ConsentState = (typeof CONSENT_STATES)[number];

/** Spellings seen in CRM exports, read as one of {@link CONSENT_STATES}. */
const CONSENT_WORDS: Record<string, ConsentState> = {
  granted: 'granted',
  given: 'granted',
  yes: 'granted',
  y: 'granted',
  true: 'granted',
  '1': 'granted',
  optin: 'granted',
  optedin: 'granted',
  denied: 'denied',
  refused: 'denied',
  no: 'denied',
  n: 'denied',
  false: 'denied',
  '0': 'denied',
  withdrawn: 'withdrawn',
  revoked: 'withdrawn',
  optout: 'withdrawn',
  optedout: 'withdrawn',
};

const fold = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/[\s_-]/g, '');

/** A consent cell as one of {@link CONSENT_STATES}, or null when it is none of the words known. */
export function consentStateOf(input: string): ConsentState | null {
  return Object.hasOwn(CONSENT_WORDS, fold(input)) ? (CONSENT_WORDS[fold(input)] ?? null) : null;
}

/** A legal basis cell (`Legitimate interests`, `art. 6(1)(f)`, `f`) as one of {@link LEGAL_BASES}, or null. */
export function legalBasisOf(input: string): LegalBasis | null {
  const f = fold(input)
    .replace(/^(gdpr)?(art(icle)?\.?)?6(\(1\))?/, '')
    .replace(/[().]/g, '');
  const byLetter: Record<string, LegalBasis> = {
    a: 'consent',
    b: 'contract',
    c: 'legal_obligation',
    d: 'vital_interests',
    e: 'public_task',
    f: 'legitimate_interests',
  };
  if (Object.hasOwn(byLetter, f)) return byLetter[f] ?? null;
  const basis = LEGAL_BASES.find((b) => fold(b) === f || fold(b).replace(/s$/, '') === f);
  return basis ?? null;
}

/** `consent` on input: one of the states, in any spelling {@link consentStateOf} reads. */
export const ConsentInputSchema = z.string().transform((v, ctx) => {
  const state = consentStateOf(v);
  if (state === null) {
    ctx.addIssue({ code: 'custom', message: `one of ${CONSENT_STATES.join(', ')} (or yes/no)`, input: v });
    return z.NEVER;
  }
  return state;
});

/** `legalBasis` on input: a GDPR art. 6(1) basis by name or letter. */
export const LegalBasisInputSchema = z.string().transform((v, ctx) => {
  const basis = legalBasisOf(v);
  if (basis === null) {
    ctx.addIssue({
      code: 'custom',
      message: `one of ${LEGAL_BASES.join(', ')} (or art. 6(1) a-f)`,
      input: v,
    });
    return z.NEVER;
  }
  return basis;
});

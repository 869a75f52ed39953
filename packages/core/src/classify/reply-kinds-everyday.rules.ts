import { EVERYDAY_INTERESTED_RULES } from './reply-kinds-everyday-interested.rules.js';
import { EVERYDAY_NOT_INTERESTED_RULES } from './reply-kinds-everyday-not-interested.rules.js';
import { EVERYDAY_OUT_OF_OFFICE_RULES } from './reply-kinds-everyday-out-of-office.rules.js';
import { EVERYDAY_UNSUBSCRIBE_RULES } from './reply-kinds-everyday-unsubscribe.rules.js';
import {
  EVERYDAY_LEFT_COMPANY_RULES,
  EVERYDAY_WRONG_PERSON_RULES,
} from './reply-kinds-everyday-wrong-person.rules.js';
import type { ReplyRule, ReplyRuleGroup } from './reply-rule.types.js';

// Everyday wordings of the reply kinds, in English, German, French, Spanish,
// Portuguese, Italian and Dutch, written as vocabulary lists (verbs and nouns per
// language, with their common inflections) rather than as whole sentences: the
// informal second person ("streich mich", "elimíname", "deja de escribirme"), an
// object between the verb and its noun ("ein unverbindliches Angebot"), telegraphic
// absences ("De férias até segunda"), and a decline that names a contract signed
// elsewhere. Folded text: lower case, no accents (see foldText).
//
// One file per reply kind (reply-kinds-everyday-<kind>.rules.ts); this one puts them
// together in the order the groups had when they were one file.

/** Rules per group, merged after the earlier lists (see reply-rules.ts). */
export const EVERYDAY_KIND_RULES: Readonly<Partial<Record<ReplyRuleGroup, readonly ReplyRule[]>>> = {
  unsubscribe: EVERYDAY_UNSUBSCRIBE_RULES,
  left_company: EVERYDAY_LEFT_COMPANY_RULES,
  wrong_person: EVERYDAY_WRONG_PERSON_RULES,
  out_of_office: EVERYDAY_OUT_OF_OFFICE_RULES,
  not_interested: EVERYDAY_NOT_INTERESTED_RULES,
  interested: EVERYDAY_INTERESTED_RULES,
};

/**
 * Chat shorthand written out, so the rules read "nn sono io" as "non sono io" and
 * "nao sou eu q cuido" as "nao sou eu que cuido". Only abbreviations that stand for
 * one word in every language they occur in.
 */
export function expandShorthand(folded: string): string {
  return folded
    .replace(/\bnn\b/g, 'non')
    .replace(/\bq\b/g, 'que')
    .replace(/\bpq\b/g, 'porque')
    .replace(/\bvc\b/g, 'voce')
    .replace(/\bpls\b|\bplz\b/g, 'please')
    .replace(/\bthx\b/g, 'thanks')
    .replace(/\ba\.u\.b\.?(?=\s|$)/g, 'aub')
    .replace(/\bs\.v\.p\.?(?=\s|$)/g, 'svp')
    .replace(GERMAN_WITHOUT_UMLAUTS, (word) =>
      word.replace(/ae/g, 'a').replace(/oe/g, 'o').replace(/ue/g, 'u'),
    );
}

/**
 * German words written with "ae", "oe", "ue" for a missing umlaut key ("koennen",
 * "naechste Woche", "fuer"), read as folded text spells them ("konnen"). Only stems
 * that are German in every language read here ("fuer" only as a whole word: Spanish
 * "fuera"), so "queue" or "poet" stay as written.
 */
const GERMAN_WITHOUT_UMLAUTS =
  /\bfuer\b|\b(?:koenn|moecht|naechst|wuerd|waer|ueber|muess|gespraech|spaet|frueh|zurueck|buero|loesch|loesung|zustaendig|taetig|geschaeft|aender|hoert|klaer|persoenlich|gruess|unterstuetz|verfueg|moeglich|bestaetig)\w*/g;

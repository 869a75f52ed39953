import type { ReplyRule, ReplyRuleGroup } from './reply-rule.types.js';

// Word families, folded (lower case, no accents), for English, German, French and
// Spanish. A phrase list only knows the sentences someone thought of; these rules
// pair a verb family with an object family a few words apart, so "please delete my
// contact from your list" and "Bitte aus dem Verteiler löschen" are read the same
// way without either sentence being listed.
const alt = (...words: string[]): string => `(?:${words.join('|')})`;

/** a, then b within `gap` words (either order when `both` is set). */
function near(a: string, b: string, gap = 5, both = false): RegExp {
  const forward = `\\b${a}\\b(?:[^\\w]+[\\w'-]+){0,${gap}}?[^\\w]+${b}\\b`;
  const backward = `\\b${b}\\b(?:[^\\w]+[\\w'-]+){0,${gap}}?[^\\w]+${a}\\b`;
  return new RegExp(both ? `${forward}|${backward}` : forward);
}

const REMOVE = alt(
  'remove',
  'delete',
  'erase',
  'purge',
  'unsubscribe',
  'entfernen',
  'entfernt',
  'loschen',
  'loscht',
  'geloscht',
  'austragen',
  'streichen',
  'supprime[rz]?',
  'retire[rz]?',
  'enleve[rz]?',
  'efface[rz]?',
  'rayer',
  'borr(?:en|ar|ad|e)',
  'elimin(?:en|ar|ad|e)',
  'quit(?:en|ar|ad)',
  'saqu(?:en|e)',
  'sacar',
  'suprim(?:an|ir|id)',
);
// Pronouns only right after the verb: "delete it, send me the deck" is no request.
const PRONOUN = alt('me', 'us', 'mich', 'uns', 'moi', 'nous');
const REMOVE_ATTACHED = alt(
  'borrenme',
  'eliminenme',
  'quitenme',
  'saquenme',
  'sacadme',
  'eliminadme',
  'borradme',
  'quitadme',
);
const REMOVE_OBJECT = alt(
  'my (?:e-?mail|email address|address|details|data|contact|name|information|info)',
  '(?:the|your|this|that|all) (?:list|lists|mailing list|database|crm|sequence|cadence|distribution)',
  '(?:meine|unsere) (?:daten|adresse|e-?mail(?:-adresse)?|kontaktdaten|angaben)',
  '(?:dem|ihrem|eurem|diesem) (?:verteiler|newsletter|e-?mail-verteiler)',
  '(?:verteiler|liste|mailingliste|datenbank|kontaktliste)',
  'mon (?:adresse|contact|e-?mail|mail|nom)',
  'mes (?:donnees|coordonnees|informations)',
  '(?:votre|vos|la|cette) (?:liste|listes|fichier|fichiers|base|bases)',
  'mis (?:datos|contactos)',
  'mi (?:correo|direccion|email|e-?mail|contacto|nombre)',
  '(?:su|sus|la|esta|vuestra) (?:lista|listas|base de datos|bbdd)',
  'lista',
);
const STOP = alt(
  'stop',
  'quit',
  'cease',
  'halt',
  'aufhoren',
  'horen sie',
  'hor auf',
  'arrete[rz]?',
  'cesse[rz]?',
  'dej(?:en|e|ad|ar) de',
  'paren de',
  'basta de',
);
const CONTACTING = alt(
  'e-?mails?',
  'e-?mailing',
  'mails?',
  'messages?',
  'sending',
  'contacting',
  'writing',
  'spamming',
  'following up',
  'outreach',
  'schreiben',
  'senden',
  'zusendungen',
  'kontaktieren',
  'nachrichten',
  'envois?',
  'relances?',
  'ecrire',
  'contacter',
  'envoyer',
  'correos?',
  'mensajes?',
  'escribir(?:me|nos)?',
  'enviar(?:me|nos)?',
  'contactar(?:me|nos)?',
  'mandar(?:me|nos)?',
);
const UNWANTED_MAIL = alt(
  'e-?mails?',
  'mails?',
  'messages?',
  'werbe-?mails?',
  'werbung',
  'nachrichten',
  'correos?',
  'mensajes?',
  'envois?',
  'relances?',
);

const WANT_NO = alt(
  "don'?t want(?: any)?(?: more)?",
  'do not want(?: any)?(?: more)?',
  'no more',
  'no further',
  'keine(?: weiteren)?',
  'nicht mehr',
  'ne (?:veux|souhaite|desire|voulons|souhaitons) plus(?: recevoir)?',
  'plus de',
  'no (?:quiero|deseo|queremos|deseamos)(?: recibir)?(?: mas)?',
  'no mas',
);
// "no" reaches one word only ("no me interesa"), so "no problem, I'm interested" is not a no.
const NEGATION = alt('not', "don'?t", 'do not', 'kein\\w*', 'nicht', 'nichts', 'pas', 'sin', 'never');
const NEED = alt(
  'interest\\w*',
  'need\\w*',
  'use for',
  'bedarf',
  'interesse\\w*',
  'brauch\\w*',
  'benotig\\w*',
  'besoin',
  "(?:l')?utilite",
  'interes\\w*',
  'necesit\\w*',
);
const ALREADY = alt('already', 'bereits', 'schon', 'deja', 'ya');
const HAVE = alt(
  'have',
  'got',
  'use',
  'using',
  'work with',
  'working with',
  'equipe\\w*',
  'haben',
  'nutzen',
  'verwenden',
  'arbeiten',
  'avons',
  'utilisons',
  'travaillons',
  'tenemos',
  'usamos',
  'utilizamos',
  'trabajamos',
  'contamos',
);

const DAY = alt(
  'today',
  'tomorrow',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'next week',
  'this week',
  'heute',
  'morgen',
  'montag',
  'dienstag',
  'mittwoch',
  'donnerstag',
  'freitag',
  'nachste woche',
  'demain',
  'lundi',
  'mardi',
  'mercredi',
  'jeudi',
  'vendredi',
  'semaine prochaine',
  'manana',
  'lunes',
  'martes',
  'miercoles',
  'jueves',
  'viernes',
  'proxima semana',
  'semana que viene',
  '\\d{1,2}(?::\\d\\d)? ?(?:am|pm|uhr|h)',
);
// Bare "talk" is left out: "we'll talk internally next week" is no meeting.
const MEETING = alt(
  'call',
  'chat',
  "(?:let'?s|can we|could we|shall we|we could|happy to) (?:talk|speak|meet)",
  'meeting',
  'demo',
  'telefonieren',
  'gesprach',
  'telefonat',
  'termin',
  'appel\\w*',
  'rendez-vous',
  'rdv',
  'echangeons',
  'llamada',
  'reunion',
  'hablamos',
  'hablar',
  'llamamos',
  'vemos',
);
const PRICE = alt(
  'price',
  'pricing',
  'cost',
  'costs',
  'preis\\w*',
  'kosten',
  'kostet',
  'prix',
  'tarif\\w*',
  'precio\\w*',
  'cuesta',
);
const ACCEPT = alt(
  'go ahead',
  'adelante',
  'je veux bien',
  'volontiers',
  'avec plaisir',
  'con gusto',
  'de acuerdo',
  'einverstanden',
  'lassen sie uns',
  'lass uns',
  'next steps?',
  'prochaine etape',
  'nachste schritte?',
  'siguiente paso',
  'proximos pasos',
  'got my attention',
  'tell me more',
  'erzahlen sie mehr',
  'dites-m.en plus',
  'cuentame mas',
  'cuenteme mas',
  'dime mas',
  'einladung',
  'invitation',
  'invitacion',
);

/** Word-family rules, tried after the phrase rules of the same group. */
export const LEXICON_RULES: Readonly<Partial<Record<ReplyRuleGroup, readonly ReplyRule[]>>> = {
  unsubscribe: [
    { label: 'a removal verb with the list or their address', pattern: near(REMOVE, REMOVE_OBJECT, 4, true) },
    {
      label: 'a removal verb with "me"',
      pattern: new RegExp(`\\b${REMOVE}\\W+${PRONOUN}\\b|\\b${REMOVE_ATTACHED}\\b`),
    },
    { label: 'asks us to stop writing', pattern: near(STOP, CONTACTING, 4, true) },
    {
      label: 'says they want no more mail',
      pattern: near(WANT_NO, UNWANTED_MAIL, 3),
    },
  ],
  left_company: [
    {
      label: 'the person has retired',
      pattern:
        /\b(retired|has retired|in (rente|pension|ruhestand) (gegangen|gegangen ist)|ist in rente|(est|suis) (parti|partie) a la retraite|se jubilo|esta jubilad[oa])\b/,
    },
  ],
  wrong_person: [
    {
      label: 'points to whoever handles it',
      pattern:
        /\b(sits with|belongs to|falls under|handled by|owned by|the one to (speak|talk) to|musste an|voyez avec|voir avec|(eso|esto) lo (ve|lleva|gestiona|decide))\b|\bje ne (gere|m'occupe|traite) pas\b|\bje ne suis pas (en charge|responsable|concernee?|la personne|le bon|la bonne)\b|\b(only|just) (the|an|a) (assistant|intern|receptionist)\b|\bnur (die|der) (assistenz|assistent\w*|praktikant\w*)\b/,
    },
  ],
  not_interested: [
    { label: 'denies interest or need', pattern: near(NEGATION, NEED, 3) },
    { label: 'denies interest or need', pattern: near('no', NEED, 1) },
    {
      label: 'denies a need (German word order)',
      pattern: near(alt('brauch\\w*', 'benotig\\w*'), alt('nicht', 'kein\\w*'), 3),
    },
    { label: 'already has a solution', pattern: near(ALREADY, HAVE, 3) },
    {
      label: 'declines politely',
      pattern:
        /\b(thanks|thank you|appreciate it|danke|merci|gracias|le agradezco|te agradezco)\W+(but|aber|mais|pero),? no\b|\b(nichts|nicht) fur uns\b|\bsans facon\b|\bverzichten\b|\b(stick|stay) with (what|our)\b/,
    },
  ],
  interested: [
    { label: 'proposes a time to talk', pattern: near(MEETING, DAY, 4, true) },
    {
      label: 'asks about price',
      pattern: new RegExp(`\\b${PRICE}\\b[^.!]{0,40}\\?|\\?[^.!]{0,10}\\b${PRICE}\\b`),
    },
    { label: 'accepts or asks for the next step', pattern: new RegExp(`\\b${ACCEPT}\\b`) },
    {
      label: 'finds it interesting',
      pattern:
        /(?<!(not|no|nicht|pas|nada) )\b(interesting|interessant|interesante|interessante|me parece interesante)\b/,
    },
  ],
};

// How a reply's sentences are put together, read apart from the phrase lists: a question
// that uses the words of unsubscribing as its topic, a "not this, but that" whose second
// clause decides, an autoresponder's weaker absence wording, and "according to" phrases
// that only look like agreement. Over folded text (lower case, no accents).

// Who or what a question is about when it is not the writer: other people (customers,
// staff, subscribers) or our product ("your tool", "Ihre App", "vos modules").
const THIRD_PARTY =
  /\b(recipients?|subscribers?|customers?|clients?|users?|employees?|staff|members|contacts|people|(your|the) (tool|app|platform|system|software|product|solution|portal|module)s?|kunden|nutzer(innen)?|benutzer|mitarbeiter(innen)?|beschaftigten|empfanger|abonnenten|teilnehmer|(ihre?|eure?|die|das|der) (app|tool|software|portal|plattform|system|losung)|abonnes|utilisateurs|salaries|destinataires|collaborateurs|employes|(vos|votre|le|la|les) (modules?|outils?|logiciels?|plateformes?|solutions?|applications?|systemes?)|usuarios|clientes|empleados|destinatarios|suscriptores|trabajadores|(su|el|la|vuestr[oa]) (plataforma|herramienta|sistema|aplicacion|app|software|programa)|utilizadores|funcionarios|colaboradores|assinantes|(a|o) (vossa|vosso|sua|seu) (ferramenta|plataforma|aplicacao|app|sistema|software|programa)|utenti|clienti|dipendenti|destinatari|iscritti|collaboratori|(il|la) (vostr[oa]|sua) (sistema|software|tool|app|piattaforma|applicazione)|gebruikers|klanten|medewerkers|ontvangers|abonnees|werknemers|personeel|(jullie|uw|de|het) (app|tool|systeem|software|platform|applicatie))\b/;
// The writer as the one to be removed, or a request addressed to us: then the question
// is a stop request ("can you unsubscribe me?", "können Sie mich abmelden?").
const WRITER_OR_REQUEST =
  /\b(me|us|my|i|mich|mir|uns|ich|moi|je|j'|m'|nous|nos|mi|mis|yo|eu|meu|minha|io|mij|mijn|ons|ik|me|you|can you|could you|would you|please|bitte|svp|s'il vous plait|por favor|per favore|alsjeblieft|aub|konnen sie|konnten sie|pouvez-vous|pourriez-vous|pueden|puede|podem|pode|potete|puo|kunt u|kunnen jullie)\b|-(me|nos|mi|ci)\b/;

/**
 * The reply without its questions about other people or our product that use the words
 * of unsubscribing ("Can recipients unsubscribe in your tool?", "Können sich Kunden selbst
 * abmelden?", "¿permite que los clientes se den de baja?"): such a question is interest in
 * a feature, not a request to stop. A question about the writer or addressed to us stays.
 */
export function withoutTopicQuestions(folded: string): string {
  const sentences = sentencesOf(folded);
  const kept = sentences.filter(
    (s) => !(/\?\s*$/.test(s) && THIRD_PARTY.test(s) && !WRITER_OR_REQUEST.test(s)),
  );
  return kept.length === sentences.length ? folded : kept.join(' ');
}

// Abbreviations whose dots end no sentence: "z. B.", "e.g.", "p. ej.", "bzw.", "ecc.".
const ABBREVIATION =
  /\b(z\. ?b|e\.g|i\.e|p\. ?ej|p\. ?ex|d\. ?h|u\. ?a|bzw|usw|etc|evtl|ggf|bspw|vgl|ca|nr|tel|ecc|bijv|o\.a|vs|approx)\./g;

/** The reply's sentences, split at . ! ? and line ends, not at an abbreviation's dots. */
function sentencesOf(folded: string): string[] {
  const kept = folded.replace(ABBREVIATION, (found) => found.replace(/\./g, ''));
  return kept.split(/(?<=[.!?])\s+|\n+/);
}

// "but" in the seven languages; "mas" (Portuguese, and Spanish "más" folded) and Italian
// "ma" only after a comma, where they cannot be "more".
const CONTRAST =
  /(?:[,;:]|\s[-–])\s*(?:but|aber|doch|mais|pero|mas|ma|maar|porem|however)\b|\s(?:but|aber|mais|pero|maar)\s/;

/**
 * Splits the reply at its first "but" into what comes before (head) and from "but" on
 * (tail), or returns undefined when there is none.
 */
export function splitAtContrast(folded: string): { head: string; tail: string } | undefined {
  const found = CONTRAST.exec(folded);
  if (!found) return undefined;
  return { head: folded.slice(0, found.index), tail: folded.slice(found.index + found[0].length) };
}

/**
 * Weaker absence wording that counts only in a message marked automatic by its headers
 * (Auto-Submitted, X-Autoreply): "back at my desk on the 30th", "replies may be delayed",
 * "I am ill, your message will be handled after my recovery". From a person, the same
 * words are an answer; from an autoresponder, the notice of an absence.
 */
export const AUTOMATED_ABSENCE =
  /\b((out|off) sick|(back|zuruck|de retour|de vuelta|de volta|di ritorno|terug) (tomorrow|morgen|demain|manana|amanha|domani)|back (at|to) (my )?(desk|work|the office)|back (on|from) (the )?\w+|(replies|responses|answers) (may|might|will|could) be (delayed|slower|slow)|(expect|there may be) (slow|delayed) (replies|responses)|(i am|i'm|im) (currently )?(ill|sick|unwell)|(will|shall) (reply|respond|answer|get back to you) (once|when|as soon as) (i'?m|i am) (better|well|recovered)|ich bin (derzeit |zurzeit |aktuell )?(krank|erkrankt)|nach meiner (genesung|ruckkehr)|(antworten|antwort) (kann|konnen|wird|werden) sich verzogern|je suis (actuellement )?(malade|souffrante?)|(a|des) mon (retablissement|retour)|reponse (peut etre |sera )?(retardee|differee)|estoy (enferm[oa]|de baja)|cuando me (reincorpore|recupere)|(respuesta|respuestas) (puede|pueden) (retrasarse|demorarse)|(estou|encontro-me|me encontro) (doente|de baixa|de licenca)|quando (regressar|voltar|retornar)|(resposta|respostas) (pode|podem) (demorar|atrasar)|sono (malat[oa]|in malattia)|al mio (rientro|ritorno)|(risposta|risposte) (potrebbe|potrebbero) (subire|tardare|essere in ritardo)|ik ben (momenteel |op dit moment )?(ziek|niet aanwezig|afwezig)|na (mijn )?(herstel|terugkomst)|zodra ik (hersteld|beter|terug) ben|(reacties|antwoorden) (kunnen|kan) vertraagd|(vuelvo|regreso|volvere|regresare|volto|regresso|voltarei|torno|rientro|tornero|je reviens|je rentre|i'?m back|i return|i'?ll be back|ik ben (weer )?terug|bin (ab|am) [^.!?\n]{1,20} (wieder )?zuruck) (el|o|il|le|am|op|on|the|dia|no dia|a partir|lunes|martes|miercoles|jueves|viernes|segunda|terca|quarta|quinta|sexta|lunedi|martedi|mercoledi|giovedi|venerdi|lundi|mardi|mercredi|jeudi|vendredi|monday|tuesday|wednesday|thursday|friday|maandag|dinsdag|woensdag|donderdag|vrijdag|\d))\b/;

// "De acuerdo con el artículo 15", "in accordance with", "conformément à": a phrase that
// cites a rule, not a writer who agrees.
export const ACCORDING_TO =
  /\b(de acuerdo con|de acordo com|d'accordo con|in accordance with|according to|conformement a|gemass|overeenkomstig|conforme (a|al|o|ao))\b( (el|la|lo|los|las|o|a|os|as|il|lo|l'|the|le|les|het|de|dem|der|den))? ?(art(iculo|igo|icolo|icle|ikel)?\.?|ley|lei|legge|law|normativa|reglamento|regulamento|regolamento|regulation|rgpd|gdpr|lopd|lgpd|dsgvo|avg|reglement|wet)\b/g;

// "Wrong John Smith", "den falschen Thomas Müller", "vous vous trompez de Pierre Martin",
// "de verkeerde Jan de Vries": a person's name after "wrong", read on the text as written
// (a capital letter tells a name from "the wrong invoice"). Days and months are not names.
const NOT_A_NAME =
  '(?!(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December|Sie|Ihr|Ihre|Ihrer|Ihren|Ihrem|Ihres|Ihnen|Euch|Eure?)\\b)';
const NAMESAKE = new RegExp(
  String.raw`\b(?:[Ww]rong|falschen?|falsche|verkeerde|trompez de|trompé de|trompe de|equivocado de|equivocada de|enganou n[oa]|enganou de|sbagliato|sbagliata) ` +
    String.raw`(?:(?:Mr|Mrs|Ms|Dr|Herrn?|Frau|M|Mme|Sr|Sra|meneer|mevrouw|sig|sig\.ra)\.? ${NOT_A_NAME}\p{Lu}\p{Ll}+|` +
    String.raw`${NOT_A_NAME}\p{Lu}\p{Ll}+ (?:(?:de|van|da|di|del|dos|von|le|la|der|den) )?${NOT_A_NAME}\p{Lu}[\p{Ll}'-]+)` +
    String.raw`(?!\p{L})`,
  'u',
);

/** The name after "wrong" when the writer says we have a namesake, else undefined. */
export function namesake(own: string): string | undefined {
  const found = NAMESAKE.exec(own);
  if (!found) return undefined;
  // "the wrong Invoice Team address" names a mailbox, not a person.
  const after = own.slice(found.index + found[0].length, found.index + found[0].length + 12);
  return MAILBOX_WORD.test(after) ? undefined : found[0];
}

const MAILBOX_WORD =
  /^\s+(address|adresse|direcci|endere|indirizzo|adres|e-?mail|account|inbox|mailbox|postfach)/i;

import { detectAutoReply } from './auto-reply.detector.js';
import { detectBounceNotice } from './bounce-notice.detector.js';
import { readBounceNotice } from './bounce-notice.reader.js';
import { decideBounce } from './bounce-reason.js';
import type { ReplyClass, ReplyClassification, ReplyInput } from './classification.types.js';
import { guessLanguage } from './language-guess.js';
import { detectMeetingRequest } from './meeting-request.detector.js';
import { mayPause } from './pausing-guard.js';
import { stripQuotedText } from './quote-stripper.js';
import { findReferral } from './referral.extractor.js';
import {
  ACCORDING_TO,
  AUTOMATED_ABSENCE,
  namesake,
  splitAtContrast,
  withoutTopicQuestions,
} from './reply-clauses.js';
import { expandShorthand } from './reply-kinds-everyday.rules.js';
import { LEXICON_RULES } from './reply-lexicon.rules.js';
import { REPLY_RULES, type ReplyRuleGroup } from './reply-rules.js';
import { withSecondOpinion } from './reply-second-opinion.js';
import { replySentiment } from './reply-sentiment.js';
import { parseReturnDate } from './return-date.parser.js';
import { findReplyCode, findStatusCode } from './status-code.js';
import { foldText } from './text-fold.js';

/** Extra context for {@link classifyReplyText}. */
export interface ReplyContext {
  /** When the reply arrived; dates without a year are read relative to it. Defaults to the Date header. */
  receivedAt?: Date;
}

/**
 * Classifies a reply from its text, subject and headers, with phrase and
 * word-family rules in English, German, French and Spanish. Quoted history,
 * signatures and links are removed first, so our own words in the thread never
 * count as the prospect's.
 *
 * Precedence, first match wins: a delivery failure notice (bounce); a person who
 * has left the company (wrong_person, even from an autoresponder, because pausing
 * would wait for someone who will not come back); an autoresponder by its headers
 * (out_of_office); unsubscribe; out-of-office wording; wrong person or referral;
 * a decline (not_interested); a request to meet (meeting_request: a call, a time
 * booked, a calendar asked for or sent, in seven languages); interest; otherwise neutral. Unsubscribe comes before
 * the others because it is the one request we must honour whatever else is said.
 */
export function classifyReplyText(input: ReplyInput, context: ReplyContext = {}): ReplyClassification {
  return withSecondOpinion(input, classifyReplyTextByRules(input, context));
}

/** The rules alone (see {@link classifyReplyText}, which adds the learned model's second opinion). */
export function classifyReplyTextByRules(input: ReplyInput, context: ReplyContext = {}): ReplyClassification {
  const headers = new Map(Object.entries(input.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));
  const subject = input.subject ?? headers.get('subject') ?? '';
  const text = input.text ?? '';

  const bounce = asBounce(text, subject, headers);
  if (bounce) return bounce;

  const own = stripQuotedText(text);
  // Links carry words that are not the writer's ("...?action=unsubscribe" in a footer).
  // Chat shorthand ("nn", "q") is written out, so the rules read it like the full word.
  const folded = expandShorthand(foldText(withoutLinks(own)));
  const foldedSubject = foldText(subject);
  // The subject of a reply ("Re: ...") is our own subject; only a fresh one is theirs.
  const ownSubject = /^(re|aw|sv|antw|rv|r)\s*:/i.test(subject.trim()) ? '' : foldedSubject;
  const why: string[] = [];
  if (own.length < text.trim().length) why.push('quoted history and signature removed before matching');

  const auto = detectAutoReply(headers, subject);
  // Each rule is tried on the text as written and on its words alone, so that
  // "Stop. Sending. Me. Emails." reads like "stop sending me emails".
  // Most groups are matched against the same text: its words alone are made once.
  const wordsOf = new Map<string, string>();
  const wordsOnly = (t: string): string => {
    let words = wordsOf.get(t);
    if (words === undefined) {
      words = t
        .replace(/[^\p{L}\p{N}' ]+/gu, ' ')
        .replace(/\s+/g, ' ')
        .trim();
      wordsOf.set(t, words);
    }
    return words;
  };
  const match = (group: ReplyRuleGroup, haystack = folded, phrasesOnly = false): string | undefined => {
    const variants = [haystack, wordsOnly(haystack)];
    const loose = new Set(phrasesOnly ? (LEXICON_RULES[group] ?? []) : []);
    for (const rule of REPLY_RULES[group]) {
      if (loose.has(rule)) continue;
      for (const variant of variants) {
        const found = rule.pattern.exec(variant);
        if (found) return `${rule.label} ("${quote(variant, found.index, found[0].length)}")`;
      }
    }
    return undefined;
  };
  const done = (replyClass: ReplyClass, extra: Partial<ReplyClassification> = {}): ReplyClassification => ({
    replyClass,
    sentiment: replySentiment(replyClass, folded),
    ...extra,
    why,
  });

  const left = match('left_company');
  if (left) {
    why.push(...auto.why, `wrong_person: ${left}`);
    return decided('wrong_person', `left the company: ${left}`, referral());
  }

  // Unsubscribe before any absence: it is the one request we must honour, and mail
  // clients send it with Auto-Submitted: auto-replied (RFC 8058 one-click, Apple Mail).
  // An autoresponder's text is not written to us: only a phrase rule (not a loose
  // word family, which reads "please stop and read this" as a request) counts there.
  const automated = auto.why.length > 0;
  // A company footer's "click here to unsubscribe" is addressed to the reader (us),
  // not a request from the writer: those sentences are left out of this one match.
  // A question about other people or our product that uses the words ("can recipients
  // unsubscribe in your tool?") asks about a feature: it is left out of this one match.
  const unsubscribe =
    match('unsubscribe', withoutTopicQuestions(withoutFooterInstructions(folded)), automated) ??
    (ownSubject ? match('unsubscribe', ownSubject) : undefined);
  if (unsubscribe) {
    why.push(`unsubscribe: ${unsubscribe}`);
    return decided('unsubscribe', `unsubscribe: ${unsubscribe}`);
  }

  const away = match('out_of_office') ?? (ownSubject ? match('out_of_office', ownSubject) : undefined);
  // From an autoresponder (by its headers), weaker words are an absence too: "back at my
  // desk on the 30th", "replies may be delayed", "I am ill".
  const weakAway = automated && !away ? AUTOMATED_ABSENCE.exec(folded)?.[0] : undefined;
  const absence =
    auto.absence ??
    (away
      ? `absence wording: ${away}`
      : weakAway
        ? `absence wording in an automatic reply: "${weakAway}"`
        : undefined);
  if (auto.why.length > 0 || absence) {
    // The decline must lie outside the absence sentence ("ich bin zurzeit nicht im Hause").
    const awayText = firstMatch('out_of_office');
    const rest = awayText ? folded.replace(awayText, ' ; ') : folded;
    const declined = match('not_interested', rest);
    // A person writing back by hand ("I'm off tomorrow, but yes, let's talk Tuesday")
    // answers now: without automation headers, interest outside the absence sentence wins.
    const keen = automated ? undefined : match('interested', rest);
    const stoppers = [
      ...(declined ? [`a person declines: ${declined}`] : []),
      ...(keen ? [`a person answers by hand: ${keen}`] : []),
    ];
    const verdict = mayPause({ absence, stoppers });
    why.push(...auto.why.map((w) => `automatic reply: ${w}`), verdict.why);
    if (verdict.pause) return outOfOffice(auto.returnDate, verdict.why);
  }

  // "No need for a call, just send me the pricing" turns down a form of contact, not the
  // offer, and "no budget freeze here" denies a reason to decline: both are left out of
  // what the decline and meeting rules read, so the rest of the reply decides. A reply
  // that only turns down the call ("No need for a call.") still declines, below.
  const formDeclined = DECLINED_FORM.exec(folded)?.[0];
  const unhedged = folded.replace(DECLINED_FORM_ALL, ' ; ').replace(NOT_A_DECLINE, ' ; ');
  // "No brochure needed, but show it to me live on Friday at 2pm": a decline before "but"
  // and a request after it; the clause after "but" decides, so the decline is not read.
  const declineText = turnedToRequest(unhedged) ?? unhedged;
  for (const [group, replyClass] of [
    ['wrong_person', 'wrong_person'],
    ['not_interested', 'not_interested'],
    ['interested', 'interested'],
  ] as const) {
    if (group === 'interested') {
      const meeting = detectMeetingRequest(own, declineText);
      if (meeting) {
        why.push(meeting);
        return decided('meeting_request', meeting);
      }
    }
    // "Sou eu quem cuida disso" / "I'm the right person": the writer says they ARE the
    // one, so the words that name who handles it do not point elsewhere.
    if (group === 'wrong_person' && SELF_AFFIRMED.test(folded)) continue;
    const namedWrong = group === 'wrong_person' ? namesake(own) : undefined;
    if (namedWrong) {
      why.push(`wrong_person: says we have the wrong person of that name ("${namedWrong}")`);
      return decided('wrong_person', `wrong_person: a namesake ("${namedWrong}")`, referral());
    }
    // "Forwarded to my colleague" passes our mail on without saying who is right: only
    // the other sentences can make the reply wrong_person.
    const found =
      group === 'wrong_person'
        ? match(group, withoutBareForwards(folded))
        : match(group, group === 'not_interested' ? declineText : folded.replace(ACCORDING_TO, ' ; '));
    // "Send me the information you hold about me" asks what data we keep (GDPR art.
    // 15), not about our offer: when the only interest is a request for information
    // and the writer asks about their own data, the reply is neutral.
    const access = group === 'interested' && found ? dataAccessRequest(folded) : undefined;
    const quoted = found ? found.slice(found.indexOf('("')) : '';
    if (access && INFO_ONLY.test(quoted) && !PRICE_OR_OFFER.test(quoted)) {
      why.push(`neutral: asks about the data we hold on them (${access}), not about the offer`);
      return decided('neutral', `asks about the data we hold on them (${access})`);
    }
    if (found) {
      why.push(`${replyClass}: ${found}`);
      return decided(replyClass, `${replyClass}: ${found}`, replyClass === 'wrong_person' ? referral() : {});
    }
  }
  if (formDeclined) {
    why.push(`not_interested: turns down a call or meeting and asks for nothing else ("${formDeclined}")`);
    return decided('not_interested', `not_interested: turns down a call or meeting ("${formDeclined}")`);
  }
  why.push('neutral: no rule matched');
  return decided('neutral', 'no rule matched');

  /** The text after "but" when a decline before it is followed by a request after it. */
  function turnedToRequest(text: string): string | undefined {
    const parts = splitAtContrast(text);
    if (!parts || !match('not_interested', parts.head) || match('not_interested', parts.tail))
      return undefined;
    const asks = detectMeetingRequest(parts.tail, parts.tail) ?? match('interested', parts.tail);
    if (!asks) return undefined;
    why.push(`a decline before "but" and a request after it: the clause after "but" decides (${asks})`);
    return parts.tail;
  }

  function firstMatch(group: ReplyRuleGroup): string | undefined {
    for (const rule of REPLY_RULES[group]) {
      const found = rule.pattern.exec(folded);
      if (found) return found[0];
    }
    return undefined;
  }

  function decided(
    replyClass: ReplyClass,
    rule: string,
    extra: Partial<ReplyClassification> = {},
  ): ReplyClassification {
    return done(replyClass, { ...extra, decidedBy: rule });
  }

  function referral(): Partial<ReplyClassification> {
    const address = findReferral(own);
    if (address) why.push(`referral: the writer points to ${address}`);
    return address ? { referral: address } : {};
  }

  function outOfOffice(headerDate: string | undefined, rule: string): ReplyClassification {
    if (headerDate) {
      why.push(`return date ${headerDate} from the vacation header`);
      return decided('out_of_office', rule, { returnDate: headerDate });
    }
    const reference = context.receivedAt ?? parseDate(headers.get('date'));
    // Only a stated return date needs the language (to read its words); guessed here, not
    // for every reply: it costs about a quarter of classifying a short one.
    const lang = guessLanguage(folded);
    const stated =
      parseReturnDate(folded, lang, reference) ?? parseReturnDate(foldText(text), lang, reference);
    if (stated) {
      why.push(`return date: ${stated.why}`);
      return decided('out_of_office', rule, { returnDate: stated.date });
    }
    return decided('out_of_office', rule);
  }
}

/** A bounce notice: by its envelope, or by its wording when it also quotes an SMTP code. */
function asBounce(
  text: string,
  subject: string,
  headers: Map<string, string>,
): ReplyClassification | undefined {
  const envelope = detectBounceNotice({ from: headers.get('from') ?? '', subject, headers, text });
  const folded = foldText(text.slice(0, 4000));
  const wording = REPLY_RULES.bounce_notice.find((rule) => rule.pattern.test(folded));
  // A reply code written "554:" (qmail, Yahoo) counts here beside the forms the status
  // parser reads: only together with a notice's wording.
  const quotesCode =
    findStatusCode(text) !== '' || findReplyCode(text) !== '' || /(?:^|\s)[45][0-5]\d:\s/m.test(text);
  if (envelope.length === 0 && !(wording && quotesCode)) return undefined;

  const why = envelope.map((w) => `bounce: ${w}`);
  if (wording) why.push(`bounce: ${wording.label}`);
  const notice = readBounceNotice(text);
  const verdict = decideBounce({
    status: notice.status,
    diagnostic: notice.diagnostic,
    notice: notice.notice,
    temporary: notice.temporary,
  });
  why.push(...verdict.why);
  return {
    replyClass: 'bounce',
    sentiment: 'neutral',
    hard: verdict.hard,
    status: notice.status,
    reason: verdict.reason,
    decidedBy: why[0] ?? 'bounce notice',
    why,
  };
}

// A data-access or data-source request (GDPR art. 15): where we got the address, what
// we hold about the writer, in the seven languages.
const DATA_ACCESS =
  /\b(where|how) (did|do) you (get|obtain|find) (my|our)\b|\b(data|information|details) (that )?you (hold|have|store|keep|process) (about|on) (me|us)\b|\bart(icle|\.)? ?15\b|\bwoher haben sie (meine|unsere)\b|\b(uber|zu) mir gespeichert\b|\bd'ou (tenez|avez)-vous\b|\b(detenez|avez|conservez) (sur|a propos de) (moi|nous)\b|\bde donde (habeis|han|has|ha) (sacado|obtenido|conseguido)\b|\b(teneis|tienen|tiene) sobre (mi|nosotros)\b|\bonde (voces |voce )?(conseguiram|conseguiu|obtiveram|pegaram)\b|\b(tem|tem|tenham) sobre (mim|nos)\b|\bda dove (avete|ha) (preso|ottenuto|avuto)\b|\b(avete|ha) su di (me|noi)\b|\bwaar (heeft u|hebben jullie|heb je) (mijn|onze) [\w-]+ vandaan\b|\b(heeft|hebben|heb) (u |jullie |je )?over (mij|ons)\b/;
const INFO_ONLY = /\binfo(rmation|rmations|rmacion|rmacoes|rmatie|rmazioni|rmationen|s)?\b|\bdetails\b/;
const PRICE_OR_OFFER =
  /\b(pric|prix|preis|prec|prez|prijs|tarif|offer|angebot|offre|oferta|offerte|quote|devis|demo|catalog|katalog|brochure|proposal)/;

function dataAccessRequest(folded: string): string | undefined {
  const found = DATA_ACCESS.exec(folded);
  return found ? `"${found[0]}"` : undefined;
}

const SELF_AFFIRMED =
  /(?<!\b(no|nao|non|ne|not|nicht|niet) )\b(i am|i'm) (indeed |actually )?the (right|correct) (person|contact|one)\b|(?<!\b(no|nao) )\b(sou eu (quem|que)|soy yo (quien|el que|la que))\b|\bc'est (bien )?moi qui (gere|decide|m'occupe)\b|\bje suis (bien )?(la bonne personne|le bon interlocuteur|la bonne interlocutrice)\b|\bich bin (der|die) (richtige|zustandige)\b|(?<!\bnon )\bsono io (che|a) (decido|decidere|mi occupo|gestisco)\b|\bik ben (de juiste persoon|degene die)\b/;

// Instructions a footer gives the reader: click here, if you no longer wish to, you can
// unsubscribe here, in the seven languages.
const FOOTER_INSTRUCTION =
  /\b(click here|klicken sie hier|hier klicken|cliquez (ici|sur)|haga clic|pulse aqui|clique aqui|clicca qui|clicchi qui|klik hier|if you (no longer|do not|don'?t) (wish|want)|wenn sie (\w+ ){0,6}(nicht mehr|keine)|si vous ne (souhaitez|voulez) plus|si (no|ya no) (desea|quiere)|se (nao|voce nao) (deseja|quiser)|se non (desidera|vuole|desideri)|(wilt|indien|als) u geen|you (can|may) unsubscribe|konnen sie sich (hier |jederzeit )?abmelden|vous pouvez vous desinscrire|puede darse de baja|pode (se )?descadastrar|puo cancellarsi|kunt u zich (hier )?afmelden|meld u (dan )?hier af)\b/;

function withoutFooterInstructions(folded: string): string {
  return folded
    .split(/(?<=[.!?])\s+/)
    .filter((sentence) => !FOOTER_INSTRUCTION.test(sentence))
    .join(' ');
}

// A sentence that passes our mail on to colleagues or a team, naming nobody in charge
// ("ich habe Ihre Mail an die Kollegen weitergeleitet"): the reply then says only that it
// was received and passed on (neutral), unless another sentence names the right person.
const FORWARDED =
  /\b(forward(ed|ing)?|pass(ed|ing) (it|this|that|your \w+ )?(on|along)|weiter(geleitet|gegeben|geschickt)|fait suivre|transmis|transfere|reenviado|reenvie|pasado|encaminhei|reencaminhei|repassei|passei|inoltrat[oa]|girat[oa]|doorgestuurd|doorgezet)\b/;
const TO_COLLEAGUES =
  /\b(colleagues?|co-?workers?|team|teams|kolleg(e|en|in|innen)|collegues?|equipe|companer[oa]s?|colegas?|equipo|equipa|time|colleg(a|hi|he)|collega'?s|afdeling)\b/;
const SOMEONE_IN_CHARGE =
  /\b(responsible|head of|in charge|who (handles|decides|deals|looks after|owns)|decision|zustandig\w*|verantwortlich\w*|entscheid\w*|responsable|encargad[oa]|decide|responsavel|quem (cuida|trata)|responsabile|si occupa|verantwoordelijk|gaat over|beslist)\b|@/;

// A call, meeting or demo turned down as the form of contact, in the seven languages.
const DECLINED_FORM_SOURCE = String.raw`\b(no need (for|of) (a |an )?|(we |i )?(don'?t|do not) need (a |an )?)((quick|short|phone|video) )?(call|meeting|demo|zoom)\b|\bkein(en|e)? (termin|call|anruf|telefonat|gesprach|meeting|demo)( ist)? (notig|erforderlich|noetig)\b|\bpas (besoin|la peine) (d'|de |d)(un |une )?(appel|rendez-vous|rdv|reunion|call|visio|demo)\b|\bno (hace falta|es necesari[oa]|necesito|necesitamos) (una |un )?(llamada|reunion|cita|call|demo)\b|\bnao (precisa|e preciso|e necessari[oa]|preciso|precisamos) (de )?(uma |um )?(reuniao|chamada|ligacao|call|demo)\b|\bnon (serve|servono|e necessari[ao]|occorre) (una |un )?(call|chiamata|riunione|incontro|demo)\b|\b(een )?(gesprek|afspraak|call|belletje|demo) is niet nodig\b|\bgeen (gesprek|afspraak|call|demo) nodig\b`;
const DECLINED_FORM = new RegExp(DECLINED_FORM_SOURCE);
const DECLINED_FORM_ALL = new RegExp(DECLINED_FORM_SOURCE, 'g');
// "No budget freeze here", "kein Budgetstopp bei uns": a reason to decline, denied.
const NOT_A_DECLINE =
  /\bno (budget|spending|hiring) (freeze|cuts?|problems?|issues?|constraints?|worries)\b|\bkein (budgetstopp|budgetproblem|ausgabenstopp)\b|\bpas de (gel|probleme) (de|du) budget\b|\bsin (congelacion|problemas?) de presupuesto\b|\bsem (congelamento|problemas?) de orcamento\b|\bnessun (blocco|problema) (del|di) budget\b|\bgeen (budgetstop|budgetprobleem)\b/g;

function withoutBareForwards(folded: string): string {
  const sentences = folded.split(/(?<=[.!?])\s+|\n+/);
  const kept = sentences.filter(
    (s) => !(FORWARDED.test(s) && TO_COLLEAGUES.test(s) && !SOMEONE_IN_CHARGE.test(s)),
  );
  return kept.length === sentences.length ? folded : kept.join(' ');
}

function withoutLinks(text: string): string {
  return text.replace(/\b(https?:\/\/|www\.)\S+/gi, ' ').replace(/<mailto:[^>]*>/gi, ' ');
}

function parseDate(value: string | undefined): Date | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function quote(text: string, index: number, length: number): string {
  const start = Math.max(0, index - 15);
  const end = Math.min(text.length, index + Math.max(length, 20) + 15);
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
}

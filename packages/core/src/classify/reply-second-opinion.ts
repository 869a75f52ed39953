import type { ReplyClass, ReplyClassification, ReplyInput } from './classification.types.js';
import { stripQuotedText } from './quote-stripper.js';
import { findReferral } from './referral.extractor.js';
import { type ModelOpinion, modelText, parseModel, ReplyModelScorer } from './reply-model.js';
import { REPLY_MODEL_TEXT } from './reply-model.weights.js';
import { replySentiment } from './reply-sentiment.js';
import { foldText } from './text-fold.js';

/**
 * When the learned model may overrule the rules. Chosen by leave-one-set-out
 * cross-validation (scripts/reply-model-cv.ts), never on holdout-8/holdout-9.
 */
export interface SecondOpinionPolicy {
  /** The model replaces a rules fallback ("no rule matched": neutral) at this confidence or above. */
  overFallback: number;
  /** The model replaces a rule's decision (of an overridable class) at this confidence or above. */
  overRule: number;
  /**
   * At the rule-decision threshold, across polarity too (a rule's interest read as a
   * decline or the reverse); when false, only within a polarity or to/from neutral.
   */
  crossPolarity?: boolean;
}

/** The policy chosen by cross-validation (see the commit and scripts/reply-model-cv.ts). */
export const SECOND_OPINION_POLICY: SecondOpinionPolicy = {
  overFallback: 0.8,
  overRule: 0.9,
  crossPolarity: false,
};

/**
 * Classes only the rules decide: bounce and out_of_office rest on the rules' positive
 * evidence (DSN structure, headers, absence wording); the model never proposes them and
 * never overrules them.
 */
const RULES_ONLY: ReadonlySet<ReplyClass> = new Set(['bounce', 'out_of_office']);
/**
 * Rule readings the model never overrules: the rules-only classes, and an unsubscribe
 * phrase, the one request we must honour whatever else is said. (The model may still
 * read an unsubscribe where no rule saw one.)
 */
const KEPT: ReadonlySet<ReplyClass> = new Set(['bounce', 'out_of_office', 'unsubscribe']);
/** Classes that stop a sequence; the model never turns one of them into a pausing class. */
const STOP: ReadonlySet<ReplyClass> = new Set(['unsubscribe', 'not_interested', 'wrong_person', 'bounce']);
const PAUSING: ReadonlySet<ReplyClass> = new Set(['out_of_office']);

/**
 * What the combination decides from the rules' reading and the model's: the class to
 * report, or undefined to keep the rules' reading. Pure, so the policy can be
 * cross-validated on precomputed readings.
 */
export function combineReadings(
  rules: Pick<ReplyClassification, 'replyClass' | 'decidedBy'>,
  opinion: ModelOpinion,
  policy: SecondOpinionPolicy = SECOND_OPINION_POLICY,
): ReplyClass | undefined {
  const proposed: ReplyClass = opinion.replyClass;
  if (proposed === rules.replyClass) return undefined;
  if (KEPT.has(rules.replyClass) || RULES_ONLY.has(proposed)) return undefined;
  // A person who has left the company is read from their own words; never overruled.
  if (rules.decidedBy?.startsWith('left the company')) return undefined;
  if (STOP.has(rules.replyClass) && PAUSING.has(proposed)) return undefined;
  const fallback = rules.decidedBy === 'no rule matched';
  if (!fallback && policy.crossPolarity === false && polarity(rules.replyClass) * polarity(proposed) < 0)
    return undefined;
  const threshold = fallback ? policy.overFallback : policy.overRule;
  return opinion.confidence >= threshold ? proposed : undefined;
}

/** +1 for a yes (interest, a meeting), -1 for a no (decline, wrong person, unsubscribe), 0 otherwise. */
function polarity(replyClass: ReplyClass): number {
  if (replyClass === 'interested' || replyClass === 'meeting_request') return 1;
  if (replyClass === 'not_interested' || replyClass === 'wrong_person' || replyClass === 'unsubscribe')
    return -1;
  return 0;
}

let scorer: ReplyModelScorer | undefined;

/** The shipped model, parsed on first use. */
export function shippedReplyModel(): ReplyModelScorer {
  scorer ??= new ReplyModelScorer(parseModel(REPLY_MODEL_TEXT));
  return scorer;
}

/** The text the model reads for a reply: its own words and a fresh (non-"Re:") subject. */
export function modelInputOf(input: ReplyInput): string {
  return modelInputOfOwn(input, stripQuotedText(input.text ?? ''));
}

/** {@link modelInputOf} from the reply's own words, already stripped of quote and signature. */
function modelInputOfOwn(input: ReplyInput, own: string): string {
  const subject = input.subject ?? '';
  const fresh = /^(re|aw|sv|antw|rv|r)\s*:/i.test(subject.trim()) ? '' : subject;
  return modelText(own, fresh);
}

/**
 * The rules' reading with the model's second opinion applied: when the policy lets the
 * model decide, the class, sentiment and referral follow it and `why`/`decidedBy` say
 * that the model decided, with its confidence and what the rules had said.
 */
export function withSecondOpinion(
  input: ReplyInput,
  rules: ReplyClassification,
  scorerToUse: Pick<ReplyModelScorer, 'opinion'> = shippedReplyModel(),
  policy: SecondOpinionPolicy = SECOND_OPINION_POLICY,
): ReplyClassification {
  if (KEPT.has(rules.replyClass)) return rules;
  // Stripped once: the model reads it, and a decision by the model finds its referral in it.
  const own = stripQuotedText(input.text ?? '');
  const opinion = scorerToUse.opinion(modelInputOfOwn(input, own));
  const decided = combineReadings(rules, opinion, policy);
  if (!decided) return rules;
  const said = `model: ${decided} (confidence ${opinion.confidence.toFixed(2)}) over the rules' ${rules.replyClass} (${rules.decidedBy ?? 'no rule'})`;
  const referral = decided === 'wrong_person' ? findReferral(own) : undefined;
  const { referral: _dropped, ...rest } = rules;
  return {
    ...rest,
    replyClass: decided,
    sentiment: replySentiment(decided, foldText(own)),
    ...(referral ? { referral } : {}),
    decidedBy: said,
    // First, so that the events' capped reason list (50) always says the model decided.
    why: [said, ...rules.why, ...(referral ? [`referral: the writer points to ${referral}`] : [])],
  };
}

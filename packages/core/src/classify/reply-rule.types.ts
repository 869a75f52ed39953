// The rule shapes live apart from the rules: reply-rules.ts and reply-lexicon.rules.ts both
// use them, and reply-rules.ts imports the lexicon, so keeping them there made a cycle.

/** A phrase rule over a reply's folded text (lower case, no accents, single spaces). */
export interface ReplyRule {
  label: string;
  pattern: RegExp;
}

/** The groups of phrase rules; classifyReplyText decides between them by precedence. */
export type ReplyRuleGroup =
  | 'unsubscribe'
  | 'left_company'
  | 'out_of_office'
  | 'wrong_person'
  | 'not_interested'
  | 'interested'
  | 'bounce_notice';

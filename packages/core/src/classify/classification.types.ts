/**
 * What a message is, from the sequence's point of view. `reply` is a person
 * answering; the others end or pause a sequence for a reason of their own.
 */
export type MessageClass = 'reply' | 'bounce' | 'complaint' | 'out_of_office' | 'delivered' | 'unsubscribe';

/** What a person's reply means for the sequence. */
export type ReplyClass =
  | 'unsubscribe'
  | 'not_interested'
  | 'wrong_person'
  | 'out_of_office'
  | 'bounce'
  | 'interested'
  | 'meeting_request'
  | 'neutral';

/** The tone of a reply, as far as a few phrases can tell. */
export type Sentiment = 'positive' | 'negative' | 'neutral';

/**
 * Why a bounce happened, in the vocabulary of sisimai (the reference for the
 * bounce corpus), so that our readings can be compared with its labels.
 * Only `userunknown`, `hostunknown`, `hasmoved` and `notaccept` say the address
 * itself is dead; every other reason blames the sender, the content, the
 * network or a temporary state of the mailbox.
 */
export type BounceReason =
  | 'userunknown'
  | 'hostunknown'
  | 'hasmoved'
  | 'notaccept'
  | 'mailboxfull'
  | 'suspend'
  | 'filtered'
  | 'blocked'
  | 'badreputation'
  | 'requireptr'
  | 'authfailure'
  | 'policyviolation'
  | 'spamdetected'
  | 'virusdetected'
  | 'contenterror'
  | 'securityerror'
  | 'norelaying'
  | 'rejected'
  | 'syntaxerror'
  | 'mesgtoobig'
  | 'exceedlimit'
  | 'toomanyconn'
  | 'speeding'
  | 'expired'
  | 'networkerror'
  | 'systemerror'
  | 'systemfull'
  | 'mailererror'
  | 'onhold'
  | 'undefined';

/** The reading of one raw message. */
export interface Classification {
  class: MessageClass;
  /** True only when the address itself is dead: suppress it. */
  hard: boolean;
  /** RFC 3463 enhanced status code of the first failed recipient ("5.1.1"), or "". */
  status: string;
  /** A bounce reason, `feedback` for a complaint, `vacation` for an auto-reply, the reply class otherwise. */
  reason: string;
  replyClass?: ReplyClass;
  sentiment?: Sentiment;
  /** ISO date (YYYY-MM-DD) an out-of-office says the person is back, when it says so. */
  returnDate?: string;
  /** For a `wrong_person` reply: the address the writer points us to. */
  referral?: string;
  /** The rule that decided the class, in words. */
  decidedBy?: string;
  /** The rules that fired, in the order they fired, in words. */
  why: string[];
}

/** The input of {@link classifyReplyText}: what a provider's reply webhook gives. */
export interface ReplyInput {
  subject?: string;
  text: string;
  /** Header names in any case; values as sent. */
  headers?: Record<string, string>;
}

/** The reading of a reply's text. */
export interface ReplyClassification {
  replyClass: ReplyClass;
  sentiment: Sentiment;
  /** For `bounce`: whether the address is dead (a 5.x.x status that blames the address). */
  hard?: boolean;
  /** For `bounce`: the enhanced status code found in the notice, or "". */
  status?: string;
  /** For `bounce`: the bounce reason. */
  reason?: string;
  /** For `out_of_office`: ISO date the person is back, when the text says so. */
  returnDate?: string;
  /** For `wrong_person`: the address the writer points us to ("please contact jane@..."). */
  referral?: string;
  /** The rule that decided the class, in words (the first of `why` that settled it). */
  decidedBy?: string;
  why: string[];
}

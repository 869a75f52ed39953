/**
 * The reply and bounce classifier: pure, offline, explainable rules. Every
 * classification carries `why`, the rules that fired, in words.
 */

export { HARD_REASONS } from './bounce-reason.js';
export type {
  BounceReason,
  Classification,
  MessageClass,
  ReplyClass,
  ReplyClassification,
  ReplyInput,
  Sentiment,
} from './classification.types.js';
export { classifyRawMessage } from './classify-raw-message.js';
export { classifyReplyText, type ReplyContext } from './classify-reply-text.js';
export { stripQuotedText } from './quote-stripper.js';

import type { Classification, ReplyClassification } from '../classify/classification.types.js';
import { classifyReplyText } from '../classify/classify-reply-text.js';
import { stripQuotedText } from '../classify/quote-stripper.js';
import { replyExcerptOf } from '../people/reply-actions.js';
import type { CanonicalEvent, EventType } from './canonical-event.js';

/** The fields a classification sets on a canonical event. */
export type ClassifiedFields = Pick<
  CanonicalEvent,
  'type' | 'classification' | 'sentiment' | 'why' | 'bounce' | 'returnDate' | 'referral' | 'excerpt'
>;

/**
 * What a reply's text makes of it: a person's answer stays a `reply` (with its
 * class), an auto-reply becomes `out_of_office`, "unsubscribe me" an
 * `unsubscribe`, and a delivery failure notice that came in as a reply a `bounce`.
 */
export function fieldsOfReply(c: ReplyClassification): ClassifiedFields {
  const base = { classification: c.replyClass, sentiment: c.sentiment, why: c.why.slice(0, 50) };
  switch (c.replyClass) {
    case 'bounce':
      return {
        ...base,
        type: 'bounce',
        bounce: { hard: c.hard ?? false, status: c.status ?? '', reason: c.reason ?? 'undefined' },
      };
    case 'out_of_office':
      return { ...base, type: 'out_of_office', ...(c.returnDate ? { returnDate: c.returnDate } : {}) };
    case 'unsubscribe':
      return { ...base, type: 'unsubscribe' };
    default:
      return { ...base, type: 'reply', ...(c.referral ? { referral: c.referral } : {}) };
  }
}

const TYPE_OF_CLASS: Record<Classification['class'], EventType> = {
  reply: 'reply',
  bounce: 'bounce',
  complaint: 'complaint',
  out_of_office: 'out_of_office',
  delivered: 'delivered',
  unsubscribe: 'unsubscribe',
};

/** What a raw message's classification makes of it (see `classifyRawMessage`). */
export function fieldsOfMessage(c: Classification): ClassifiedFields {
  return {
    type: TYPE_OF_CLASS[c.class],
    classification: c.replyClass ?? c.reason,
    ...(c.sentiment ? { sentiment: c.sentiment } : {}),
    why: c.why.slice(0, 50),
    ...(c.class === 'bounce' ? { bounce: { hard: c.hard, status: c.status, reason: c.reason } } : {}),
    ...(c.returnDate ? { returnDate: c.returnDate } : {}),
    ...(c.class === 'reply' && c.referral ? { referral: c.referral } : {}),
  };
}

/**
 * Classifies the text of a provider's reply event and returns the fields to set:
 * the provider said "reply", the text decides which kind. Providers that send no
 * text leave the event as they named it.
 */
export function classifyReplyEvent(
  input: { subject?: string | undefined; text?: string | undefined; headers?: Record<string, string> },
  receivedAt?: Date,
): ClassifiedFields | null {
  if (!input.text?.trim()) return null;
  const c = classifyReplyText(
    {
      text: input.text,
      ...(input.subject ? { subject: input.subject } : {}),
      ...(input.headers ? { headers: input.headers } : {}),
    },
    receivedAt ? { receivedAt } : {},
  );
  const excerpt = replyExcerptOf(stripQuotedText(input.text));
  const fields = fieldsOfReply(c);
  return fields.type === 'reply' && excerpt ? { ...fields, excerpt } : fields;
}

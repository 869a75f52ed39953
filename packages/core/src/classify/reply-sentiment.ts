import type { ReplyClass, Sentiment } from './classification.types.js';

const POSITIVE =
  /\b(thanks?|thank you|great|appreciate|glad|happy|love|perfect|awesome|excellent|danke|vielen dank|super|prima|toll|merci|parfait|genial|excellent|gracias|perfecto|estupendo|encantad[oa])\b/g;
const NEGATIVE =
  /\b(annoy\w*|spam\w*|harass\w*|ridiculous|unacceptable|angry|irritat\w*|sick of|tired of|stop|nervig|belastigung|unverschamt|agacant|harcelement|inacceptable|molest\w*|acoso|inaceptable|basta)\b/g;

/**
 * The tone of a reply. A class that implies a tone sets it (a decline is negative,
 * interest positive); a neutral reply takes the balance of a few tone words, so
 * "thanks, will read it" is positive and "this is spam" negative.
 */
export function replySentiment(replyClass: ReplyClass, folded: string): Sentiment {
  switch (replyClass) {
    case 'unsubscribe':
    case 'not_interested':
      return 'negative';
    case 'interested':
    case 'meeting_request':
      return 'positive';
    case 'out_of_office':
    case 'bounce':
      return 'neutral';
    default: {
      const positive = folded.match(POSITIVE)?.length ?? 0;
      const negative = folded.match(NEGATIVE)?.length ?? 0;
      if (negative > positive) return 'negative';
      if (positive > negative) return 'positive';
      return 'neutral';
    }
  }
}

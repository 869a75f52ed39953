/** The languages the reply rules know (the guess only serves forms that differ, such as date order). */
export type ReplyLanguage = 'en' | 'de' | 'fr' | 'es' | 'pt' | 'it' | 'nl' | 'pl';

// Short function words, frequent in any text of the language and rare in the others.
const STOPWORDS: Readonly<Record<ReplyLanguage, readonly string[]>> = {
  en: [
    'the',
    'and',
    'you',
    'to',
    'is',
    'for',
    'not',
    'with',
    'this',
    'are',
    'have',
    'will',
    'thanks',
    'please',
    'my',
  ],
  de: [
    'der',
    'die',
    'das',
    'und',
    'ich',
    'nicht',
    'sie',
    'ist',
    'mit',
    'bin',
    'bitte',
    'ein',
    'eine',
    'wir',
    'vielen',
  ],
  fr: [
    'le',
    'la',
    'les',
    'et',
    'je',
    'vous',
    'pas',
    'est',
    'pour',
    'une',
    'merci',
    'suis',
    'nous',
    'ne',
    'des',
  ],
  es: [
    'el',
    'la',
    'los',
    'y',
    'yo',
    'que',
    'no',
    'es',
    'para',
    'una',
    'gracias',
    'estoy',
    'por',
    'con',
    'del',
  ],
  pt: [
    'os',
    'eu',
    'nao',
    'estou',
    'um',
    'obrigado',
    'obrigada',
    'voce',
    'ao',
    'da',
    'seu',
    'ate',
    'meu',
    'minha',
    'quando',
  ],
  it: [
    'il',
    'gli',
    'e',
    'io',
    'non',
    'sono',
    'per',
    'un',
    'grazie',
    'che',
    'della',
    'del',
    'al',
    'mio',
    'ho',
  ],
  nl: [
    'de',
    'het',
    'en',
    'ik',
    'niet',
    'ben',
    'voor',
    'een',
    'bedankt',
    'dank',
    'met',
    'tot',
    'van',
    'mijn',
    'op',
  ],
  pl: [
    'nie',
    'jestem',
    'dla',
    'dziekuje',
    'sie',
    'od',
    'jest',
    'moj',
    'prosze',
    'oraz',
    'urlopie',
    'wiadomosc',
    'pani',
    'pan',
    'bede',
  ],
};

/**
 * Guesses a text's language by counting stop words; English when nothing stands out.
 * Used only where languages disagree on form, such as the order of day and month.
 */
export function guessLanguage(folded: string): ReplyLanguage {
  const words = folded.split(/[^a-z']+/);
  let best: ReplyLanguage = 'en';
  let bestScore = 0;
  for (const [lang, list] of Object.entries(STOPWORDS) as Array<[ReplyLanguage, readonly string[]]>) {
    const set = new Set(list);
    const score = words.filter((w) => set.has(w)).length;
    if (score > bestScore) {
      best = lang;
      bestScore = score;
    }
  }
  return best;
}

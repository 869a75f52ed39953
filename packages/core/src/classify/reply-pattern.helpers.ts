// Small builders for the phrase rules' regular expressions, shared by the
// reply-kinds-everyday-*.rules.ts files. Patterns run over folded text (lower case,
// no accents; see foldText).

/** Any one of `words`, as a non-capturing group. */
export const alt = (...words: string[]): string => `(?:${words.join('|')})`;

/** a, then b within `gap` words, in one sentence. */
export const near = (a: string, b: string, gap = 6): string =>
  `\\b${a}\\b(?:[^\\w.!?\\n]+[\\w'-]+){0,${gap}}?[^\\w.!?\\n]+${b}\\b`;

/** A sentence that holds every one of `needs` and then `last`. */
export const sentenceWith = (needs: string[], last: string): string =>
  `(?:^|(?<=[.!?\\n]))${needs.map((n) => `(?=[^.!?\\n]*\\b${n}\\b)`).join('')}[^.!?\\n]*\\b${last}\\b`;

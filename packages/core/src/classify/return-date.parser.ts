import type { ReplyLanguage } from './language-guess.js';

// Month names and keywords cover English, German, French, Spanish, and since issue 18
// Portuguese, Italian, Dutch and Polish (genitive months: "do 12 sierpnia").

/** The return date an out-of-office states, and the words it was read from. */
export interface ReturnDate {
  /** ISO date, YYYY-MM-DD. */
  date: string;
  why: string;
}

const MONTHS = namesToNumbers(
  [
    'january jan januar janner janvier janv enero ene janeiro gennaio januari stycznia',
    'february feb februar fevrier fevr fev febrero fevereiro febbraio februari lutego',
    'march mar marz mrz mars marzo marco maart marca',
    'april apr avril avr abril abr aprile kwietnia',
    'may mai mayo maio maggio mei maja',
    'june jun juni juin junio junho giugno czerwca',
    'july jul juli juillet juil julio julho luglio lipca',
    'august aug aout agosto ago augustus sierpnia',
    'september sep sept septembre septiembre setiembre setembro settembre wrzesnia',
    'october oct oktober okt octobre octubre outubro ottobre pazdziernika',
    'november nov novembre noviembre novembro listopada',
    'december dec dezember dez decembre diciembre dic dezembro dicembre grudnia',
  ],
  1,
);

// Full names only: short forms collide with words ("mon" is French for "my").
const WEEKDAYS = namesToNumbers(
  [
    'sunday sonntag dimanche domingo',
    'monday montag lundi lunes',
    'tuesday dienstag mardi martes',
    'wednesday mittwoch mercredi miercoles',
    'thursday donnerstag jeudi jueves',
    'friday freitag vendredi viernes',
    'saturday samstag sonnabend samedi sabado',
  ],
  0,
);

const MONTH_NAMES = Object.keys(MONTHS).join('|');
const WEEKDAY_NAMES = Object.keys(WEEKDAYS).join('|');

interface DateToken {
  index: number;
  end: number;
  year?: number;
  month?: number;
  day?: number;
  weekday?: number;
}

// The keyword says what the date that follows it means: the day the person is back,
// or the last day away (then they are back the day after).
const RETURN_KEYWORDS =
  /\b(back (in the office |in office |at (my|the) desk |at work )?(on|by|from)?|return(ing)? (to the office |to work )?(on)?|in the office (again )?(on|from)|available (again )?(on|from)|reachable (again )?(on|from)|zuruck( im buro)?( am| ab)?|wieder (im buro|erreichbar|da|verfugbar|zuruck)( ab| am)?|ab dem|ab|de retour (le|au bureau le|a partir du)?|retour (prevu )?le|a partir du|je reviens (le)?|je serai de retour (le)?|de regreso (el)?|regreso (el)?|vuelvo (el)?|volvere (el)?|a partir del|de vuelta (el)?|me reincorporo (el)?|volto (no dia|em|a)?|retorno (no dia|em|a)?|estarei de volta (em|no dia|a)?|rientrero (il)?|di ritorno (il)?|ben (weer )?terug (op)?|weer aanwezig (op)?|wracam( do pracy)?( dnia)?)\s*$/;
const UNTIL_KEYWORDS =
  /\b(until|till|through|thru|to|bis( zum| einschliesslich| inklusive| inkl\.?)?|jusqu'au|jusqu'a|au|hasta( el)?|al|ate( o dia| dia)?|fino (al|a)|tot( en met)?|do)( next| the next| nachsten| kommenden| prochain| proximo)?\s*$/;

/**
 * Finds the date an out-of-office says the person is back. Reads "back on", "zurück
 * am", "de retour le", "regreso el" as the return date itself; "until", "bis",
 * "jusqu'au", "hasta" and the end of a range as the last day away, so the return is
 * the day after: pausing a day too long costs nothing, writing to an empty desk does.
 * A date without a year takes the year that puts it on or after the message date;
 * a weekday is the next one after it. Without a message date, only full dates count.
 */
export function parseReturnDate(
  folded: string,
  lang: ReplyLanguage,
  reference?: Date,
): ReturnDate | undefined {
  const tokens = findDateTokens(folded, lang);
  let fallback: ReturnDate | undefined;
  for (const token of tokens) {
    const before = folded.slice(Math.max(0, token.index - 45), token.index);
    const isReturn = RETURN_KEYWORDS.test(before) || RETURN_KEYWORDS.test(stripWeekday(before));
    const isUntil =
      !isReturn &&
      (UNTIL_KEYWORDS.test(before) || UNTIL_KEYWORDS.test(stripWeekday(before)) || /[-–]\s*$/.test(before));
    if (!isReturn && !isUntil) continue;
    const resolved = resolve(token, reference);
    if (!resolved) continue;
    const quote = folded.slice(Math.max(0, token.index - 25), token.index + 20).trim();
    if (isReturn) return { date: iso(resolved), why: `back on ${iso(resolved)} ("…${quote}…")` };
    fallback ??= {
      date: iso(addDays(resolved, 1)),
      why: `away through ${iso(resolved)}, so back on ${iso(addDays(resolved, 1))} ("…${quote}…")`,
    };
  }
  return fallback;
}

function stripWeekday(before: string): string {
  return before.replace(new RegExp(`\\b(${WEEKDAY_NAMES}),?\\s*(the\\s*)?$`), '');
}

function findDateTokens(text: string, lang: ReplyLanguage): DateToken[] {
  const tokens: DateToken[] = [];
  const taken: Array<[number, number]> = [];
  const add = (index: number, length: number, token: Omit<DateToken, 'index' | 'end'>): void => {
    if (taken.some(([s, e]) => index < e && index + length > s)) return;
    taken.push([index, index + length]);
    tokens.push({ index, end: index + length, ...token });
  };

  for (const m of text.matchAll(/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g)) {
    add(m.index, m[0].length, { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) });
  }
  const dayMonth = new RegExp(
    `\\b(\\d{1,2})(?:st|nd|rd|th|er|\\.|º)?(?:\\s*(?:of|de))?\\s+(${MONTH_NAMES})\\b\\.?(?:,?\\s+(?:de\\s+)?(\\d{4}))?`,
    'g',
  );
  for (const m of text.matchAll(dayMonth)) {
    add(m.index, m[0].length, { day: Number(m[1]), month: MONTHS[m[2] ?? ''], year: year(m[3]) });
  }
  const monthDay = new RegExp(
    `\\b(${MONTH_NAMES})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s+(\\d{4}))?`,
    'g',
  );
  for (const m of text.matchAll(monthDay)) {
    add(m.index, m[0].length, { month: MONTHS[m[1] ?? ''], day: Number(m[2]), year: year(m[3]) });
  }
  // "July 10-31", "10-31 July", "10.-31. Juli": the range end is its own token.
  const rangeEnd = new RegExp(`\\b(${MONTH_NAMES})\\.?\\s+\\d{1,2}\\s*[-–]\\s*(\\d{1,2})\\b`, 'g');
  for (const m of text.matchAll(rangeEnd)) {
    const end = m[0].lastIndexOf(m[2] ?? '');
    add(m.index + end, (m[2] ?? '').length, { month: MONTHS[m[1] ?? ''], day: Number(m[2]) });
  }
  // Numbers: 15.07.2024, 15/07/2024, 15.07. (German), 7/15/2024 (US when the day shows it).
  for (const m of text.matchAll(/\b(\d{1,2})([./])(\d{1,2})(?:\2(\d{4}|\d{2})\b|(\.))?(?![\d:])/g)) {
    const hasYear = m[4] !== undefined;
    if (!hasYear && m[5] === undefined && m[2] !== '/') continue;
    const a = Number(m[1]);
    const b = Number(m[3]);
    const dayFirst = a > 12 || (b <= 12 && (lang !== 'en' || m[2] === '.'));
    add(m.index, m[0].length, { day: dayFirst ? a : b, month: dayFirst ? b : a, year: year(m[4]) });
  }
  for (const m of text.matchAll(new RegExp(`\\b(${WEEKDAY_NAMES})\\b`, 'g'))) {
    add(m.index, m[0].length, { weekday: WEEKDAYS[m[1] ?? ''] });
  }
  // "lundi 25 mars": the weekday only names the date that follows it.
  const dated = tokens.filter((t) => t.weekday === undefined);
  return tokens
    .filter((t) => t.weekday === undefined || !dated.some((d) => d.index >= t.end && d.index - t.end <= 12))
    .sort((x, y) => x.index - y.index);
}

/** Maps every space-separated name on line i to first + i. */
function namesToNumbers(lines: readonly string[], first: number): Readonly<Record<string, number>> {
  const map: Record<string, number> = {};
  lines.forEach((line, i) => {
    for (const name of line.split(' ')) map[name] = first + i;
  });
  return map;
}

function year(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const n = Number(text);
  return n < 100 ? 2000 + n : n;
}

function resolve(token: DateToken, reference: Date | undefined): Date | undefined {
  if (token.weekday !== undefined) {
    if (!reference) return undefined;
    const delta = (token.weekday - reference.getUTCDay() + 7) % 7 || 7;
    return addDays(startOfDay(reference), delta);
  }
  const { month, day } = token;
  if (!month || !day || month > 12 || day > 31) return undefined;
  let y = token.year;
  if (y === undefined) {
    if (!reference) return undefined;
    y = reference.getUTCFullYear();
    // "back on 3 January" written on 20 December means next year.
    if (Date.UTC(y, month - 1, day) < startOfDay(reference).getTime() - 2 * 86_400_000) y += 1;
  }
  const date = new Date(Date.UTC(y, month - 1, day));
  return date.getUTCMonth() === month - 1 ? date : undefined;
}

function startOfDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 86_400_000);
}

function iso(date: Date): string {
  return date.toISOString().slice(0, 10);
}

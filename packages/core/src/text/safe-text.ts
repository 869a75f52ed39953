import { z } from 'zod';

// U+0000, or a UTF-16 surrogate without its partner (a high one not followed by a
// low one, or a low one not preceded by a high one). The NUL is the point here.
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is what this looks for
const UNSAFE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSAFE_GLOBAL = new RegExp(UNSAFE.source, 'g');

/**
 * Why `value` cannot be stored as text, or null when it can. PostgreSQL refuses
 * U+0000 in text and jsonb, and a lone surrogate is not Unicode at all (jsonb
 * refuses its escape; a text column would silently keep U+FFFD instead).
 */
export function unsafeTextReason(value: string): string | null {
  const found = UNSAFE.exec(value);
  if (!found) return null;
  const at = found.index;
  return found[0] === '\u0000'
    ? `contains a NUL character (U+0000) at position ${at}, which text cannot hold`
    : `contains an unpaired UTF-16 surrogate at position ${at}, which is not valid Unicode`;
}

/** `value` with each NUL and each unpaired surrogate replaced by U+FFFD, as a UTF-8 decoder would. */
export function safeText(value: string): string {
  return UNSAFE.test(value) ? value.replace(UNSAFE_GLOBAL, '\ufffd') : value;
}

/**
 * Every string of `value` (object keys included, at any depth) made safe with
 * {@link safeText}; other values as they are. For data received from outside that
 * must be recorded whatever it holds (a provider's event).
 */
export function safeTextDeep<T>(value: T): T {
  // Almost every event is already safe: found so without a copy, it is returned as it is.
  return hasUnsafeText(value) ? safeCopy(value) : value;
}

/** Whether any string of `value` (object keys included, at any depth) holds a NUL or a lone surrogate. */
function hasUnsafeText(value: unknown): boolean {
  if (typeof value === 'string') return UNSAFE.test(value);
  if (Array.isArray(value)) return value.some(hasUnsafeText);
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    for (const k in value)
      if (Object.hasOwn(value, k) && (UNSAFE.test(k) || hasUnsafeText((value as Record<string, unknown>)[k])))
        return true;
  }
  return false;
}

function safeCopy<T>(value: T): T {
  if (typeof value === 'string') return safeText(value) as T;
  if (Array.isArray(value)) return value.map((v) => safeCopy(v)) as T;
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [safeText(k), safeCopy(v)])) as T;
  }
  return value;
}

/**
 * The refinement every text field of a request uses: refuses NUL and lone
 * surrogates with a message the problem handler puts next to the field's name.
 */
export function refuseUnsafeText(value: string, ctx: z.RefinementCtx): void {
  const reason = unsafeTextReason(value);
  if (reason) ctx.addIssue({ code: 'custom', message: reason, input: value });
}

/**
 * A string that PostgreSQL can store: `z.string()` refusing NUL (U+0000) and
 * unpaired UTF-16 surrogates. Chain the rest (`TextSchema.trim().min(1).max(200)`).
 * Every free-text field of the API is one of these, so hostile text is a 400
 * naming the field, never a database error.
 */
export const TextSchema = z.string().superRefine(refuseUnsafeText);

import { TextSchema } from '@touchbase/core';
import { z } from 'zod';

const AFTER = 'The `next` cursor of the previous page';

/** The cursor of a list ordered by a uuid id. */
export const UuidCursorSchema = z.uuid('a cursor from the `next` of a previous page (a uuid)');

/** The cursor of a list ordered by a bigint sequence (events, audit): a non-negative integer. */
export const IntegerCursorSchema = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,14})$/, 'a cursor from the `next` of a previous page (an integer)')
  .transform(Number);

/** The cursor of a list ordered by a name (sending domains). */
export const NameCursorSchema = TextSchema.max(253);

/**
 * Cursor pagination query of a list, with the cursor its order needs: a cursor of
 * another shape is a 400 naming `querystring.after`, never a database error.
 */
export function pageQuery<C extends z.ZodType>(cursor: C) {
  return z.object({
    limit: z.coerce.number().int().min(1).max(500).default(100),
    after: cursor.optional().describe(AFTER),
  });
}

/** Cursor pagination query of a list ordered by a uuid id (most lists); see {@link pageQuery}. */
export const PageQuerySchema = pageQuery(UuidCursorSchema);

export const IdParamsSchema = z.object({ id: z.uuid() });

/** A list page: the items and the cursor of the next page (null at the end). */
export function page<T>(items: T[], limit: number, cursorOf: (item: T) => string) {
  const last = items[items.length - 1];
  return { items, next: items.length === limit && last ? cursorOf(last) : null };
}

/**
 * A refinement of an array refusing items that repeat one before them (by `keyOf`:
 * an address compares lower-cased), each issue naming the index of the repeat
 * (`prospects.3.email: the same as item 0`), so one request never writes one row twice.
 */
export function noDuplicates<T>(keyOf: (item: T) => string, field?: string) {
  return (items: T[], ctx: z.RefinementCtx): void => {
    const seen = new Map<string, number>();
    items.forEach((item, i) => {
      const key = keyOf(item);
      const first = seen.get(key);
      if (first === undefined) seen.set(key, i);
      else
        ctx.addIssue({
          code: 'custom',
          path: field ? [i, field] : [i],
          message: `the same as item ${first}: each may appear once`,
          input: item,
        });
    });
  };
}

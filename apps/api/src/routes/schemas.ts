import { z } from 'zod';

/** Cursor pagination query shared by list routes. */
export const PageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  after: z.string().max(100).optional().describe('The `next` cursor of the previous page'),
});

export const IdParamsSchema = z.object({ id: z.uuid() });

/** A list page: the items and the cursor of the next page (null at the end). */
export function page<T>(items: T[], limit: number, cursorOf: (item: T) => string) {
  const last = items[items.length - 1];
  return { items, next: items.length === limit && last ? cursorOf(last) : null };
}

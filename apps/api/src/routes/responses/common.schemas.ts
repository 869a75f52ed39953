import { z } from 'zod';

/**
 * A moment, answered as ISO 8601 (`2026-11-27T13:22:51.123Z`). Handlers give a Date
 * (serialised with toISOString) or, from a row PostgreSQL built as JSON, its ISO text.
 */
export const DateTimeSchema = z
  .union([z.date(), z.iso.datetime({ offset: true })])
  .describe('ISO 8601 date and time');

/** A local date `YYYY-MM-DD`. */
export const DateSchema = z.iso.date();

/** The statuses of a sending account (a mailbox, a LinkedIn account). */
export const MAILBOX_STATUSES = ['active', 'paused'] as const;

/** A list page: the items and the cursor of the next page (null at the end). */
export function pageOf<T extends z.ZodType>(item: T) {
  return z
    .object({
      items: z.array(item),
      next: z.string().nullable().describe('The cursor of the next page (`after`), null at the end'),
    })
    .describe('A page of a list');
}

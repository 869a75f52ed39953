import { z } from 'zod';

const WEEKDAY = 'days must be ISO weekdays 1 (Monday) to 7 (Sunday)';
const LOCAL_TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

/**
 * When a mailbox may send, in the prospect's local time: ISO weekdays
 * (1 = Monday … 7 = Sunday), `start` inclusive and `end` exclusive as `HH:mm`, and
 * local dates to skip. An `end` of `23:59` runs to midnight, the last minute
 * included: 24:00 cannot be written, and `00:00`–`23:59` must mean the whole day.
 * A window over midnight (22:00–06:00) is refused: nobody should get cold email at
 * night, and refusing it keeps one window per local day. The window is read off the
 * local clock: on a fall-back day a repeated time is inside it on both passes.
 */
export const SendingWindowSchema = z
  .object({
    days: z
      .array(z.number().int(WEEKDAY).min(1, WEEKDAY).max(7, WEEKDAY), {
        error: 'days must be a list of ISO weekdays',
      })
      .min(1, 'a sending window needs at least one day')
      .refine((days) => new Set(days).size === days.length, 'days must not repeat'),
    start: z.string().regex(LOCAL_TIME, 'start must be a local time HH:mm between 00:00 and 23:59'),
    end: z.string().regex(LOCAL_TIME, 'end must be a local time HH:mm between 00:00 and 23:59'),
    holidays: z.array(z.iso.date('holidays must be local dates YYYY-MM-DD')).optional(),
  })
  .strict()
  .refine((window) => window.start < window.end, {
    // Zero-padded HH:mm strings compare like the times they spell.
    message: 'start must be before end (windows over midnight are not supported)',
    path: ['end'],
  });

/** A validated sending window; see {@link SendingWindowSchema}. */
export type SendingWindow = z.infer<typeof SendingWindowSchema>;

/** Hours and minutes of a validated `HH:mm`. */
export function parseLocalTime(hhmm: string): { hour: number; minute: number } {
  return { hour: Number(hhmm.slice(0, 2)), minute: Number(hhmm.slice(3, 5)) };
}

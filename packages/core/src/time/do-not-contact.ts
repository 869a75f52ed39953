import { z } from 'zod';
import type { SendingWindow } from './sending-window.schemas.js';

const LOCAL_TIME = /^(?:[01]\d|2[0-3]):[0-5]\d$/;
const WEEKDAY = 'days must be ISO weekdays 1 (Monday) to 7 (Sunday)';

/**
 * A recipient country's do-not-contact hours and days, in the recipient's local
 * time: whole weekdays (ISO, 7 = Sunday), no contact before `notBefore` nor from
 * `notAfter` on, and whole local dates (public holidays). Applied on top of every
 * sending window (the sequence's or the mailbox's): it only ever narrows it.
 */
export const DoNotContactRuleSchema = z
  .object({
    days: z.array(z.number().int(WEEKDAY).min(1, WEEKDAY).max(7, WEEKDAY)).default([]),
    notBefore: z.string().regex(LOCAL_TIME, 'notBefore must be a local time HH:mm').optional(),
    notAfter: z.string().regex(LOCAL_TIME, 'notAfter must be a local time HH:mm').optional(),
    dates: z.array(z.iso.date('dates must be local dates YYYY-MM-DD')).default([]),
  })
  .strict()
  .refine((r) => !r.notBefore || !r.notAfter || r.notBefore < r.notAfter, {
    message: 'notBefore must be before notAfter',
    path: ['notAfter'],
  })
  .refine((r) => new Set(r.days).size < 7, { message: 'a country cannot forbid every day', path: ['days'] });
export type DoNotContactRule = z.infer<typeof DoNotContactRuleSchema>;

/** The table of rules by ISO 3166-1 alpha-2 country code (`{"DE": {"days": [7]}}`). */
export const DoNotContactTableSchema = z.record(
  z.string().regex(/^[A-Z]{2}$/, 'keys must be ISO 3166-1 alpha-2 country codes (DE, FR, ...)'),
  DoNotContactRuleSchema,
);
export type DoNotContactTable = z.infer<typeof DoNotContactTableSchema>;

/** The rule of a recipient's country (any case), or null when the country is unknown or has none. */
export function doNotContactRuleOf(
  table: DoNotContactTable | null | undefined,
  country: string | null | undefined,
): DoNotContactRule | null {
  if (!table || !country) return null;
  return table[country.trim().toUpperCase()] ?? null;
}

const ALL_DAYS = [1, 2, 3, 4, 5, 6, 7];

/**
 * The sending window with the country's do-not-contact rule on top: the forbidden
 * weekdays removed, the hours cut to [notBefore, notAfter), the forbidden dates
 * added to the holidays. No window (any time) starts from the whole week. With no
 * rule the window is returned as it is. The result can leave nothing open (a
 * mailbox sending only on Sundays, to Germany): moving into it then fails as an
 * unreachable window does, never sends at a forbidden time.
 */
export function withDoNotContact(
  window: SendingWindow | null,
  rule: DoNotContactRule | null,
): SendingWindow | null {
  if (!rule) return window;
  const base = window ?? { days: ALL_DAYS, start: '00:00', end: '23:59' };
  const days = base.days.filter((d) => !rule.days.includes(d));
  const start = rule.notBefore && rule.notBefore > base.start ? rule.notBefore : base.start;
  const end = rule.notAfter && rule.notAfter < base.end ? rule.notAfter : base.end;
  const holidays = [...new Set([...(base.holidays ?? []), ...rule.dates])];
  return { days, start, end, ...(holidays.length > 0 ? { holidays } : {}) };
}

/** The recipient's country from the prospect's attributes (`country`, an ISO alpha-2 code, any case), or null. */
export function recipientCountryOf(attributes: Record<string, unknown> | null | undefined): string | null {
  const c = attributes?.country;
  return typeof c === 'string' && /^[A-Za-z]{2}$/.test(c.trim()) ? c.trim().toUpperCase() : null;
}

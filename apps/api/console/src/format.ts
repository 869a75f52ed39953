/** Display helpers: numbers, rates and times as a person reads them. */

export function percent(rate: number | null | undefined, digits = 1): string {
  if (rate === null || rate === undefined || Number.isNaN(rate)) return '–';
  return `${(rate * 100).toFixed(digits)}%`;
}

export function count(n: number | null | undefined): string {
  return n === null || n === undefined ? '–' : n.toLocaleString('en');
}

export function dateTime(value: string | Date | null | undefined): string {
  if (!value) return '–';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return String(value);
  return d.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });
}

/** A time as a person reads it in a zone, with the zone named: `30 Nov 2026, 09:00 Asia/Tokyo time`. */
export function dateTimeIn(value: string | Date, timeZone: string): string {
  const d = new Date(value);
  const local = d.toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone });
  return `${local} ${timeZone} time`;
}

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** ISO weekdays (1 = Monday) as names: `Mon, Wed`; all seven: `every day`. */
export function weekdays(days: number[]): string {
  if (days.length === 7) return 'every day';
  return days.map((d) => WEEKDAYS[d - 1] ?? String(d)).join(', ');
}

/** A LinkedIn action's name in words. */
export const LINKEDIN_ACTION_TEXT: Record<string, string> = {
  invitation: 'invitations',
  message: 'messages',
  profile_visit: 'profile visits',
};

/** What each waiting reason means, in the words an operator uses. */
export const WAITING_TEXT: Record<string, string> = {
  touch_in_progress: 'A touch is being sent right now',
  domain_paused: 'The sending domain is paused',
  mailbox_paused: 'The mailbox is paused',
  pool_no_usable_mailbox: 'No mailbox of the pool can send',
  out_of_office: 'The person is out of office',
  missing_variable: 'The copy needs a variable the person lacks',
  paused: 'Paused by an operator',
  waiting_for_due_time: 'Waiting for the next step’s due time',
  cooldown: 'Waiting out the cooldown since the person was last contacted',
  new_people_cap: 'Today’s cap on new people contacted is reached',
  recipient_domain_cap: 'Today’s cap on touches to the person’s company domain is reached',
  do_not_contact_hours: 'The person’s country allows no contact at this time',
  window_closed: 'The sending window is closed',
  mailbox_cap_reached: 'The mailbox has reached its cap',
  no_linkedin_account:
    'No LinkedIn account can act for it: none is chosen yet, and the campaign’s pool has no active LinkedIn account',
  linkedin_account_paused: 'Its LinkedIn account is paused',
  linkedin_window_closed: 'Its LinkedIn account’s sending window is closed',
  linkedin_cap_reached: 'Its LinkedIn account has reached its limit for this action',
  due: 'Due now: its touch goes out next',
  task_due: 'Due now: its manual task is handed to a person next (no sending window or cap holds a task)',
};

export function waitingText(reason: string): string {
  return WAITING_TEXT[reason] ?? reason;
}

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
  window_closed: 'The sending window is closed',
  mailbox_cap_reached: 'The mailbox has reached its cap',
  due: 'Due now: its touch goes out next',
};

export function waitingText(reason: string): string {
  return WAITING_TEXT[reason] ?? reason;
}

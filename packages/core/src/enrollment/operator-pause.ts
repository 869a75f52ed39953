/**
 * The `stop_reason` of an enrollment an operator paused with no end: it stays
 * paused until an operator resumes it.
 */
export const MANUAL_PAUSE_REASON = 'manual_pause';

/**
 * The `stop_reason` of an enrollment an operator paused until a date; `next_touch_at`
 * holds that date, and the reconciler resumes it then, as it resumes an out-of-office.
 */
export const MANUAL_PAUSE_UNTIL_REASON = 'manual_pause_until';

/** The prefix of the `stop_reason` the sender sets when a template variable is missing (`missing_variable:a,b`). */
export const MISSING_VARIABLE_PREFIX = 'missing_variable:';

/** Why a paused enrollment is paused, as an operator filters them. */
export const PAUSE_KINDS = ['manual', 'out_of_office', 'missing_variable', 'other'] as const;
export type PauseKind = (typeof PAUSE_KINDS)[number];

/** Why an enrollment paused with this `stop_reason` is paused. */
export function pauseKindOf(stopReason: string | null): PauseKind {
  if (stopReason === MANUAL_PAUSE_REASON || stopReason === MANUAL_PAUSE_UNTIL_REASON) return 'manual';
  if (stopReason === 'out_of_office') return 'out_of_office';
  if (stopReason?.startsWith(MISSING_VARIABLE_PREFIX)) return 'missing_variable';
  return 'other';
}

/** The `stop_reason` of the sender's pause for missing template variables. */
export function missingVariableReason(missing: readonly string[]): string {
  return `${MISSING_VARIABLE_PREFIX}${missing.join(',')}`;
}

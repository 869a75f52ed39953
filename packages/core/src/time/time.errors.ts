/**
 * Errors of the time module. Each has a stable `code` that callers match on;
 * the message names the offending input so a 400 can be explained without logs.
 */

/** A wait or duration string could not be parsed. */
export class DurationError extends Error {
  override readonly name = 'DurationError';
  readonly code = 'invalid_duration';

  constructor(
    readonly input: string,
    problem: string,
  ) {
    super(`Invalid duration ${JSON.stringify(input)}: ${problem}`);
  }
}

/** A time zone is not a known IANA name. */
export class TimeZoneError extends Error {
  override readonly name = 'TimeZoneError';
  readonly code = 'invalid_time_zone';

  constructor(readonly timeZone: string) {
    super(`Invalid time zone ${JSON.stringify(timeZone)}: expected an IANA name such as "Europe/Berlin"`);
  }
}

/**
 * A sending window is malformed (`invalid_sending_window`), or has no slot within the
 * search bound (`sending_window_unreachable`, e.g. every allowed day is a holiday).
 */
export class SendingWindowError extends Error {
  override readonly name = 'SendingWindowError';

  constructor(
    readonly code: 'invalid_sending_window' | 'sending_window_unreachable',
    message: string,
  ) {
    super(message);
  }
}

/**
 * An instant is outside what a JavaScript `Date` can hold (±8.64e15 ms, about
 * ±275,000 years), or is an Invalid Date. Thrown instead of returning Invalid Date,
 * which would otherwise travel on as `NaN` and be stored or compared silently.
 * A `RangeError`, so callers that already catch one keep working.
 */
export class TimeRangeError extends RangeError {
  override readonly name = 'TimeRangeError';
  readonly code = 'time_out_of_range';
}

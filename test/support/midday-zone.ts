const HOUR = 3_600_000;

/**
 * A fixed-offset zone where it is now about midday (between 12:00 and 13:00 local),
 * so that a window or a do-not-contact rule can open or close soon after now, and
 * hours later today are still ahead, whatever the hour the test runs at (and never
 * over midnight). For the real-time e2e tests (TIME_SCALE 1).
 */
export function middayZone(now: number) {
  const offset = 12 - new Date(now).getUTCHours(); // -11 … +12
  // POSIX sign: Etc/GMT-5 is five hours ahead of UTC.
  const zone = offset === 0 ? 'Etc/GMT' : offset > 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
  const local = (instant: number) => new Date(instant + offset * HOUR).toISOString();
  return {
    zone,
    /** The local date `days` after today's, YYYY-MM-DD. */
    date: (days = 0) => local(now + days * 24 * HOUR).slice(0, 10),
    /** The local time `ms` from now, HH:mm, rounded up to the minute. */
    time: (ms: number) => local(Math.ceil((now + ms) / 60_000) * 60_000).slice(11, 16),
    /** The instant of `hhmm` local on the local date `days` after today. */
    at: (days: number, hhmm: string) =>
      Date.parse(`${local(now + days * 24 * HOUR).slice(0, 10)}T${hhmm}:00Z`) - offset * HOUR,
  };
}

/**
 * Waits, when the next UTC hour is less than `marginMs` away, until just after it:
 * a suite that reads {@link middayZone} once and then expects whole local hours
 * (13:00, 14:00) to be still ahead would otherwise see 13:00 pass mid-run when it
 * starts at 12:59 local.
 */
export async function clearOfTheHour(marginMs = 120_000): Promise<void> {
  const toHour = HOUR - (Date.now() % HOUR);
  if (toHour < marginMs) await new Promise((r) => setTimeout(r, toHour + 1_000));
}

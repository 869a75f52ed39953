import type { HealthCause, HealthFigures, HealthSettings } from './health-rules.js';

/** A rate as people read it: 4.2%, 0.33% (two decimals below 1%). */
export function percent(ratio: number): string {
  const p = ratio * 100;
  return `${p >= 1 || p === 0 ? p.toFixed(1) : p.toFixed(2)}%`;
}

/** A threshold without trailing zeros: 3%, 0.3%. */
export function thresholdPercent(ratio: number): string {
  return `${Number((ratio * 100).toFixed(3))}%`;
}

const count = (n: number) => n.toLocaleString('en-US');
const overDays = (days: number) => `over ${days} day${days === 1 ? '' : 's'}`;

/** Why a domain was paused, with the figures: `paused because 17 of 402 sends bounced, 4.2% over 7 days, above 3%`. */
export function pauseReason(cause: HealthCause, f: HealthFigures, s: HealthSettings, scope = ''): string {
  return cause === 'bounce'
    ? `paused because ${count(f.bounces)} of ${count(f.sends)} sends${scope} bounced, ${percent(f.bounceRate)} ${overDays(f.days)}, above ${thresholdPercent(s.bounceThreshold)}`
    : `paused because ${count(f.complaints)} of ${count(f.sends)} sends${scope} drew a spam complaint, ${percent(f.complaintRate)} ${overDays(f.days)}, above ${thresholdPercent(s.complaintPause)}`;
}

/** The account-wide guard's reason, written on every domain it pauses. */
export function accountPauseReason(cause: HealthCause, f: HealthFigures, s: HealthSettings): string {
  return `account-wide guard: ${pauseReason(cause, f, s, ' across all domains')}`;
}

/** The warning that a threshold is approached. */
export function approachMessage(cause: HealthCause, f: HealthFigures, s: HealthSettings, scope = ''): string {
  return cause === 'bounce'
    ? `bounce rate approaching the pause threshold: ${count(f.bounces)} of ${count(f.sends)} sends${scope} bounced, ${percent(f.bounceRate)} ${overDays(f.days)} (warning at ${thresholdPercent(s.bounceThreshold * s.bounceWarnRatio)}, pause above ${thresholdPercent(s.bounceThreshold)})`
    : `spam complaints at the alert level: ${count(f.complaints)} of ${count(f.sends)} sends${scope}, ${percent(f.complaintRate)} ${overDays(f.days)} (alert at ${thresholdPercent(s.complaintAlert)}, pause above ${thresholdPercent(s.complaintPause)})`;
}

/**
 * The completion-rate alert in words: how many of the sequences that ended ran
 * through every step, against the floor, and what ended the others.
 */
export function completionMessage(f: HealthFigures, s: HealthSettings): string {
  const early = f.ended - f.completed;
  return `completion rate below the floor: ${count(f.completed)} of ${count(f.ended)} sequences that ended ${overDays(f.days)} ran through every step, ${percent(f.completionRate)} (floor ${thresholdPercent(s.completionFloor ?? 0)}); ${count(early)} ended early (replies, bounces, unsubscribes, cancellations): ${count(f.bounces)} bounces and ${count(f.complaints)} complaints in ${count(f.sends)} sends`;
}

/** Why the guard resumed a domain by itself. */
export function autoResumeReason(f: HealthFigures, cooledMs: number): string {
  const hours = Math.round((cooledMs / 3_600_000) * 10) / 10;
  return `under the thresholds for ${hours} h: ${count(f.bounces)} of ${count(f.sends)} sends bounced (${percent(f.bounceRate)}), ${count(f.complaints)} complaints (${percent(f.complaintRate)}) ${overDays(f.days)}`;
}

/** The thresholds an alert carries. */
export function thresholdsOf(s: HealthSettings): Record<string, number> {
  return {
    bounceThreshold: s.bounceThreshold,
    bounceWarnThreshold: s.bounceThreshold * s.bounceWarnRatio,
    complaintAlertThreshold: s.complaintAlert,
    complaintPauseThreshold: s.complaintPause,
    minSends: s.minSends,
    windowDays: s.windowDays,
  };
}

/** The figures an alert carries (the counts and rates; the rest stays on the domain record). */
export function alertFigures(f: HealthFigures): Record<string, number> {
  return {
    sends: f.sends,
    bounces: f.bounces,
    bounceRate: f.bounceRate,
    complaints: f.complaints,
    complaintRate: f.complaintRate,
    days: f.days,
  };
}

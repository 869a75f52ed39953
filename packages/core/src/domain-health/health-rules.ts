/**
 * What a sending domain did over a window: sends, and of them bounces, complaints and
 * replies; enrollments ended, and of them completed (ran through every step).
 */
export type HealthCounts = {
  sends: number;
  bounces: number;
  complaints: number;
  replies: number;
  ended: number;
  completed: number;
};

/** The guard's thresholds (from DOMAIN_HEALTH_*). Rates are ratios: 0.03 is 3%. */
export type HealthSettings = {
  bounceThreshold: number;
  /** Share of `bounceThreshold` at which ops are warned (0.8). */
  bounceWarnRatio: number;
  minSends: number;
  complaintAlert: number;
  complaintPause: number;
  complaintMinSends: number;
  windowDays: number;
  /** Completion rate (sequences that ran through every step, of those ended) below which ops are alerted; 0 or absent: not watched. */
  completionFloor?: number;
  /** Ended enrollments in the window below which the completion rate is not judged. */
  completionMinEnded?: number;
};

/** Counts over the window, with the rates derived from them. */
export type HealthFigures = HealthCounts & {
  /** Days the counts span: the window, or fewer since a resume. */
  days: number;
  bounceRate: number;
  complaintRate: number;
  replyRate: number;
  /** Of the enrollments that ended, the share that ran through every step. */
  completionRate: number;
};

/** `ok`, `approaching` (the warning level) or `over` (pause). */
export type HealthBand = 'ok' | 'approaching' | 'over';
export type HealthCause = 'bounce' | 'complaint';

// Once warned, a rate clears only below 90% of the warning level, so a rate that
// hovers around it does not raise an alert at every crossing.
const CLEAR_FACTOR = 0.9;

/** Rates from counts; a rate over no sends is 0. */
export function figuresOf(counts: HealthCounts, days: number): HealthFigures {
  const ratio = (a: number, b: number) => (b > 0 ? a / b : 0);
  return {
    ...counts,
    days,
    bounceRate: ratio(counts.bounces, counts.sends),
    complaintRate: ratio(counts.complaints, counts.sends),
    replyRate: ratio(counts.replies, counts.sends),
    completionRate: ratio(counts.completed, counts.ended),
  };
}

/** Adds counts up (the account-wide guard). */
export function sumCounts(all: HealthCounts[]): HealthCounts {
  const total: HealthCounts = { sends: 0, bounces: 0, complaints: 0, replies: 0, ended: 0, completed: 0 };
  for (const c of all) for (const k of Object.keys(total) as (keyof HealthCounts)[]) total[k] += c[k];
  return total;
}

/**
 * The band the figures fall in. A rate counts only with enough sends behind it
 * (two bounces in ten sends pause nothing); `over` is strictly above the
 * threshold; bounces are judged before complaints.
 */
export function bandOf(
  previous: HealthBand,
  f: HealthFigures,
  s: HealthSettings,
): { band: HealthBand; cause: HealthCause | null } {
  const bounceJudged = f.sends >= s.minSends;
  const complaintJudged = f.sends >= s.complaintMinSends;
  if (bounceJudged && f.bounceRate > s.bounceThreshold) return { band: 'over', cause: 'bounce' };
  if (complaintJudged && f.complaintRate > s.complaintPause) return { band: 'over', cause: 'complaint' };
  const factor = previous === 'ok' ? 1 : CLEAR_FACTOR;
  if (bounceJudged && f.bounceRate >= s.bounceThreshold * s.bounceWarnRatio * factor) {
    return { band: 'approaching', cause: 'bounce' };
  }
  if (complaintJudged && f.complaintRate >= s.complaintAlert * factor) {
    return { band: 'approaching', cause: 'complaint' };
  }
  return { band: 'ok', cause: null };
}

/** A domain's state as the guard sees it before a tick. */
export type DomainState = {
  status: 'active' | 'paused';
  /** `bounce`, `complaint`, `account` (the guard's own pauses) or `manual`. */
  pauseKind: string | null;
  healthLevel: HealthBand;
  healthySince: Date | null;
};

/** What a tick does to one domain, and the state it leaves. */
export type DomainDecision = {
  action: 'none' | 'pause' | 'approach' | 'resume';
  cause: HealthCause | null;
  level: HealthBand;
  /** A paused domain back under its thresholds: since when (the cooling-off). */
  healthySince: Date | null;
};

/**
 * One domain's decision. An active domain over a threshold is paused; one that
 * reaches the warning level from `ok` raises one warning (not one per tick). A
 * paused domain under its thresholds (and, when the account-wide guard paused it,
 * the account too) starts its cooling-off; once that lasted `autoResumeAfterMs`
 * (0: never), a pause by the guard ends by itself. A manual pause waits for a person.
 */
export function decideDomain(
  state: DomainState,
  figures: HealthFigures,
  settings: HealthSettings,
  ctx: { now: Date; autoResumeAfterMs: number; accountOver: boolean },
): DomainDecision {
  const { band, cause } = bandOf(state.healthLevel, figures, settings);
  if (state.status === 'active') {
    if (band === 'over') return { action: 'pause', cause, level: 'over', healthySince: null };
    if (band === 'approaching' && state.healthLevel === 'ok') {
      return { action: 'approach', cause, level: band, healthySince: null };
    }
    return { action: 'none', cause, level: band, healthySince: null };
  }
  const healthy = band !== 'over' && !(state.pauseKind === 'account' && ctx.accountOver);
  if (!healthy) return { action: 'none', cause, level: band, healthySince: null };
  const since = state.healthySince ?? ctx.now;
  const byGuard = state.pauseKind !== null && state.pauseKind !== 'manual';
  if (byGuard && ctx.autoResumeAfterMs > 0 && ctx.now.getTime() - since.getTime() >= ctx.autoResumeAfterMs) {
    return { action: 'resume', cause: null, level: 'ok', healthySince: null };
  }
  return { action: 'none', cause, level: band, healthySince: since };
}

/**
 * The completion-rate watch of one domain: below the floor (with enough ended
 * enrollments behind the rate) it is `low`; one alert when it becomes low, none per
 * tick after; it clears once the rate is back at the floor or above. Alerts only:
 * a low completion rate says the copy or the list is off, not that the domain burns.
 */
export function completionJudgementOf(
  f: HealthFigures,
  s: HealthSettings,
  wasLow: boolean,
): { low: boolean; raise: boolean; changed: boolean } {
  const floor = s.completionFloor ?? 0;
  if (floor <= 0) return { low: false, raise: false, changed: wasLow };
  // Too few ended to judge: the domain stays as it was judged last.
  const low = f.ended >= (s.completionMinEnded ?? 50) ? f.completionRate < floor : wasLow;
  return { low, raise: low && !wasLow, changed: low !== wasLow };
}

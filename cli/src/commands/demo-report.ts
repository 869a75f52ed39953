/** The funnel of the demo's sequence, as `GET /v1/stats` gives it. */
export type Funnel = {
  enrolled: number;
  byStatus: Record<string, number>;
  sentByStep: Record<string, number>;
};

const DAY_MS = 86_400_000;

/** Printed once, before the first progress line: what the words in it mean. */
export const LEGEND =
  'active: still in the sequence; replied / bounced: ended by an answer or a bounce; ' +
  'exhausted: got every step without answering (the sequence ran out); paused: waiting (out of office, domain paused)';

/** One progress line without its time stamp, so two polls can be compared. */
export function progressLine(f: Funnel, steps: number): string {
  const s = (k: string) => f.byStatus[k] ?? 0;
  const sent = Array.from({ length: steps }, (_, i) => f.sentByStep[String(i + 1)] ?? 0).join('/');
  return `sent per step ${sent}  active ${s('active')}  replied ${s('replied')}  bounced ${s('bounced')}  exhausted ${s('exhausted')}  paused ${s('paused')}`;
}

/** Whether no enrollment is still running (a paused one waits on something the demo does not end). */
export function finished(f: Funnel): boolean {
  return (f.byStatus.active ?? 0) + (f.byStatus.queued ?? 0) === 0;
}

const pct = (n: number, d: number) => (d === 0 ? '0%' : `${((100 * n) / d).toFixed(1)}%`);

/**
 * The closing lines: reply rate (of the prospects), bounce rate (of the e-mails sent,
 * as the domain guard counts it) and how long the campaign took, in simulated days
 * and in real seconds.
 */
export function summaryLines(
  f: Funnel,
  opts: { elapsedMs: number; timeScale: number; steps: number },
): string[] {
  const s = (k: string) => f.byStatus[k] ?? 0;
  const sent = Object.values(f.sentByStep).reduce((a, b) => a + b, 0);
  const days = (opts.elapsedMs * opts.timeScale) / DAY_MS;
  return [
    `campaign finished in ${days.toFixed(1)} simulated days (${(opts.elapsedMs / 1000).toFixed(0)} s at TIME_SCALE=${opts.timeScale}): no enrollment is running any more.`,
    `  prospects ${f.enrolled}, e-mails sent ${sent} over ${opts.steps} steps`,
    `  reply rate   ${pct(s('replied'), f.enrolled)} (${s('replied')} of ${f.enrolled} prospects)`,
    `  bounce rate  ${pct(s('bounced'), sent)} (${s('bounced')} hard bounces in ${sent} e-mails)`,
    `  exhausted    ${pct(s('exhausted'), f.enrolled)} (${s('exhausted')} got every step without answering)`,
  ];
}

import { bandOf, figuresOf, type HealthBand } from '@touchbase/core';
import { type DelayFigures, delayOf, round } from './delay-figures.js';
import {
  hasLinkedIn,
  type LinkedInCounts,
  type LinkedInReport,
  linkedInDays,
  linkedInReport,
} from './linkedin-report.js';
import { type CampaignRun, ENROLLMENT_STATUS } from './run-campaign.js';
import type { SimulationSettings } from './simulation.schemas.js';

export type { DelayFigures } from './delay-figures.js';

const DAY = 86_400_000;

/** Sends of one UTC day. */
export type DayRow = {
  date: string;
  total: number;
  byMailbox: Record<string, number>;
  byChannel: Record<string, number>;
  /** LinkedIn actions per kind (invitations, messages, profile visits), when the sequence has any. */
  byLinkedInAction?: LinkedInCounts;
};

/** One node's projected funnel (as `/v1/stats` `byNode` counts it: reached, done, failed, replied after it). */
export type FunnelRow = {
  node: string;
  action: string;
  channel: string;
  /** Enrollments whose touch at this node was made (done or failed). */
  reached: number;
  sent: number;
  /** LinkedIn actions that failed for good here (the walk went on by the failure edge). */
  failed: number;
  replied: number;
  bounced: number;
  outOfOffice: number;
  opened: number;
  clicked: number;
  accepted: number;
  /** Events after this node's touch that took one of its edges (opened, clicked, accepted). */
  edgesTaken: number;
  /** Enrollments whose touch at this node had not gone out by the horizon. */
  notYetSent: number;
};

/** One sending domain under the bounce guard. */
export type DomainRow = {
  domain: string;
  sends: number;
  bounces: number;
  bounceRate: number;
  /** The UTC day the guard would first warn (its warning level), null if never. */
  warnsOn: string | null;
  /** The UTC day the rolling bounce rate would pass the threshold (the guard pauses the domain), null if never. */
  crossesOn: string | null;
  crossesOnDay: number | null;
};

/** A run reduced to figures (the base run, or a what-if). */
export type RunSummary = {
  sends: number;
  /** When the last touch goes out (ISO), null when none did. */
  lastTouchAt: string | null;
  /** Days from the start to the last touch, one decimal. */
  lastTouchDay: number | null;
  /** Every enrollment ended within the horizon. */
  finished: boolean;
  /** Enrollments still waiting for a touch at the horizon. */
  unfinished: number;
};

/** The answer of a dry run. */
export type SimulationReport = {
  input: {
    seed: number;
    start: string;
    horizonDays: number;
    prospects: number;
    steps: number;
    mailboxes: { id: string; domain: string; perDay: number; perHour: number; perMinute: number }[];
    assignment: string;
  };
  summary: RunSummary & {
    enrolled: number;
    replied: number;
    bounced: number;
    exhausted: number;
  };
  days: DayRow[];
  /** The sum of the mailboxes' daily caps (the caps line of the picture). */
  dailyCap: number;
  /** Sends over the daily caps of the days that had any send: how much of the caps the run used. */
  capUse: number;
  mailboxes: { id: string; sends: number; busiestDay: number; perDay: number }[];
  /** Delays by cause; `byCaps` is the mailboxes' caps (e-mails), a LinkedIn account's are under `linkedin`. */
  delays: { touches: number; byWindow: DelayFigures; byCaps: DelayFigures };
  /** The LinkedIn accounts under their caps, when the sequence has LinkedIn actions. */
  linkedin?: LinkedInReport;
  funnel: FunnelRow[];
  domains: DomainRow[];
  binding: {
    constraint: 'caps' | 'linkedin_caps' | 'windows' | 'waits' | 'bounce_guard';
    message: string;
    whatIf: {
      extraMailboxes: number;
      lastTouchAt: string | null;
      finished: boolean;
      daysSooner: number | null;
    }[];
    /** Re-runs with more LinkedIn accounts (when the sequence has LinkedIn actions and their caps bind). */
    linkedinWhatIf?: {
      extraAccounts: number;
      lastTouchAt: string | null;
      finished: boolean;
      daysSooner: number | null;
    }[];
  };
};

/** Re-runs' summaries: with more mailboxes, and with more LinkedIn accounts. */
export type WhatIfRuns = {
  mailboxes: { extraMailboxes: number; run: RunSummary }[];
  linkedin: { extraAccounts: number; run: RunSummary }[];
};

/** Reduces a run to its summary figures. */
export function summarizeRun(run: CampaignRun): RunSummary {
  const at = run.sends.at;
  let last = Number.NEGATIVE_INFINITY;
  for (const t of at) if (t > last) last = t;
  let unfinished = 0;
  for (const s of run.status) if (s === 0) unfinished++;
  return {
    sends: at.length,
    lastTouchAt: at.length > 0 ? new Date(last).toISOString() : null,
    lastTouchDay: at.length > 0 ? round((last - run.start) / DAY, 1) : null,
    finished: unfinished === 0,
    unfinished,
  };
}

/** Builds the report of the base run; `whatIf` are summaries of re-runs with more mailboxes. */
export function buildReport(
  settings: SimulationSettings,
  run: CampaignRun,
  whatIfs: WhatIfRuns,
): SimulationReport {
  const summary = summarizeRun(run);
  const statusCount = (name: (typeof ENROLLMENT_STATUS)[number]) => {
    const code = ENROLLMENT_STATUS.indexOf(name);
    let c = 0;
    for (const s of run.status) if (s === code) c++;
    return c;
  };
  const days = dayRows(run);
  const delays = delayFigures(run);
  const linkedin = hasLinkedIn(run) ? linkedInReport(run) : undefined;
  const domains = domainRows(settings, run);
  const dailyCap = run.mailboxes.reduce((s, m) => s + m.perDay, 0);
  const sendingDays = days.filter((d) => d.total > 0).length;
  const capUse = sendingDays > 0 ? round(summary.sends / (dailyCap * sendingDays), 4) : 0;
  return {
    input: {
      seed: settings.seed,
      start: new Date(run.start).toISOString(),
      horizonDays: settings.horizonDays,
      prospects: run.status.length,
      steps: actionNodes(run).length,
      mailboxes: run.mailboxes.map((m) => ({
        id: m.id,
        domain: m.domain ?? m.id.split('@')[1] ?? m.id,
        perDay: m.perDay,
        perHour: m.perHour,
        perMinute: m.perMinute,
      })),
      assignment: settings.assignment,
    },
    summary: {
      ...summary,
      enrolled: run.status.length,
      replied: statusCount('replied'),
      bounced: statusCount('bounced'),
      exhausted: statusCount('exhausted'),
    },
    days,
    dailyCap,
    capUse,
    mailboxes: run.mailboxes.map((m) => {
      const perDay = days.map((d) => d.byMailbox[m.id] ?? 0);
      return {
        id: m.id,
        sends: perDay.reduce((s, n) => s + n, 0),
        busiestDay: Math.max(0, ...perDay),
        perDay: m.perDay,
      };
    }),
    delays,
    ...(linkedin ? { linkedin } : {}),
    funnel: funnelRows(run),
    domains,
    binding: bindingOf(settings, summary, delays, domains, whatIfs, capUse, linkedin),
  };
}

function dayRows(run: CampaignRun): DayRow[] {
  const { at, mailbox, node } = run.sends;
  if (at.length === 0) return [];
  const firstDay = Math.floor(run.start / DAY);
  let lastDay = firstDay;
  for (const t of at) lastDay = Math.max(lastDay, Math.floor(t / DAY));
  const rows: DayRow[] = [];
  for (let d = firstDay; d <= lastDay; d++) {
    const byMailbox: Record<string, number> = {};
    for (const m of run.mailboxes) byMailbox[m.id] = 0;
    const byChannel: Record<string, number> = {};
    for (const n of actionNodes(run)) byChannel[n.channel] = 0;
    rows.push({ date: new Date(d * DAY).toISOString().slice(0, 10), total: 0, byMailbox, byChannel });
  }
  for (let i = 0; i < at.length; i++) {
    const row = rows[Math.floor(at[i]! / DAY) - firstDay]!;
    const channel = run.nodes[node[i]!]!.channel;
    row.total++;
    // A LinkedIn action or a manual task counts under its channel, not a mailbox.
    const m = mailbox[i]!;
    if (m >= 0) {
      const id = run.mailboxes[m]!.id;
      row.byMailbox[id] = (row.byMailbox[id] ?? 0) + 1;
    }
    row.byChannel[channel] = (row.byChannel[channel] ?? 0) + 1;
  }
  if (hasLinkedIn(run)) {
    const perDay = linkedInDays(run, rows.length);
    rows.forEach((row, d) => {
      row.byLinkedInAction = perDay[d]!;
    });
  }
  return rows;
}

function delayFigures(run: CampaignRun): SimulationReport['delays'] {
  const touches = run.sends.at.length;
  // A mailbox's caps delay e-mails only; a LinkedIn account's are reported under `linkedin`.
  const { capDelay, mailbox } = run.sends;
  const byMailboxCaps = capDelay.map((v, i) => (mailbox[i]! >= 0 ? v : 0));
  return {
    touches,
    byWindow: delayOf(run.sends.windowDelay, touches),
    byCaps: delayOf(byMailboxCaps, touches),
  };
}

/** The nodes that make a touch (not the ends). */
function actionNodes(run: CampaignRun) {
  return run.nodes.filter((n) => n.channel !== 'end');
}

function funnelRows(run: CampaignRun): FunnelRow[] {
  const rows: (FunnelRow | null)[] = run.nodes.map((n, i) =>
    n.channel === 'end'
      ? null
      : {
          node: n.id,
          action: n.action,
          channel: n.channel,
          reached: 0,
          sent: 0,
          failed: 0,
          replied: 0,
          bounced: 0,
          outOfOffice: 0,
          opened: run.events.opened[i] ?? 0,
          clicked: run.events.clicked[i] ?? 0,
          accepted: run.events.accepted[i] ?? 0,
          edgesTaken: run.events.edgesTaken[i] ?? 0,
          notYetSent: 0,
        },
  );
  const { node, outcome } = run.sends;
  for (let i = 0; i < node.length; i++) {
    const row = rows[node[i]!]!;
    row.reached++;
    const o = outcome[i];
    if (o === 'failed') row.failed++;
    else row.sent++;
    if (o === 'replied') row.replied++;
    else if (o === 'bounced') row.bounced++;
    else if (o === 'out_of_office') row.outOfOffice++;
  }
  run.status.forEach((s, e) => {
    const row = rows[run.node[e]!];
    if (s === 0 && row) row.notYetSent++;
  });
  return rows.filter((r): r is FunnelRow => r !== null);
}

/**
 * Each domain under the guard's rule (core's `figuresOf` and `bandOf`), checked
 * once a UTC day over the rolling window of `windowDays` days, today included:
 * the first day it would warn and the first day it would pause.
 */
function domainRows(settings: SimulationSettings, run: CampaignRun): DomainRow[] {
  const guard = settings.domainGuard;
  const startDay = Math.floor(run.start / DAY);
  const rows: DomainRow[] = [];
  const names = [...run.domainDays.keys()].sort();
  for (const domain of names) {
    const { sends, bounces } = run.domainDays.get(domain)!;
    const total = (list: number[]) => list.reduce((s, n) => s + n, 0);
    let previous: HealthBand = 'ok';
    let warnsOn: number | null = null;
    let crossesOn: number | null = null;
    const lastDay = Math.max(sends.length, bounces.length);
    for (let d = 0; d < lastDay && crossesOn === null; d++) {
      let s = 0;
      let b = 0;
      for (let k = Math.max(0, d - guard.windowDays + 1); k <= d; k++) {
        s += sends[k] ?? 0;
        b += bounces[k] ?? 0;
      }
      const figures = figuresOf(
        { sends: s, bounces: b, complaints: 0, replies: 0, ended: 0, completed: 0 },
        guard.windowDays,
      );
      const { band } = bandOf(previous, figures, {
        bounceThreshold: guard.bounceThreshold,
        bounceWarnRatio: guard.bounceWarnRatio,
        minSends: guard.minSends,
        // Complaints are not simulated: their thresholds never trigger.
        complaintAlert: 1,
        complaintPause: 1,
        complaintMinSends: Number.MAX_SAFE_INTEGER,
        windowDays: guard.windowDays,
      });
      if (band !== 'ok' && warnsOn === null) warnsOn = d;
      if (band === 'over') crossesOn = d;
      previous = band;
    }
    const s = total(sends);
    const b = total(bounces);
    const iso = (d: number | null) =>
      d === null ? null : new Date((startDay + d) * DAY).toISOString().slice(0, 10);
    rows.push({
      domain,
      sends: s,
      bounces: b,
      bounceRate: s > 0 ? round(b / s, 4) : 0,
      warnsOn: iso(warnsOn),
      crossesOn: iso(crossesOn),
      crossesOnDay: crossesOn,
    });
  }
  return rows;
}

// A cause binds when it delays at least this share of touches by at least this much
// on average: a minute's wait for the per-minute cap on 10% of touches binds nothing.
const BINDING_SHARE = 0.05;
const BINDING_MEAN_HOURS = 1;
/** Whether a cause binds: it delays enough touches by enough. */
export const binds = (d: DelayFigures): boolean =>
  d.share >= BINDING_SHARE && d.meanHours >= BINDING_MEAN_HOURS;

type WhatIfRow = { lastTouchAt: string | null; finished: boolean; daysSooner: number | null };

/** A re-run against the base: when its last touch goes out and how many UTC days sooner. */
function compared(base: RunSummary, run: RunSummary): WhatIfRow {
  const lastMs = (s: RunSummary) => (s.lastTouchAt ? Date.parse(s.lastTouchAt) : null);
  const a = lastMs(base);
  const b = lastMs(run);
  // Days sooner counts UTC calendar days between the two last touches.
  const daysSooner =
    a !== null && b !== null && base.finished && run.finished
      ? Math.floor(a / DAY) - Math.floor(b / DAY)
      : null;
  return { lastTouchAt: run.lastTouchAt, finished: run.finished, daysSooner };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function bindingOf(
  settings: SimulationSettings,
  base: RunSummary,
  delays: SimulationReport['delays'],
  domains: DomainRow[],
  whatIfs: WhatIfRuns,
  capUse: number,
  linkedin: LinkedInReport | undefined,
): SimulationReport['binding'] {
  const whatIf = whatIfs.mailboxes.map(({ extraMailboxes, run }) => ({
    extraMailboxes,
    ...compared(base, run),
  }));
  const linkedinWhatIf = whatIfs.linkedin.map(({ extraAccounts, run }) => ({
    extraAccounts,
    ...compared(base, run),
  }));
  const rows = linkedin ? { whatIf, linkedinWhatIf } : { whatIf };
  const guardNote = guardSentence(domains);
  const mailboxCaps = binds(delays.byCaps);
  const linkedinCaps = linkedin !== undefined && binds(linkedin.byCaps);
  // Both bind: the one that holds touches back longer in all leads, the other is named after it.
  const weight = (d: DelayFigures) => d.count * d.meanHours;
  if (linkedin && linkedinCaps && (!mailboxCaps || weight(linkedin.byCaps) >= weight(delays.byCaps))) {
    const li = linkedin.byCaps;
    const best = bestWhatIf(base, linkedinWhatIf);
    const waits = `${pct(li.share)} of LinkedIn actions wait for an account's cap, ${li.meanHours} h on average`;
    const head = !best
      ? `LinkedIn account caps bind: ${waits}, but up to ${plural(Math.max(0, ...linkedinWhatIf.map((w) => w.extraAccounts)), 'more account', 'more accounts')} would not finish sooner`
      : best.daysSooner !== null
        ? `LinkedIn account caps bind: ${plural(best.extraAccounts, 'more LinkedIn account', 'more LinkedIn accounts')} would finish ${plural(best.daysSooner, 'day', 'days')} sooner (${waits})`
        : `LinkedIn account caps bind: ${plural(best.extraAccounts, 'more LinkedIn account', 'more LinkedIn accounts')} would finish within the ${settings.horizonDays} days (${waits})`;
    const too = mailboxCaps
      ? `; mailbox caps bind too: ${pct(delays.byCaps.share)} of touches wait for a mailbox's cap`
      : '';
    return { constraint: 'linkedin_caps', message: `${head}${too}${guardNote}`, ...rows };
  }
  const linkedinToo = linkedinCaps
    ? `; LinkedIn account caps bind too: ${pct(linkedin!.byCaps.share)} of LinkedIn actions wait for an account's cap`
    : '';
  const best = bestWhatIf(base, whatIf);
  if (mailboxCaps && best) {
    const tail =
      best.daysSooner !== null
        ? `${best.extraMailboxes} more mailbox${best.extraMailboxes === 1 ? '' : 'es'} would finish ${best.daysSooner} day${best.daysSooner === 1 ? '' : 's'} sooner`
        : `${best.extraMailboxes} more mailbox${best.extraMailboxes === 1 ? '' : 'es'} would finish within the ${settings.horizonDays} days`;
    return {
      constraint: 'caps',
      message: `mailbox caps bind: ${tail} (${pct(delays.byCaps.share)} of touches wait for a cap, ${delays.byCaps.meanHours} h on average)${linkedinToo}${guardNote}`,
      ...rows,
    };
  }
  if (mailboxCaps) {
    return {
      constraint: 'caps',
      message: `mailbox caps bind: ${pct(delays.byCaps.share)} of touches wait for a cap (${delays.byCaps.meanHours} h on average), but up to ${Math.max(0, ...whatIf.map((w) => w.extraMailboxes))} more mailboxes would not finish sooner${underUsed(capUse)}${linkedinToo}${guardNote}`,
      ...rows,
    };
  }
  if (binds(delays.byWindow)) {
    return {
      constraint: 'windows',
      message: `sending windows bind: ${pct(delays.byWindow.share)} of touches wait for the window, ${delays.byWindow.meanHours} h on average; more mailboxes would not finish sooner${guardNote}`,
      ...rows,
    };
  }
  return {
    constraint: domains.some((d) => d.crossesOn) ? 'bounce_guard' : 'waits',
    message: `the sequence's waits bind: caps and windows delay few touches${guardNote}`,
    ...rows,
  };
}

/** The what-if that saves the most days (fewest extra on a tie); null when none saves any. */
function bestWhatIf<W extends WhatIfRow>(base: RunSummary, whatIf: readonly W[]): W | null {
  let best: W | null = null;
  for (const w of whatIf) {
    const gain = w.daysSooner ?? (!base.finished && w.finished ? Number.POSITIVE_INFINITY : 0);
    const bestGain = best ? (best.daysSooner ?? Number.POSITIVE_INFINITY) : 0;
    if (gain > bestGain) best = w;
  }
  return best;
}

// Below this use of the caps on sending days, waiting for a cap is not the caps being full.
const UNDER_USED = 0.6;

function underUsed(capUse: number): string {
  if (capUse >= UNDER_USED) return '';
  return `; yet sending days use only ${pct(capUse)} of the daily caps: the hourly or per-minute caps over the hours the windows are open allow less`;
}

function guardSentence(domains: DomainRow[]): string {
  const crossing = domains.filter((d) => d.crossesOn !== null);
  if (crossing.length === 0) return '';
  const first = crossing.sort(
    (a, b) => a.crossesOnDay! - b.crossesOnDay! || (a.domain < b.domain ? -1 : 1),
  )[0]!;
  return `; the bounce guard would pause ${first.domain} on ${first.crossesOn} (day ${first.crossesOnDay}) at these odds`;
}

function pct(share: number): string {
  return `${round(share * 100, 1)}%`;
}

import { bindingOf } from './binding-constraint.js';
import { delayOf, round } from './delay-figures.js';
import { domainRows } from './domain-guard-rows.js';
import { hasLinkedIn, linkedInDays, linkedInReport } from './linkedin-report.js';
import type { Refusals } from './prospects.js';
import { type CampaignRun, ENROLLMENT_STATUS } from './run-campaign.js';
import type { SimulationSettings } from './simulation.schemas.js';
import type {
  DayRow,
  FunnelRow,
  RunSummary,
  SimulationReport,
  WhatIfRuns,
} from './simulation-report.types.js';

export type { DelayFigures } from './delay-figures.js';
export type * from './simulation-report.types.js';

const DAY = 86_400_000;

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
  refused: Refusals = { alreadyEnrolled: 0, inOtherSequence: 0, suppressed: 0, coolingOff: 0 },
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
      refused,
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
      row.byLinkedInAccount = Object.fromEntries(run.linkedinAccounts.map((a) => [a.id, 0]));
    });
    const { account } = run.sends;
    for (let i = 0; i < at.length; i++) {
      const a = account[i]!;
      if (a < 0) continue;
      const row = rows[Math.floor(at[i]! / DAY) - firstDay]!.byLinkedInAccount!;
      const id = run.linkedinAccounts[a]!.id;
      row[id] = (row[id] ?? 0) + 1;
    }
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
    byContactPolicy: { ...delayOf(run.sends.policyDelay, touches), holds: run.policyHolds },
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

import { plural } from './binding-constraint.js';
import { LINKEDIN_ACTION_NAME, LINKEDIN_ACTIONS } from './simulated-linkedin.js';
import type { SimulationReport } from './simulation-report.js';

const BAR = 40;

/**
 * The report as a terminal summary: what was simulated, when the last touch goes
 * out, the funnel per node, delays, the bounce guard, sends per day as bars
 * against the caps, and the binding constraint in words.
 */
export function renderSummary(report: SimulationReport): string {
  const { input, summary } = report;
  const lines: string[] = [];
  const pool = input.mailboxes.length > 1 ? ` (${input.assignment})` : '';
  lines.push(
    `Simulated ${plural(input.prospects, 'prospect', 'prospects')}, ${plural(input.steps, 'step', 'steps')}, ${plural(input.mailboxes.length, 'mailbox', 'mailboxes')}${pool}, seed ${input.seed}, from ${stamp(input.start)}, ${input.horizonDays}-day horizon.`,
  );
  lines.push(
    summary.lastTouchAt
      ? `Last touch: ${stamp(summary.lastTouchAt)} (day ${summary.lastTouchDay}); ${summary.sends} touches.`
      : 'No touch goes out within the horizon.',
  );
  lines.push(`By channel: ${byChannel(report)}.`);
  lines.push(
    summary.finished
      ? `Every enrollment ends within the horizon: ${summary.replied} replied, ${summary.bounced} bounced, ${summary.exhausted} ran through every step.`
      : `${summary.unfinished} enrollments still wait for a touch at the horizon; ${summary.replied} replied, ${summary.bounced} bounced, ${summary.exhausted} ran through every step.`,
  );
  const r = summary.refused;
  if (r.alreadyEnrolled + r.inOtherSequence + r.suppressed + r.coolingOff > 0) {
    lines.push(
      `Refused at enrollment: ${r.suppressed} suppressed, ${r.coolingOff} cooling off, ${r.inOtherSequence} in another sequence, ${r.alreadyEnrolled} already enrolled.`,
    );
  }
  lines.push('');
  // The columns of a graph's events show only when any node had one.
  const engaged = report.funnel.some((f) => f.failed + f.opened + f.clicked + f.accepted + f.edgesTaken > 0);
  lines.push(
    table(
      [
        'node',
        'channel',
        'sent',
        'replied',
        'bounced',
        'out of office',
        ...(engaged ? ['failed', 'opened', 'clicked', 'accepted', 'edges taken'] : []),
        'not yet sent',
      ],
      report.funnel.map((f) => [
        f.node,
        f.channel,
        f.sent,
        f.replied,
        f.bounced,
        f.outOfOffice,
        ...(engaged ? [f.failed, f.opened, f.clicked, f.accepted, f.edgesTaken] : []),
        f.notYetSent,
      ]),
    ),
  );
  lines.push('');
  const w = report.delays.byWindow;
  const c = report.delays.byCaps;
  lines.push(
    `Delayed by sending windows: ${pct(w.share)} of touches, ${w.meanHours} h on average (p90 ${w.p90Hours} h, max ${w.maxHours} h).`,
  );
  lines.push(
    `Delayed by mailbox caps:    ${pct(c.share)} of touches, ${c.meanHours} h on average (p90 ${c.p90Hours} h, max ${c.maxHours} h).`,
  );
  const p = report.delays.byContactPolicy;
  if (p.count > 0) {
    lines.push(
      `Delayed by contact policy:  ${pct(p.share)} of touches, ${p.meanHours} h on average (p90 ${p.p90Hours} h, max ${p.maxHours} h; holds: ${p.holds.cooldown} cooldown, ${p.holds.new_people_cap} new people a day, ${p.holds.recipient_domain_cap} recipient-domain cap).`,
    );
  }
  if (report.linkedin) {
    const l = report.linkedin.byCaps;
    lines.push(
      `Delayed by LinkedIn caps:   ${pct(l.share)} of LinkedIn actions, ${l.meanHours} h on average (p90 ${l.p90Hours} h, max ${l.maxHours} h).`,
    );
    for (const a of report.linkedin.accounts) {
      lines.push(
        `LinkedIn ${a.id}: ${a.sends.invitation} invitations (caps ${a.invitationsPerDay}/day, ${a.invitationsPerWeek}/week; busiest day ${a.busiestDay.invitation}), ${a.sends.message} messages (${a.messagesPerDay}/day; busiest ${a.busiestDay.message}), ${a.sends.profile_visit} profile visits (${a.profileVisitsPerDay}/day; busiest ${a.busiestDay.profile_visit}).`,
      );
    }
  }
  for (const d of report.domains) {
    const guard = d.crossesOn
      ? `the 3% guard would pause it on ${d.crossesOn} (day ${d.crossesOnDay})`
      : d.warnsOn
        ? `the guard would warn on ${d.warnsOn}, never pause`
        : 'under the guard throughout';
    lines.push(
      `Domain ${d.domain}: ${d.sends} sends, ${d.bounces} bounces (${pct(d.bounceRate)}); ${guard}.`,
    );
  }
  lines.push('');
  lines.push(
    `Sends per day (UTC), all mailboxes; caps ${report.dailyCap}/day, ${pct(report.capUse)} of them used on sending days:`,
  );
  for (const day of report.days)
    lines.push(
      bar(
        day.date,
        Object.values(day.byMailbox).reduce((a, b) => a + b, 0),
        report.dailyCap,
      ),
    );
  if (report.linkedin) {
    // Against the caps of every action the sequence takes, summed: the most a day could hold.
    const caps = report.linkedin.capLines.reduce((n, l) => n + l.value * l.actions.length, 0);
    const named = report.linkedin.capLines
      .map((l) => `${l.actions.map((a) => LINKEDIN_ACTION_NAME[a]).join(', ')} ${l.value}/day`)
      .join('; ');
    lines.push('');
    lines.push(`LinkedIn actions per day (UTC), all accounts; caps ${named}:`);
    for (const day of report.days)
      lines.push(
        bar(
          day.date,
          Object.values(day.byLinkedInAccount ?? {}).reduce((a, b) => a + b, 0),
          caps,
        ),
      );
  }
  lines.push('');
  lines.push(`Binding constraint: ${report.binding.message}.`);
  for (const wi of report.binding.whatIf) {
    const when = wi.lastTouchAt ? `last touch ${stamp(wi.lastTouchAt)}` : 'no touch';
    const sooner =
      wi.daysSooner === null
        ? wi.finished
          ? ''
          : ', not finished in the horizon'
        : `, ${wi.daysSooner} days sooner`;
    lines.push(
      `  with ${wi.extraMailboxes} more mailbox${wi.extraMailboxes === 1 ? '' : 'es'}: ${when}${sooner}`,
    );
  }
  for (const wi of report.binding.linkedinWhatIf ?? []) {
    const when = wi.lastTouchAt ? `last touch ${stamp(wi.lastTouchAt)}` : 'no touch';
    const sooner =
      wi.daysSooner === null
        ? wi.finished
          ? ''
          : ', not finished in the horizon'
        : `, ${wi.daysSooner} days sooner`;
    lines.push(
      `  with ${wi.extraAccounts} more LinkedIn account${wi.extraAccounts === 1 ? '' : 's'}: ${when}${sooner}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** One day's line: its count, and a bar against `cap` (`+` past it). */
function bar(date: string, count: number, cap: number): string {
  const n = Math.round((count / Math.max(cap, 1)) * BAR);
  return `  ${date} ${weekday(date)} ${String(count).padStart(6)} ${'#'.repeat(Math.min(n, BAR))}${n > BAR ? '+' : ''}`.trimEnd();
}

/** The touches per channel in words: e-mails, LinkedIn actions per kind, manual tasks. */
function byChannel(report: SimulationReport): string {
  const sum = (pick: (d: SimulationReport['days'][number]) => number) =>
    report.days.reduce((n, d) => n + pick(d), 0);
  const parts = [`${sum((d) => d.byChannel.email ?? 0)} e-mails`];
  if (report.linkedin) {
    const kinds = LINKEDIN_ACTIONS.map(
      (a) => `${sum((d) => d.byLinkedInAction?.[a] ?? 0)} ${LINKEDIN_ACTION_NAME[a]}s`,
    );
    parts.push(`${sum((d) => d.byChannel.linkedin ?? 0)} LinkedIn actions (${kinds.join(', ')})`);
  }
  if (report.funnel.some((f) => f.channel === 'manual'))
    parts.push(`${sum((d) => d.byChannel.manual ?? 0)} manual tasks`);
  return parts.join(', ');
}

function table(head: string[], rows: (string | number)[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells: (string | number)[]) =>
    cells
      .map((cell, i) =>
        typeof cell === 'number' ? String(cell).padStart(widths[i]!) : String(cell).padEnd(widths[i]!),
      )
      .join('  ');
  return [line(head), ...rows.map(line)].map((l) => `  ${l.trimEnd()}`).join('\n');
}

function stamp(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

function weekday(date: string): string {
  return ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][new Date(`${date}T00:00:00Z`).getUTCDay()]!;
}

function pct(share: number): string {
  return `${Math.round(share * 1000) / 10}%`;
}

import type { ContactHoldReason } from '@touchbase/core';
import { type DelayFigures, round } from './delay-figures.js';
import type { LinkedInReport } from './linkedin-report.js';
import { LINKEDIN_ACTION_NAME, LINKEDIN_ACTIONS } from './simulated-linkedin.js';
import type { SimulationSettings } from './simulation.schemas.js';
import type { DomainRow, RunSummary, SimulationReport, WhatIfRuns } from './simulation-report.types.js';

const DAY = 86_400_000;

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

/** `n` with the word for one or many ("1 step", "2 steps"). */
export const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The binding constraint in words, from the delays by cause and the re-runs with more mailboxes or accounts. */
export function bindingOf(
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
    const caps = `LinkedIn ${bindingActions(linkedin)} caps bind`;
    const head = !best
      ? `${caps}: ${waits}, but up to ${plural(Math.max(0, ...linkedinWhatIf.map((w) => w.extraAccounts)), 'more account', 'more accounts')} would not finish sooner`
      : best.daysSooner !== null
        ? `${caps}: ${plural(best.extraAccounts, 'more LinkedIn account', 'more LinkedIn accounts')} would finish ${plural(best.daysSooner, 'day', 'days')} sooner (${waits})`
        : `${caps}: ${plural(best.extraAccounts, 'more LinkedIn account', 'more LinkedIn accounts')} would finish within the ${settings.horizonDays} days (${waits})`;
    const too = mailboxCaps
      ? `; mailbox caps bind too: ${pct(delays.byCaps.share)} of touches wait for a mailbox's cap`
      : '';
    return { constraint: 'linkedin_caps', message: `${head}${too}${guardNote}`, ...rows };
  }
  const linkedinToo = linkedinCaps
    ? `; LinkedIn ${bindingActions(linkedin!)} caps bind too: ${pct(linkedin!.byCaps.share)} of LinkedIn actions wait for an account's cap`
    : '';
  const best = bestWhatIf(base, whatIf);
  const policy = delays.byContactPolicy;
  if (binds(policy) && (!mailboxCaps || weight(policy) >= weight(delays.byCaps))) {
    const too = mailboxCaps
      ? `; mailbox caps bind too: ${pct(delays.byCaps.share)} of touches wait for a cap`
      : '';
    return {
      constraint: 'contact_policy',
      message: `contact policies bind (${policyWords(policy.holds)}): ${pct(policy.share)} of touches are held by a contact policy, ${policy.meanHours} h on average; more mailboxes would not lift them${too}${linkedinToo}${guardNote}`,
      ...rows,
    };
  }
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

const POLICY_NAME: Record<ContactHoldReason, string> = {
  cooldown: 'the cooldown',
  new_people_cap: 'new people a day',
  recipient_domain_cap: 'the recipient-domain cap',
};

/** The contact policies that held touches, most holds first ("the recipient-domain cap, then new people a day"). */
function policyWords(holds: Record<ContactHoldReason, number>): string {
  const named = (Object.keys(POLICY_NAME) as ContactHoldReason[])
    .filter((r) => holds[r] > 0)
    .sort((a, b) => holds[b] - holds[a]);
  return named.map((r) => POLICY_NAME[r]).join(', then ');
}

/**
 * The actions whose caps bind, in words ("invitation", "invitation and message"): those
 * whose own delays bind, else the one whose caps hold its actions back longest in all.
 */
function bindingActions(linkedin: LinkedInReport): string {
  const per = LINKEDIN_ACTIONS.map((action) => ({ action, delay: linkedin.byCapsPerAction[action] }));
  let named = per.filter((p) => binds(p.delay));
  if (named.length === 0) {
    const weight = (d: DelayFigures) => d.count * d.meanHours;
    named = [per.reduce((a, b) => (weight(b.delay) > weight(a.delay) ? b : a))];
  }
  const words = named.map((p) => LINKEDIN_ACTION_NAME[p.action]);
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}` : words[0]!;
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

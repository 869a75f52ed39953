import type { LinkedInAction } from '@touchbase/core';
import { type DelayFigures, delayOf } from './delay-figures.js';
import type { CampaignRun } from './run-campaign.js';
import { LINKEDIN_ACTIONS, linkedInActionOf } from './simulated-linkedin.js';
import type { SimulationSettings } from './simulation.schemas.js';

const DAY = 86_400_000;

/** Actions per LinkedIn action kind. */
export type LinkedInCounts = Record<LinkedInAction, number>;

/** One LinkedIn account: its actions over the run, its busiest day per action, and its caps. */
export type LinkedInAccountRow = {
  id: string;
  sends: LinkedInCounts;
  busiestDay: LinkedInCounts;
  invitationsPerDay: number;
  invitationsPerWeek: number;
  messagesPerDay: number;
  profileVisitsPerDay: number;
};

/** The LinkedIn side of a run, reported when the sequence has LinkedIn actions. */
export type LinkedInReport = {
  accounts: LinkedInAccountRow[];
  /** The accounts' daily caps per action, summed (invitations: the lower of a day's and a week's). */
  dailyCaps: LinkedInCounts;
  /**
   * The caps lines of the picture: the summed daily cap of each action the sequence
   * takes, one line per value with every action at it, in the order of {@link LINKEDIN_ACTIONS}.
   */
  capLines: { actions: LinkedInAction[]; value: number }[];
  /** LinkedIn actions delayed by their account's caps; `share` is of the LinkedIn actions. */
  byCaps: DelayFigures;
  /** The same per action; `share` is of that action's. */
  byCapsPerAction: Record<LinkedInAction, DelayFigures>;
};

const zero = (): LinkedInCounts => ({ invitation: 0, message: 0, profile_visit: 0 });

/** Whether the run's sequence has any LinkedIn action (only then is the LinkedIn side reported). */
export function hasLinkedIn(run: CampaignRun): boolean {
  return run.nodes.some((n) => linkedInActionOf(n.action) !== null);
}

/** The LinkedIn actions of a run per UTC day (from the start's day), per action. */
export function linkedInDays(run: CampaignRun, days: number): LinkedInCounts[] {
  const rows = Array.from({ length: days }, zero);
  const firstDay = Math.floor(run.start / DAY);
  const { at, node } = run.sends;
  for (let i = 0; i < at.length; i++) {
    const action = linkedInActionOf(run.nodes[node[i]!]!.action);
    if (action) rows[Math.floor(at[i]! / DAY) - firstDay]![action]++;
  }
  return rows;
}

/** The delays LinkedIn actions had for their account's caps. */
export function linkedInDelay(run: CampaignRun): DelayFigures {
  const values: number[] = [];
  for (let i = 0; i < run.sends.at.length; i++)
    if (run.sends.account[i]! >= 0) values.push(run.sends.capDelay[i]!);
  return delayOf(values, values.length);
}

/** The LinkedIn side of a run: per account, per action, against the caps. */
export function linkedInReport(run: CampaignRun): LinkedInReport {
  const firstDay = Math.floor(run.start / DAY);
  const perAccount = run.linkedinAccounts.map(() => new Map<number, LinkedInCounts>());
  const totals = run.linkedinAccounts.map(zero);
  const { at, node, account } = run.sends;
  for (let i = 0; i < at.length; i++) {
    const a = account[i]!;
    const action = linkedInActionOf(run.nodes[node[i]!]!.action);
    if (a < 0 || !action) continue;
    const day = Math.floor(at[i]! / DAY) - firstDay;
    const counts = perAccount[a]!.get(day) ?? zero();
    counts[action]++;
    perAccount[a]!.set(day, counts);
    totals[a]![action]++;
  }
  const dailyCaps = zero();
  const accounts = run.linkedinAccounts.map((acc, a) => {
    dailyCaps.invitation += Math.min(acc.invitationsPerDay, acc.invitationsPerWeek);
    dailyCaps.message += acc.messagesPerDay;
    dailyCaps.profile_visit += acc.profileVisitsPerDay;
    const busiestDay = zero();
    for (const counts of perAccount[a]!.values())
      for (const k of LINKEDIN_ACTIONS) busiestDay[k] = Math.max(busiestDay[k], counts[k]);
    return {
      id: acc.id,
      sends: totals[a]!,
      busiestDay,
      invitationsPerDay: acc.invitationsPerDay,
      invitationsPerWeek: acc.invitationsPerWeek,
      messagesPerDay: acc.messagesPerDay,
      profileVisitsPerDay: acc.profileVisitsPerDay,
    };
  });
  const taken = new Set(run.nodes.map((n) => linkedInActionOf(n.action)));
  const capLines: LinkedInReport['capLines'] = [];
  for (const action of LINKEDIN_ACTIONS) {
    if (!taken.has(action)) continue;
    const line = capLines.find((l) => l.value === dailyCaps[action]);
    if (line) line.actions.push(action);
    else capLines.push({ actions: [action], value: dailyCaps[action] });
  }
  const perAction = LINKEDIN_ACTIONS.map((): number[] => []);
  for (let i = 0; i < at.length; i++) {
    const action = linkedInActionOf(run.nodes[node[i]!]!.action);
    if (account[i]! >= 0 && action) perAction[LINKEDIN_ACTIONS.indexOf(action)]!.push(run.sends.capDelay[i]!);
  }
  const byCapsPerAction = Object.fromEntries(
    LINKEDIN_ACTIONS.map((action, k) => [action, delayOf(perAction[k]!, perAction[k]!.length)]),
  ) as Record<LinkedInAction, DelayFigures>;
  return { accounts, dailyCaps, capLines, byCaps: linkedInDelay(run), byCapsPerAction };
}

/** More accounts like the last one, named after it (`id+1`, `id+2`, ...), for a what-if. */
export function moreLinkedInAccounts(settings: SimulationSettings, extra: number) {
  const last = settings.linkedinAccounts[settings.linkedinAccounts.length - 1]!;
  return [
    ...settings.linkedinAccounts,
    ...Array.from({ length: extra }, (_, i) => ({ ...last, id: `${last.id}+${i + 1}` })),
  ];
}

import { binds } from './binding-constraint.js';
import { hasLinkedIn, linkedInDelay, moreLinkedInAccounts } from './linkedin-report.js';
import { populationOf } from './prospects.js';
import { runCampaign } from './run-campaign.js';
import { planOf, type SequencePlan } from './sequence-plan.js';
import {
  type SimulationInput,
  SimulationInputSchema,
  type SimulationSettings,
} from './simulation.schemas.js';
import { buildReport, type SimulationReport, summarizeRun } from './simulation-report.js';

/**
 * A dry run of a campaign: parses the input (throws zod's error naming the field),
 * runs it on a virtual clock with the live rules, re-runs it with more mailboxes (and,
 * when LinkedIn accounts' caps bind, more accounts) to name the binding constraint, and reports. Pure and deterministic: the same input
 * (seed included) gives the same report, byte for byte once serialised.
 *
 * @param plan the sequence as a plan; defaults to `input.sequence.graph` walked as the
 *   live system walks it, else the chain of `input.sequence.steps`
 */
export function simulate(input: SimulationInput | SimulationSettings, plan?: SequencePlan): SimulationReport {
  const settings = SimulationInputSchema.parse(input);
  const sequencePlan = plan ?? planOf(settings.sequence);
  const population = populationOf(settings.prospects, settings.sequence);
  const base = runCampaign(settings, settings.mailboxes, sequencePlan, population);
  const last = settings.mailboxes[settings.mailboxes.length - 1]!;
  const whatIfs = [...new Set(settings.whatIf.extraMailboxes)]
    .sort((a, b) => a - b)
    .map((extra) => {
      const more = Array.from({ length: extra }, (_, i) => ({ ...last, id: `${last.id}+${i + 1}` }));
      const run = runCampaign(settings, [...settings.mailboxes, ...more], sequencePlan, population);
      return { extraMailboxes: extra, run: summarizeRun(run) };
    });
  // More LinkedIn accounts are tried only when theirs bind: the re-runs cost as much as the base run.
  const linkedin =
    hasLinkedIn(base) && binds(linkedInDelay(base))
      ? [...new Set(settings.whatIf.extraLinkedInAccounts)]
          .sort((a, b) => a - b)
          .map((extra) => {
            const accounts = moreLinkedInAccounts(settings, extra);
            const run = runCampaign(settings, settings.mailboxes, sequencePlan, population, accounts);
            return { extraAccounts: extra, run: summarizeRun(run) };
          })
      : [];
  return buildReport(settings, base, { mailboxes: whatIfs, linkedin }, population.refused);
}

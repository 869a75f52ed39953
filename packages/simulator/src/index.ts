/**
 * @touchbase/simulator: a dry run of a campaign on a virtual clock, with the rules
 * the live system uses (packages/core's time, windows and caps), without sending
 * anything or touching live state.
 */
export { drawFor } from './draw.js';
export {
  type Admission,
  listOfCsv,
  type Population,
  ProspectListError,
  type ProspectRow,
  populationOf,
  type Refusals,
} from './prospects.js';
export { renderSummary } from './render-summary.js';
export { renderSvg } from './render-svg.js';
export { type CampaignRun, runCampaign } from './run-campaign.js';
export {
  graphPlan,
  linearPlan,
  type PlanChannel,
  type PlanEvent,
  type PlanMove,
  type PlanNode,
  planOf,
  type SequencePlan,
  type TouchOutcome,
} from './sequence-plan.js';
export { simulate } from './simulate.js';
export { type BucketDecision, type BucketLimits, SimulatedBucket } from './simulated-bucket.js';
export * from './simulation.schemas.js';
export * from './simulation-report.js';

import { DomainError } from '../errors/domain-error.js';
import { chainGraph } from './graph-walk.js';
import type { SequenceStep } from './sequence-definition.js';
import type { SequenceGraph } from './sequence-graph.js';

/** What a version stores: the steps it was given as (`[]` for a graph) and its graph. */
export type VersionDefinition = { steps: SequenceStep[]; graph: SequenceGraph };

/**
 * The stored form of a version given as a list of steps or as a graph (exactly
 * one): a list becomes its chain, so every version runs as a graph.
 * @throws DomainError `invalid_sequence` when both or neither are given.
 */
export function versionDefinitionOf(input: {
  steps?: SequenceStep[] | undefined;
  graph?: SequenceGraph | undefined;
}): VersionDefinition {
  // A stored graph version's steps are `[]`: no list given.
  const steps = input.steps?.length ? input.steps : undefined;
  if (steps && input.graph)
    throw new DomainError('invalid_sequence', 'give either steps or graph, not both', { field: 'graph' });
  if (input.graph) return { steps: [], graph: input.graph };
  if (steps) return { steps, graph: chainGraph(steps) };
  throw new DomainError('invalid_sequence', 'a sequence needs steps or a graph', { field: 'steps' });
}

/** Whether a version is a chain given as steps (rendered exactly as before graphs: `renderTouch`). */
export function isStepList(version: { steps: readonly SequenceStep[] }): boolean {
  return version.steps.length > 0;
}

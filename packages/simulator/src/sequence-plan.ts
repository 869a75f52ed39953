import type { SimulatedStep } from './simulation.schemas.js';

/** A node of a sequence: an action on a channel. In a linear sequence, node i is step i + 1. */
export type PlanNode = { id: string; channel: string; index: number };

/** What happened after a touch: it went out quietly, or an answer came back. */
export type TouchOutcome = 'sent' | 'replied' | 'bounced' | 'out_of_office';

/**
 * What an enrollment does next: move to a node after a wait (counted from the
 * touch), wait for an out-of-office return first, or end with a reason.
 */
export type NextAction =
  | { kind: 'touch'; node: PlanNode; wait: string; afterOutOfOffice?: boolean }
  | { kind: 'end'; reason: 'replied' | 'bounced' | 'exhausted'; wait: string };

/**
 * The small interface the simulator runs a sequence through, so a sequence graph
 * (nodes and edges with triggers) plugs in beside today's linear chain: the first
 * node, and the actions after a node given its outcome.
 */
export interface SequencePlan {
  readonly nodes: readonly PlanNode[];
  first(): PlanNode;
  next(node: PlanNode, outcome: TouchOutcome): NextAction[];
}

/**
 * Today's sequences as a plan: a chain of steps. After a quiet touch the next step
 * follows its wait (after the last, the enrollment is exhausted); a reply or a hard
 * bounce ends it; an out-of-office pauses it and the next step goes out on return,
 * as ingest's pause and the scheduler's resume do.
 */
export function linearPlan(steps: readonly SimulatedStep[]): SequencePlan {
  const nodes: PlanNode[] = steps.map((s, i) => ({ id: `step-${i + 1}`, channel: s.channel, index: i }));
  return {
    nodes,
    first: () => nodes[0] as PlanNode,
    next(node, outcome) {
      if (outcome === 'replied') return [{ kind: 'end', reason: 'replied', wait: '0s' }];
      if (outcome === 'bounced') return [{ kind: 'end', reason: 'bounced', wait: '0s' }];
      const wait = steps[node.index]?.wait ?? '0s';
      const after = nodes[node.index + 1];
      if (!after) return [{ kind: 'end', reason: 'exhausted', wait }];
      return [
        {
          kind: 'touch',
          node: after,
          wait,
          ...(outcome === 'out_of_office' ? { afterOutOfOffice: true } : {}),
        },
      ];
    },
  };
}

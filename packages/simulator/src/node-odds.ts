import type { PlanNode, TouchOutcome } from './sequence-plan.js';
import type { SimulationSettings } from './simulation.schemas.js';

/** One node's odds of each outcome and event. */
export type NodeOdds = {
  bounce: number;
  reply: number;
  ooo: number;
  open: number;
  click: number;
  accept: number;
  failure: number;
};

/** The odds of every node, from the settings (one number, a list by node order, or by node id). */
export function oddsTable(settings: SimulationSettings, nodes: readonly PlanNode[]): NodeOdds[] {
  const at = (v: number | number[] | Record<string, number>, node: PlanNode): number => {
    if (typeof v === 'number') return v;
    if (Array.isArray(v)) return v[Math.min(node.index, v.length - 1)] as number;
    return v[node.id] ?? 0;
  };
  const o = settings.odds;
  return nodes.map((node) => ({
    bounce: at(o.bounce, node),
    reply: at(o.reply, node),
    ooo: at(o.outOfOffice, node),
    open: at(o.open, node),
    click: at(o.click, node),
    accept: at(o.accept, node),
    failure: at(o.failure, node),
  }));
}

/**
 * What a touch at `node` came to, for the draw `r` in [0, 1): an e-mail bounces,
 * is replied to or meets an out-of-office by its odds, in that order; a LinkedIn
 * action fails for good, or (a message) is replied to; anything else just goes out.
 */
export function outcomeOf(node: PlanNode, r: number, o: NodeOdds): TouchOutcome {
  if (node.channel === 'email') {
    return r < o.bounce
      ? 'bounced'
      : r < o.bounce + o.reply
        ? 'replied'
        : r < o.bounce + o.reply + o.ooo
          ? 'out_of_office'
          : 'sent';
  }
  if (node.channel === 'linkedin') {
    return r < o.failure
      ? 'failed'
      : node.action === 'linkedin_message' && r < o.failure + o.reply
        ? 'replied'
        : 'sent';
  }
  return 'sent';
}

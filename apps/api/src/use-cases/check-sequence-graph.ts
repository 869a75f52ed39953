import {
  type SequenceGraph,
  type SequenceStep,
  type VersionDefinition,
  validateGraph,
  versionDefinitionOf,
} from '@touchbase/core';
import type { Repositories } from '@touchbase/db';
import { ProblemError } from '@touchbase/runtime';

/** The prospect's own fields a template may name; other names are the prospect's attributes. */
const PROSPECT_FIELDS = new Set(['firstName', 'lastName', 'company', 'email']);

/**
 * Validates a sequence graph where its pool is known: core's rules (reachable,
 * every path ends, every cycle waits, one edge per trigger per node), a sending
 * identity for each node's channel in the pool (without a pool, only e-mail from
 * the enrollment's mailbox), and no near miss of a prospect field in a template.
 * @throws ProblemError 400 `invalid_graph`, one error per issue, its field the
 *   node's or the edge's path (`graph.edges.3.to`) and its message naming both.
 */
export async function checkSequenceGraph(
  deps: { repos: Pick<Repositories, 'mailboxes'> },
  graph: SequenceGraph,
  poolId: string | null,
): Promise<void> {
  const channels = poolId
    ? await deps.repos.mailboxes.poolChannels(poolId)
    : new Set<'email' | 'linkedin'>(['email']);
  const issues = validateGraph(graph, { channels, knownVariables: PROSPECT_FIELDS, attributesAllowed: true });
  if (issues.length === 0) return;
  throw new ProblemError({
    status: 400,
    title: 'Invalid sequence graph',
    code: 'invalid_graph',
    detail: issues.map((i) => i.message).join('; '),
    errors: issues.map((i) => ({
      field: ['graph', ...i.path].join('.'),
      message: `${i.code}: ${i.message}`,
    })),
  });
}

/**
 * The version a request defines, from its `steps` or its `graph`.
 * @throws ProblemError 400 naming `steps` or `graph` when both or neither are given.
 */
export function versionOfBody(body: {
  steps?: SequenceStep[] | undefined;
  graph?: SequenceGraph | undefined;
}): VersionDefinition {
  if (body.steps && body.graph) throw bodyProblem('graph', 'give either steps or graph, not both');
  if (!body.steps && !body.graph) throw bodyProblem('steps', 'a sequence needs steps or a graph');
  return versionDefinitionOf(body);
}

function bodyProblem(field: string, message: string): ProblemError {
  return new ProblemError({
    status: 400,
    title: 'Invalid sequence',
    code: 'validation_failed',
    detail: `${field}: ${message}`,
    errors: [{ field, message }],
  });
}

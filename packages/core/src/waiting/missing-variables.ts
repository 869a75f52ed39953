import { nodeAt } from '../sequence/graph-walk.js';
import type { SequenceStep } from '../sequence/sequence-definition.js';
import type { SequenceGraph } from '../sequence/sequence-graph.js';
import { isStepList, type VersionDefinition } from '../sequence/sequence-version.js';
import { renderEmailNode, renderNodeText, renderTouch } from '../sequence/touch-content.js';

/** The prospect fields a template may name, beside its own attributes. */
export type TemplateProspect = {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  company: string | null;
  attributes: Record<string, string>;
};

/**
 * The variables step `step`'s copy lacks for this prospect, rendered as the sender
 * renders it (same variables, same A/B seed), so the answer names the variant the
 * prospect would get. Empty past the last step (nothing left to render).
 */
export function missingTemplateVariables(
  steps: readonly SequenceStep[],
  step: number,
  prospect: TemplateProspect,
  sequenceId: string,
): string[] {
  if (step < 1 || step > steps.length) return [];
  const content = renderTouch(steps, step, variablesOf(prospect), `${prospect.id}-${sequenceId}`);
  return content.ok ? [] : content.missing;
}

/**
 * The variables an e-mail touch's copy lacks for this prospect, rendered as the
 * sender's `sendTouch` renders it: a chain given as steps by `renderTouch`, a graph's
 * e-mail node by `renderEmailNode`. Its body is always its own (its variant by the
 * same seed); its subject is the first e-mail node's when it replies in a thread
 * (`threaded`: the enrollment has a first message), else its own. Empty when
 * `step` is not an e-mail node (nothing of an e-mail left to render).
 */
export function missingEmailVariables(
  version: VersionDefinition,
  step: number,
  prospect: TemplateProspect,
  sequenceId: string,
  threaded: boolean,
): string[] {
  if (isStepList(version)) return missingTemplateVariables(version.steps, step, prospect, sequenceId);
  if (nodeAt(version.graph, step)?.action !== 'email') return [];
  const seed = `${prospect.id}-${sequenceId}`;
  const content = renderEmailNode(version.graph, step, variablesOf(prospect), seed, threaded);
  return content.ok ? [] : content.missing;
}

/**
 * The variables a graph node's text lacks for this prospect (a LinkedIn note or
 * message, a manual task's instructions), rendered as the sender renders it
 * (`renderNodeText`, its first check at such a node). Empty for a node without text.
 */
export function missingNodeTextVariables(
  graph: SequenceGraph,
  step: number,
  prospect: TemplateProspect,
): string[] {
  const text = renderNodeText(graph, step, variablesOf(prospect));
  return text.ok ? [] : text.missing;
}

/** A prospect's template variables: their attributes and their own fields (the sender's `variablesOf`). */
function variablesOf(prospect: TemplateProspect): Record<string, string | null> {
  return {
    ...prospect.attributes,
    firstName: prospect.firstName,
    lastName: prospect.lastName,
    company: prospect.company,
    email: prospect.email,
  };
}

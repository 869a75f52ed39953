import type { SequenceStep } from '../sequence/sequence-definition.js';
import { renderTouch } from '../sequence/touch-content.js';

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
  const vars = {
    ...prospect.attributes,
    firstName: prospect.firstName,
    lastName: prospect.lastName,
    company: prospect.company,
    email: prospect.email,
  };
  const content = renderTouch(steps, step, vars, `${prospect.id}-${sequenceId}`);
  return content.ok ? [] : content.missing;
}

import { pickVariant, renderTemplate, threadSubject } from '../templates/index.js';
import type { SequenceStep } from './sequence-definition.js';

/** What a touch says, or why it cannot be sent. */
export type TouchContent =
  | { ok: true; subject: string; body: string; variant: number; isFollowUp: boolean }
  | { ok: false; missing: string[] };

/**
 * Renders the copy of step `step` (1-based) for one prospect. Follow-ups reply in
 * the first touch's thread, so their subject is `Re: ` + the first subject as the
 * prospect saw it. A variable the prospect lacks, without fallback, stops the touch:
 * a "Hi {{firstName}}" must never reach anyone.
 */
export function renderTouch(
  steps: readonly SequenceStep[],
  step: number,
  vars: Record<string, string | null | undefined>,
  seed: string,
): TouchContent {
  const current = steps[step - 1];
  const first = steps[0];
  if (!current || !first) throw new RangeError(`step ${step} is outside 1..${steps.length}`);
  const copy = chooseCopy(current, `${seed}-${step}`);
  const body = renderTemplate(copy.body, vars);
  const isFollowUp = step > 1;
  const subject = renderTemplate(isFollowUp ? chooseCopy(first, `${seed}-1`).subject : copy.subject, vars);
  const missing = [...(subject.ok ? [] : subject.missing), ...(body.ok ? [] : body.missing)];
  if (!subject.ok || !body.ok) return { ok: false, missing: [...new Set(missing)] };
  return {
    ok: true,
    subject: isFollowUp ? threadSubject(subject.text) : subject.text,
    body: body.text,
    variant: copy.variant,
    isFollowUp,
  };
}

function chooseCopy(step: SequenceStep, seed: string): { subject: string; body: string; variant: number } {
  const all = [{ subject: step.subject, body: step.body }, ...(step.variants ?? [])];
  const variant = all.length > 1 ? pickVariant(all.length, seed) : 0;
  const chosen = all[variant] ?? all[0]!;
  return { ...chosen, variant };
}

import { pickVariant, renderTemplate, threadSubject } from '../templates/index.js';
import { firstEmailNode, nodeAt } from './graph-walk.js';
import type { SequenceStep } from './sequence-definition.js';
import type { SequenceGraph } from './sequence-graph.js';

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
  return renderCopy(
    { copy: current, seed: `${seed}-${step}` },
    { copy: first, seed: `${seed}-1` },
    step > 1,
    vars,
  );
}

type Copy = Pick<SequenceStep, 'subject' | 'body' | 'variants'>;

/**
 * Renders the copy of one touch (its variant chosen by its seed); a follow-up takes
 * the subject of the first touch (its own variant, by its seed) as a reply in its thread.
 */
function renderCopy(
  touch: { copy: Copy; seed: string },
  first: { copy: Copy; seed: string },
  isFollowUp: boolean,
  vars: Record<string, string | null | undefined>,
): TouchContent {
  const copy = chooseCopy(touch.copy, touch.seed);
  const body = renderTemplate(copy.body, vars);
  const subject = renderTemplate(
    isFollowUp ? chooseCopy(first.copy, first.seed).subject : copy.subject,
    vars,
  );
  if (!subject.ok || !body.ok) {
    const missing = [...(subject.ok ? [] : subject.missing), ...(body.ok ? [] : body.missing)];
    return { ok: false, missing: [...new Set(missing)] };
  }
  return {
    ok: true,
    subject: isFollowUp ? threadSubject(subject.text) : subject.text,
    body: body.text,
    variant: copy.variant,
    isFollowUp,
  };
}

function chooseCopy(step: Copy, seed: string): { subject: string; body: string; variant: number } {
  const all = [{ subject: step.subject, body: step.body }, ...(step.variants ?? [])];
  const variant = all.length > 1 ? pickVariant(all.length, seed) : 0;
  const chosen = all[variant] ?? all[0]!;
  return { ...chosen, variant };
}

/**
 * Renders an e-mail node of a graph version. `threaded`: an e-mail of this
 * enrollment already went out, so this one replies in its thread (`Re: ` + the
 * subject of the graph's first e-mail node as the prospect saw it). A version given
 * as a list of steps is rendered by {@link renderTouch}, exactly as before graphs.
 */
export function renderEmailNode(
  graph: SequenceGraph,
  n: number,
  vars: Record<string, string | null | undefined>,
  seed: string,
  threaded: boolean,
): TouchContent {
  const node = nodeAt(graph, n);
  const f = firstEmailNode(graph);
  const first = nodeAt(graph, f);
  if (node?.action !== 'email' || first?.action !== 'email')
    throw new RangeError(`node ${n} is not an e-mail`);
  return renderCopy(
    { copy: node, seed: `${seed}-${n}` },
    { copy: first, seed: `${seed}-${f}` },
    threaded && n !== f,
    vars,
  );
}

/** What a LinkedIn node says (a note, a message; null for a visit or a connect without note), or the variables it lacks. */
export type LinkedInContent = { ok: true; text: string | null } | { ok: false; missing: string[] };

/** Renders the text of a LinkedIn node (and of a manual task's instructions). */
export function renderNodeText(
  graph: SequenceGraph,
  n: number,
  vars: Record<string, string | null | undefined>,
): LinkedInContent {
  const node = nodeAt(graph, n);
  const template =
    node?.action === 'linkedin_connect'
      ? node.note
      : node?.action === 'linkedin_message'
        ? node.body
        : node?.action === 'manual_task'
          ? node.instructions
          : undefined;
  if (template === undefined) return { ok: true, text: null };
  const r = renderTemplate(template, vars);
  return r.ok ? { ok: true, text: r.text } : { ok: false, missing: r.missing };
}

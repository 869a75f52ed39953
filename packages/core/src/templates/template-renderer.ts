import { TemplateError } from './template.errors.js';
import { parseTemplate } from './template-parser.js';

/** The rendered text, or every variable that had no usable value and no fallback. */
export type RenderResult = { ok: true; text: string } | { ok: false; missing: string[] };

/** Variables of one prospect: firstName, lastName, company, email and custom attributes. */
export type TemplateVariables = Record<string, string | null | undefined>;

/**
 * Renders `{{name}}` and `{{name|fallback}}` tags from a flat record of variables.
 *
 * A value is used trimmed. A value that is missing, null or blank uses the tag's
 * fallback; without one, the render fails and names every such variable, because a
 * "Hi {{firstName}}," or "Hi ," must never reach a prospect. A value containing
 * `{{` counts as unusable too: providers run their own `{{…}}` templating, and
 * prospect data must not inject tags into it. Throws `TemplateError` for a malformed
 * template (validate with `TemplateSchema` when saving it).
 */
export function renderTemplate(template: string, vars: TemplateVariables): RenderResult {
  const parsed = parseTemplate(template);
  if (!parsed.ok) throw new TemplateError(parsed.problem);
  const missing = new Set<string>();
  const inserted = new Map<string, string>();
  let text = '';
  for (const part of parsed.parts) {
    if (part.kind === 'text') {
      text += part.text;
      continue;
    }
    const value = usableValue(vars, part.name);
    if (value !== undefined) {
      text += value;
      inserted.set(part.name, value);
    } else if (part.fallback !== undefined) {
      text += part.fallback;
    } else {
      missing.add(part.name);
    }
  }
  if (missing.size > 0) return { ok: false, missing: [...missing] };
  if (text.includes('{{')) {
    // Only a value ending or starting with "{" next to another "{" can get here
    // ("{{a}}{b" with a = "x{"); blame the values that carry a brace.
    const culprits = [...inserted].filter(([, value]) => value.includes('{')).map(([name]) => name);
    return { ok: false, missing: culprits };
  }
  return { ok: true, text };
}

/** The distinct variable names of a template, in order of first use. Throws `TemplateError` if malformed. */
export function findVariables(template: string): string[] {
  const parsed = parseTemplate(template);
  if (!parsed.ok) throw new TemplateError(parsed.problem);
  const names = parsed.parts.flatMap((part) => (part.kind === 'variable' ? [part.name] : []));
  return [...new Set(names)];
}

function usableValue(vars: TemplateVariables, name: string): string | undefined {
  // Own properties only: `{{constructor}}` must not find Object.prototype.
  const raw = Object.hasOwn(vars, name) ? vars[name] : undefined;
  if (typeof raw !== 'string') return undefined;
  const value = raw.trim();
  return value === '' || value.includes('{{') ? undefined : value;
}

/** A run of literal text, or a `{{name}}` / `{{name|fallback}}` tag. */
export type TemplatePart =
  | { kind: 'text'; text: string }
  | { kind: 'variable'; name: string; fallback: string | undefined };

/** The parts of a well-formed template, or the first problem found. */
export type TemplateParseResult = { ok: true; parts: TemplatePart[] } | { ok: false; problem: string };

// Names are keys of a flat record (firstName, company, custom attributes); no dots,
// so nobody expects `{{company.name}}` to reach into an object.
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * Splits a template into text and variable tags. Whitespace inside the braces is
 * ignored (`{{ firstName | there }}`); the fallback runs to the first `}}` and may
 * hold spaces and punctuation but no `{` or `}`, which would make the tag
 * ambiguous and could put a literal `{{` in an email.
 */
export function parseTemplate(template: string): TemplateParseResult {
  const parts: TemplatePart[] = [];
  let position = 0;
  for (;;) {
    const open = template.indexOf('{{', position);
    if (open === -1) {
      pushText(parts, template.slice(position));
      return { ok: true, parts };
    }
    pushText(parts, template.slice(position, open));
    const where = `at character ${open + 1} (${excerpt(template, open)})`;
    const close = template.indexOf('}}', open + 2);
    const inner = close === -1 ? '' : template.slice(open + 2, close);
    if (close === -1 || inner.includes('{{')) return { ok: false, problem: `unclosed "{{" ${where}` };
    const pipe = inner.indexOf('|');
    const name = (pipe === -1 ? inner : inner.slice(0, pipe)).trim();
    if (name === '') return { ok: false, problem: `empty variable name ${where}` };
    if (!VARIABLE_NAME.test(name)) {
      return {
        ok: false,
        problem: `invalid variable name "${name}" ${where}: use letters, digits, "_" or "-", starting with a letter or "_"`,
      };
    }
    const fallback = pipe === -1 ? undefined : inner.slice(pipe + 1).trim();
    if (fallback !== undefined && /[{}]/.test(fallback)) {
      return { ok: false, problem: `fallback of "${name}" ${where} must not contain "{" or "}"` };
    }
    parts.push({ kind: 'variable', name, fallback });
    position = close + 2;
  }
}

function pushText(parts: TemplatePart[], text: string): void {
  if (text !== '') parts.push({ kind: 'text', text });
}

function excerpt(template: string, at: number): string {
  const snippet = template.slice(at, at + 24);
  return JSON.stringify(snippet.length < template.length - at ? `${snippet}…` : snippet);
}

import { type SequencePolicies, SequencePoliciesSchema } from './sequence-policies.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * RFC 7396 JSON merge patch: objects merge key by key, `null` removes a key (so
 * the policy is back to its default), anything else replaces.
 */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    // Own properties only (defineProperty): a `__proto__` key is a field, never the prototype.
    if (value === null) delete out[key];
    else
      Object.defineProperty(out, key, {
        value: mergePatch(Object.hasOwn(out, key) ? out[key] : undefined, value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return out;
}

/** The keys of `input` the schema dropped (unknown fields), as dotted paths. */
function droppedKeys(input: unknown, parsed: unknown, path: string[]): string[] {
  if (!isObject(input) || !isObject(parsed)) return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(input)) {
    if (!Object.hasOwn(parsed, key)) out.push([...path, key].join('.'));
    else out.push(...droppedKeys(value, parsed[key], [...path, key]));
  }
  return out;
}

/**
 * A sequence's policies after a merge patch, validated by core's schema with the
 * defaults filled in; or the fields at fault (an unknown field is one: a typo must
 * not be dropped silently), each named from `prefix`.
 */
export function patchSequencePolicies(
  current: SequencePolicies,
  patch: unknown,
  prefix = 'body',
): { ok: true; policies: SequencePolicies } | { ok: false; errors: { field: string; message: string }[] } {
  if (!isObject(patch)) return { ok: false, errors: [{ field: prefix, message: 'expected an object' }] };
  const merged = mergePatch(current as unknown as Json, patch);
  const parsed = SequencePoliciesSchema.safeParse(merged);
  const name = (path: PropertyKey[]) => [prefix, ...path.map(String)].join('.');
  if (!parsed.success) {
    return {
      ok: false,
      errors: parsed.error.issues.map((i) => ({ field: name(i.path), message: i.message })),
    };
  }
  const unknown = droppedKeys(patch, parsed.data, []);
  if (unknown.length > 0) {
    return {
      ok: false,
      errors: unknown.map((path) => ({ field: `${prefix}.${path}`, message: 'unknown policy field' })),
    };
  }
  return { ok: true, policies: parsed.data };
}
